import type { Database, Statement } from 'better-sqlite3';
import type { AutoAcceptRule, Mapping, Strategy } from '../../../shared/model';
import { assessRow, autoAccepts, jobChange, rowFacts, rowInput, type CandidateFacts, type RowAssessment } from '../matching';
import { parseCells } from './plan-queries';
import type { ChosenPerson } from './row-status';

/** One query's answer: its candidates' facts (none when the service found nobody). */
export interface Answer {
  key: string;
  strategy: Strategy;
  facts: readonly CandidateFacts[];
}

/** What answers did to the rows waiting on them. */
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

/** A candidate as a decision keeps it: who, how sure the model was and why, and where they are now against the sheet's company. */
export function chosenFrom(assessment: RowAssessment, facts: readonly CandidateFacts[], rank: number, sheetCompany: string | null): ChosenPerson | null {
  const judged = assessment.candidates.find((c) => c.rank === rank);
  const person = facts.find((f) => f.rank === rank);
  if (!judged || !person) return null;
  return {
    rank,
    score: person.score,
    summary: person.summary,
    confidence: judged.confidence,
    reason: judged === assessment.candidates[0] ? assessment.reason : judged.reason,
    jobChange: jobChange(sheetCompany, person.jobs),
  };
}

/**
 * Applies answers to the undecided rows of one project that wait on a query (state 'pending'). Every waiting row is
 * compared with the answer's candidates on its own (matching/assess-row.ts): rows asking one query may still differ
 * in what else they say (an e-mail domain, a location), and an identical query is still asked only once.
 */
export class RowResolution {
  private readonly waiting: Statement;
  private readonly found: Statement;
  private readonly advance: Statement;
  private readonly exhausted: Statement;
  private readonly settle: Statement;

  constructor(
    private readonly db: Database,
    private readonly projectId: number,
    private readonly mapping: Mapping,
    private readonly rule: AutoAcceptRule,
  ) {
    // The rows waiting on a batch of answers, in one statement (a statement per answer cost as much as the reads).
    // CROSS JOIN keeps the keys as the outer loop: left to itself SQLite walked the project's whole query index.
    this.waiting = db
      .prepare(
        `SELECT rs.query_key, rs.row_index, r.cells FROM json_each(?) AS k
         CROSS JOIN row_status AS rs INDEXED BY row_status_by_query
         CROSS JOIN rows AS r ON r.project_id = rs.project_id AND r.row_index = rs.row_index
         WHERE rs.project_id = ? AND rs.query_key = k.value AND rs.state = 'pending'`,
      )
      .raw();
    this.found = db.prepare(
      `UPDATE row_status SET
         outcome = 'to_review',
         state = CASE WHEN @auto THEN 'auto' ELSE 'to_review' END,
         candidate_count = @count,
         chosen_rank = CASE WHEN @auto THEN @bestRank END,
         chosen = CASE WHEN @auto THEN @chosen END,
         source = CASE WHEN @auto THEN 'auto' END,
         decided_at = CASE WHEN @auto THEN @at END,
         job_change = CASE WHEN @auto THEN @jobChange END,
         confidence = @confidence, runner_up = @runnerUp, best_rank = @bestRank, reason = @reason, guard = @guard
       WHERE project_id = @projectId AND row_index = @rowIndex`,
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
      `UPDATE OR FAIL row_status INDEXED BY row_status_by_query SET outcome = 'no_candidates', state = 'no_candidates', candidate_count = 0,
         confidence = NULL, runner_up = NULL, best_rank = NULL, reason = NULL, guard = NULL
       WHERE project_id = @projectId AND query_key = @key AND state = 'pending'`,
    );
    this.settle = db.prepare(
      `UPDATE OR FAIL row_status INDEXED BY row_status_by_query SET outcome = @state, state = @state, candidate_count = 0
       WHERE project_id = @projectId AND query_key = @key AND state = 'pending'`,
    );
  }

  /** Answers from the service or the cache: candidates settle each waiting row (auto-accepted when the rule allows), nobody moves them on. */
  answerAll(answers: readonly Answer[], at: string): ResolutionCount {
    const count: ResolutionCount = { resolved: 0, advanced: 0 };
    const found = answers.filter((a) => a.facts.length > 0);
    for (const a of answers) {
      if (a.facts.length > 0) continue;
      const params = { projectId: this.projectId, key: a.key };
      count.advanced += this.advance.run(params).changes;
      count.resolved += this.exhausted.run(params).changes;
    }
    if (found.length === 0) return count;
    const waiting = new Map<string, [rowIndex: number, cells: string][]>();
    for (const [key, rowIndex, cells] of this.waiting.all(JSON.stringify(found.map((a) => a.key)), this.projectId) as [string, number, string][]) {
      let rows = waiting.get(key);
      if (!rows) waiting.set(key, (rows = []));
      rows.push([rowIndex, cells]);
    }
    for (const a of found) count.resolved += this.settleRows(a, waiting.get(a.key) ?? [], at);
    return count;
  }

  /** Each row is compared with the answer's candidates; rows asking one query usually hold the same cells (a sheet's duplicates): those once. */
  private settleRows({ strategy, facts }: Answer, rows: readonly [number, string][], at: string): number {
    let resolved = 0;
    let lastCells: string | null = null;
    let last: { assessment: RowAssessment; auto: boolean; chosen: string | null; jobChange: string | null } | null = null;
    for (const [rowIndex, cells] of rows) {
      if (cells !== lastCells || !last) {
        const input = rowInput(parseCells(cells), this.mapping);
        const assessment = assessRow(rowFacts(input), facts, strategy, 'best');
        const auto = autoAccepts(assessment, this.rule);
        const chosen = auto ? chosenFrom(assessment, facts, assessment.candidates[0]!.rank, input.company) : null;
        last = { assessment, auto, chosen: chosen ? JSON.stringify(chosen) : null, jobChange: chosen?.jobChange?.status ?? null };
        lastCells = cells;
      }
      const { assessment, auto, chosen, jobChange } = last;
      resolved += this.found.run({
        projectId: this.projectId,
        rowIndex,
        auto: auto ? 1 : 0,
        count: Math.min(facts.length, 5),
        bestRank: assessment.candidates[0]!.rank,
        chosen,
        jobChange,
        at,
        confidence: assessment.confidence,
        runnerUp: assessment.runnerUp,
        reason: assessment.reason,
        guard: assessment.guard,
      }).changes;
    }
    return resolved;
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
