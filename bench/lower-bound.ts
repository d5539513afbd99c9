import Database from 'better-sqlite3';

export interface RoundQueries {
  /** 0-based waterfall step. */
  step: number;
  /** Distinct queries first needed in this round (those an earlier round asked are answered from the cache). */
  distinct: number;
}

/**
 * The distinct queries each round of a finished run had to ask, from the project's plan and where each row
 * stopped: a row asked its steps 0..step (the last one found somebody, or nobody at all). Read from the
 * database file, independent of the engine's own counters.
 */
export function roundsOfRun(dbPath: string, projectId: number): RoundQueries[] {
  const db = new Database(dbPath, { readonly: true, fileMustExist: true });
  try {
    const asked = db
      .prepare(
        `SELECT rq.step AS step, rq.query_id AS id FROM row_queries rq
         JOIN row_status rs ON rs.project_id = rq.project_id AND rs.row_index = rq.row_index
         WHERE rq.project_id = ? AND rq.step <= rs.step AND rs.outcome <> 'no_query'
         ORDER BY rq.step`,
      )
      .raw()
      .iterate(projectId) as IterableIterator<[number, number]>;
    const seen = new Set<number>();
    const rounds: RoundQueries[] = [];
    for (const [step, id] of asked) {
      if (seen.has(id)) continue;
      seen.add(id);
      (rounds[step] ??= { step, distinct: 0 }).distinct++;
    }
    return rounds.filter((r) => r !== undefined);
  } finally {
    db.close();
  }
}

/** The bound: per round, ceil(distinct / 100) x latency / concurrency, summed over the rounds. */
export function lowerBoundSeconds(rounds: RoundQueries[], latencyMs: number, concurrency: number): number {
  return rounds.reduce((sum, r) => sum + (Math.ceil(r.distinct / 100) * latencyMs) / concurrency, 0) / 1000;
}

/** Rows of the first `rows` rows for which the run found somebody: to check the reference strategies against. */
export function rowsFoundInSlice(dbPath: string, projectId: number, rows: number): number {
  const db = new Database(dbPath, { readonly: true, fileMustExist: true });
  try {
    return db
      .prepare("SELECT count(*) FROM row_status WHERE project_id = ? AND row_index < ? AND outcome = 'to_review'")
      .pluck()
      .get(projectId, rows) as number;
  } finally {
    db.close();
  }
}
