import type { Database, Statement } from 'better-sqlite3';
import type { AutoAcceptRule, Candidate, Strategy } from '../../../shared/model';
import { autoAcceptable, summarizePerson } from '../matching';
import type { AnswerDigest } from '../store';

/** What one answer did to the rows waiting on it. */
export interface ResolutionCount {
  /** Rows that stopped waiting: found candidates, found nobody at their last step, failed or not fetched. */
  resolved: number;
  /** Rows that found nobody and moved on to their next step. */
  advanced: number;
}

// Without statistics SQLite walks the primary key of a WITHOUT ROWID table for these updates, i.e. every row of
// the project per answer; the index on (project_id, query_key) touches only the rows that ask the query.
// OR FAIL: an UPDATE of several rows that could abort halfway makes SQLite copy every page it changes into a
// statement journal (a temporary file past 64 KB), and a run makes tens of thousands of them. Nothing here can
// break a constraint, and a failure rolls back the caller's whole transaction anyway. Measured on a 100,000-row
// run: 2.2 GB written without it, 1.5 GB with it.

/** An answer's digest, as stored beside it in the cache. */
export function digestAnswer(candidates: readonly Candidate[]): AnswerDigest {
  if (candidates.length === 0) return { count: 0, topScore: null, secondScore: null, topSummary: null };
  const ranked = [...candidates].sort((a, b) => a.rank - b.rank);
  const top = ranked[0]!;
  return { count: candidates.length, topScore: top.score ?? null, secondScore: ranked[1]?.score ?? null, topSummary: JSON.stringify(summarizePerson(top.person)) };
}

/**
 * The candidates autoAcceptable reads, rebuilt from a digest: how many there are and the first two scores by rank
 * (it looks at nothing else).
 */
function rankedScores(digest: AnswerDigest): Candidate[] {
  const ranked: Candidate[] = [{ rank: 1, score: digest.topScore, person: {} }];
  if (digest.count > 1) ranked.push({ rank: 2, score: digest.secondScore, person: {} });
  return ranked;
}

/** JSON.stringify of the ChosenPerson { rank: 1, score, summary }, without parsing the stored summary again. */
function topChosen(digest: AnswerDigest): string {
  return `{"rank":1,"score":${digest.topScore === null ? 'null' : JSON.stringify(digest.topScore)},"summary":${digest.topSummary ?? 'null'}}`;
}

/**
 * Applies answers to the undecided rows of one project that wait on a query (state 'pending'). All rows that
 * ask the same query are settled by one statement, which is how an identical query is asked once.
 */
export class RowResolution {
  private readonly found: Statement;
  private readonly advance: Statement;
  private readonly exhausted: Statement;
  private readonly settle: Statement;

  constructor(
    private readonly db: Database,
    private readonly projectId: number,
    private readonly rule: AutoAcceptRule,
  ) {
    this.found = db.prepare(
      `UPDATE OR FAIL row_status INDEXED BY row_status_by_query SET
         outcome = 'to_review',
         state = CASE WHEN @auto THEN 'auto' ELSE 'to_review' END,
         candidate_count = @count,
         chosen_rank = CASE WHEN @auto THEN 1 END,
         chosen = CASE WHEN @auto THEN @chosen END,
         source = CASE WHEN @auto THEN 'auto' END,
         decided_at = CASE WHEN @auto THEN @at END
       WHERE project_id = @projectId AND query_key = @key AND state = 'pending'`,
    );
    const next = `FROM row_queries rq WHERE rq.project_id = row_status.project_id AND rq.row_index = row_status.row_index AND rq.step = row_status.step + 1`;
    this.advance = db.prepare(
      `UPDATE OR FAIL row_status INDEXED BY row_status_by_query SET
         step = step + 1,
         query_key = (SELECT rq.query_key ${next}),
         strategy = (SELECT rq.strategy ${next})
       WHERE project_id = @projectId AND query_key = @key AND state = 'pending' AND EXISTS (SELECT 1 ${next})`,
    );
    this.exhausted = db.prepare(
      `UPDATE OR FAIL row_status INDEXED BY row_status_by_query SET outcome = 'no_candidates', state = 'no_candidates', candidate_count = 0
       WHERE project_id = @projectId AND query_key = @key AND state = 'pending'`,
    );
    this.settle = db.prepare(
      `UPDATE OR FAIL row_status INDEXED BY row_status_by_query SET outcome = @state, state = @state, candidate_count = 0
       WHERE project_id = @projectId AND query_key = @key AND state = 'pending'`,
    );
  }

  /** The service's answer: candidates settle the rows (auto-accepted when the rule allows), nobody moves them on. */
  answer(key: string, strategy: Strategy, digest: AnswerDigest, at: string): ResolutionCount {
    const params = { projectId: this.projectId, key };
    if (digest.count === 0) {
      const advanced = this.advance.run(params).changes;
      const resolved = this.exhausted.run(params).changes;
      return { resolved, advanced };
    }
    const auto = autoAcceptable(strategy, rankedScores(digest), this.rule);
    const resolved = this.found.run({ ...params, auto: auto ? 1 : 0, count: Math.min(digest.count, 5), chosen: auto ? topChosen(digest) : null, at }).changes;
    return { resolved, advanced: 0 };
  }

  failed(key: string): ResolutionCount {
    return { resolved: this.settle.run({ projectId: this.projectId, key, state: 'error' }).changes, advanced: 0 };
  }

  notFetched(key: string): ResolutionCount {
    return { resolved: this.settle.run({ projectId: this.projectId, key, state: 'offline' }).changes, advanced: 0 };
  }

  /** Rows that failed or were not fetched last time are asked again by a new run. */
  reopenAskable(): number {
    return this.db
      .prepare("UPDATE row_status SET state = 'pending', outcome = 'pending' WHERE project_id = ? AND state IN ('error', 'offline')")
      .run(this.projectId).changes;
  }

  pendingRows(): number {
    return this.db.prepare("SELECT count(*) FROM row_status WHERE project_id = ? AND state = 'pending'").pluck().get(this.projectId) as number;
  }
}
