import type { Database } from 'better-sqlite3';
import type { FailedQuery } from '../../../shared/contract';
import { requireProject } from '../rows/project-record';
import { stateRowsHint } from '../rows/row-status';
import { getLookups } from '../store';
import { describeQuery, plannedQuery } from './query-records';

/** The project's failed queries (run.failures), one per query with the rows waiting on it, in sheet order. */
export function runFailures(db: Database, projectId: number): FailedQuery[] {
  requireProject(db, projectId);
  const groups = db
    .prepare(
      `SELECT query_key AS key, strategy, count(*) AS n, min(row_index) AS first FROM row_status ${stateRowsHint(db, projectId, 'error')}
       WHERE project_id = ? AND state = 'error' AND query_key IS NOT NULL GROUP BY query_key ORDER BY first LIMIT 1000`,
    )
    .all(projectId) as { key: string; strategy: FailedQuery['strategy']; n: number; first: number }[];
  const lookups = getLookups(
    db,
    groups.map((g) => g.key),
    Number.MIN_SAFE_INTEGER,
  );
  return groups.map((g) => {
    const lookup = lookups.get(g.key);
    const query = lookup?.query ?? plannedQuery(db, projectId, g.first, g.key);
    return {
      queryKey: g.key,
      strategy: g.strategy,
      terms: query ? describeQuery(query) : '',
      error: lookup?.error?.message ?? 'The query failed without a message.',
      errorKind: lookup?.error?.kind ?? null,
      rows: g.n,
    };
  });
}
