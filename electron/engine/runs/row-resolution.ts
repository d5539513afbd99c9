import type { Database, Statement } from 'better-sqlite3';
import type { AutoAcceptRule, Mapping, Strategy } from '../../../shared/model';
import type { CandidateFacts } from '../matching';
import { verdictsFor, type VerdictContext, type VerdictValues } from './row-verdict';
import { hasLearned, usableState, type LearnedState } from '../matching/learned-model';
import { stateRowsHint, storedDecidedAt } from '../rows/row-status';
import { storedLearning } from '../rows/stored-learning';
import { verdictBasis } from './verdict-basis';

/** One query's answer: its candidates' facts (none when the service found nobody). */
export interface Answer {
  strategy: Strategy;
  facts: readonly CandidateFacts[];
  /** When the service gave it (ms): the rows it settles keep this, for export. */
  fetchedAt: number;
}

/** A row waiting on a query, with its cells: what it is compared with the answer's candidates by. */
export interface WaitingRow {
  rowIndex: number;
  cells: string;
  /** The step of the row's waterfall it waits at, that step's query (runs/query-ids.ts) and strategy. */
  step: number;
  queryId: number;
  strategy: Strategy;
  /** Moved past the step stored by the run, in memory (an answer found nobody): the step is written with the row's result. */
  moved: boolean;
}

/** What answers did to the rows waiting on them. */
export interface ResolutionCount {
  /** Rows that stopped waiting: found candidates, found nobody at their last step, failed or not fetched. */
  resolved: number;
  /** Rows that found nobody and moved on to their next step. */
  advanced: number;
}

/**
 * Settles the rows of one project that wait on a query (state 'pending'), row by row as the run hands them over: the
 * rows of a page it walked, or those that waited on a call that landed. Every row is compared with the answer's
 * candidates on its own (matching/assess-row.ts): rows asking one query may still differ in what else they say (an
 * e-mail domain, a location), and an identical query is still asked only once. A row no longer pending (a person
 * decided it meanwhile) is left as it is.
 */
export class RowResolution {
  private readonly foundRow: Statement;
  private readonly foundPerson: Statement;
  private readonly moveTo: Statement;
  private readonly advance: Statement;
  private readonly exhausted: Statement;
  private readonly settle: Statement;
  /** What this run's verdicts are worked out by, stored with each (verdict-basis.ts). */
  readonly basis: number;
  /** What the project learned from its decisions, as the run starts: the rows it settles are settled under it. */
  private readonly learned: LearnedState | null;

  constructor(
    db: Database,
    private readonly projectId: number,
    private readonly mapping: Mapping,
    private readonly rule: AutoAcceptRule,
  ) {
    const learned = usableState(storedLearning(db, projectId)?.state ?? null).state;
    this.learned = hasLearned(learned) ? learned : null;
    this.basis = verdictBasis(mapping, rule, this.learned);
    const row = 'project_id = ? AND row_index = ? AND state = \'pending\'';
    // An accepted row's person, by position in its answer's people; none for an answer stored before migration 25,
    // whose rows keep the person whole.
    // Correlated with the row: the same subquery with the query id bound took several times as long.
    const chosenPerson = '(SELECT j.value FROM lookups AS l, json_each(l.people) AS j WHERE l.query_id = row_status.query_id AND j.key = ?)';
    const verdict = `chosen_score = ?, chosen_confidence = ?, chosen_reason = ?, source = ?, decided_at = ?, job_change = ?, job_change_date = ?, job_change_reason = ?,
         confidence = ?, runner_up = ?, best_rank = ?, reason = ?, guard = ?, verdict_basis = ?`;
    this.foundRow = db.prepare(
      `UPDATE row_status SET outcome = 'to_review', fetched_at = ?, state = ?, candidate_count = ?, chosen_rank = ?,
         chosen = CASE WHEN ? IS NOT NULL AND ${chosenPerson} IS NULL THEN ? END,
         chosen_person = CASE WHEN ? IS NOT NULL THEN ${chosenPerson} END,
         ${verdict}
       WHERE ${row}`,
    );
    // A row settled by an answer this run stored: its person's id is known, and bound (the subquery read the answer's
    // people again for every accepted row).
    this.foundPerson = db.prepare(
      `UPDATE row_status SET outcome = 'to_review', fetched_at = ?, state = ?, candidate_count = ?, chosen_rank = ?, chosen = NULL, chosen_person = ?,
         ${verdict}
       WHERE ${row}`,
    );
    // A row moved on in memory gets its step just before its result, in the same transaction: its page is written once.
    this.moveTo = db.prepare(`UPDATE row_status SET step = ?, query_id = ?, strategy = ? WHERE ${row}`);
    // A row-value subquery, not UPDATE ... FROM row_queries: 8-10 µs a row against 32-52. The run moves its rows on in
    // memory (matching-run.ts follow); rows reach this at their last step, or through a stale answer that found nobody.
    const nextStep = 'FROM row_queries AS rq WHERE rq.project_id = row_status.project_id AND rq.row_index = row_status.row_index AND rq.step = ?';
    this.advance = db.prepare(
      `UPDATE row_status SET (step, query_id, strategy, fetched_at) = (SELECT rq.step, rq.query_id, rq.strategy, NULL ${nextStep})
       WHERE ${row} AND EXISTS (SELECT 1 ${nextStep})`,
    );
    this.exhausted = db.prepare(
      `UPDATE row_status SET outcome = 'no_candidates', state = 'no_candidates', fetched_at = ?, candidate_count = 0,
         confidence = NULL, runner_up = NULL, best_rank = NULL, reason = NULL, guard = NULL, verdict_basis = NULL
       WHERE ${row}`,
    );
    this.settle = db.prepare(`UPDATE row_status SET outcome = ?, state = ?, fetched_at = ?, candidate_count = 0 WHERE ${row}`);
  }

  /** An answer from the service or the cache: candidates settle each row (auto-accepted when the rule allows), nobody moves it on. */
  answer(rows: readonly WaitingRow[], { strategy, facts, fetchedAt }: Answer, at: string): ResolutionCount {
    if (facts.length === 0) return this.foundNobody(rows, fetchedAt);
    const cells = rows.map((r) => r.cells);
    return this.found(rows, verdictsFor(cells, strategy, facts, this.verdictContext(at)), fetchedAt);
  }

  /** What the rows' verdicts go by, for rows settled at `at`. */
  verdictContext(at: string): VerdictContext {
    return { mapping: this.mapping, rule: this.rule, learned: this.learned, at };
  }

  /** Rows an answer with candidates settles, with each row's values as row-verdict.ts works them out (in this order). */
  found(rows: readonly WaitingRow[], values: readonly VerdictValues[], fetchedAt: number): ResolutionCount {
    let resolved = 0;
    for (let i = 0; i < rows.length; i++) resolved += this.foundOne(rows[i]!, values[i]!, fetchedAt);
    return { resolved, advanced: 0 };
  }

  /**
   * One row an answer with candidates settles (found): 1 when written, 0 when no longer pending. Its values are bound
   * one by one, with no array made a row: a run writes every row it settles here. `people`: the answer's people's ids
   * as stored (putLookups), when this run stored it or read them with its facts (getAnswerFacts); else the chosen one
   * is found by position in the stored answer.
   */
  foundOne(row: WaitingRow, v: VerdictValues, fetchedAt: number, people?: readonly number[] | null): number {
    this.moveOn(row);
    const whole = v[3];
    const position = v[4];
    const decidedAt = storedDecidedAt(v[9] as string | null, fetchedAt);
    if (people && whole === null) {
      const person = position === null ? null : (people[position as number] ?? null);
      return this.foundPerson.run(fetchedAt, v[0], v[1], v[2], person, v[5], v[6], v[7], v[8], decidedAt, v[10], v[11], v[12], v[13], v[14], v[15], v[16], v[17], this.basis, this.projectId, row.rowIndex).changes;
    }
    return this.foundRow.run(fetchedAt, v[0], v[1], v[2], whole, position, whole, position, position, v[5], v[6], v[7], v[8], decidedAt, v[10], v[11], v[12], v[13], v[14], v[15], v[16], v[17], this.basis, this.projectId, row.rowIndex).changes;
  }

  /** Rows an answer that found nobody moves on to their next step, or ends. */
  foundNobody(rows: readonly WaitingRow[], fetchedAt: number): ResolutionCount {
    const count: ResolutionCount = { resolved: 0, advanced: 0 };
    for (const row of rows) {
      const next = row.step + 1;
      const moved = this.advance.run(next, this.projectId, row.rowIndex, next).changes;
      count.advanced += moved;
      if (moved === 0) count.resolved += this.noCandidates([row], fetchedAt).resolved;
    }
    return count;
  }

  /** Rows an answer found nobody for at their last step: they end with no candidates. */
  noCandidates(rows: readonly WaitingRow[], fetchedAt: number): ResolutionCount {
    let resolved = 0;
    for (const row of rows) {
      this.moveOn(row);
      resolved += this.exhausted.run(fetchedAt, this.projectId, row.rowIndex).changes;
    }
    return { resolved, advanced: 0 };
  }

  /** `failedAt`: when the call failed (the error stored in the cache then), which the rows keep. */
  failed(rows: readonly WaitingRow[], failedAt: number): ResolutionCount {
    return this.settleAs(rows, 'error', failedAt);
  }

  notFetched(rows: readonly WaitingRow[]): ResolutionCount {
    return this.settleAs(rows, 'offline', null);
  }

  private settleAs(rows: readonly WaitingRow[], state: 'error' | 'offline', at: number | null): ResolutionCount {
    let resolved = 0;
    for (const row of rows) {
      this.moveOn(row);
      resolved += this.settle.run(state, state, at, this.projectId, row.rowIndex).changes;
    }
    return { resolved, advanced: 0 };
  }

  /** A row the run moved on in memory: its step, written just before its result. */
  private moveOn(row: WaitingRow): void {
    if (row.moved) this.moveTo.run(row.step, row.queryId, row.strategy, this.projectId, row.rowIndex);
  }
}

/** Rows that failed or were not fetched last time are asked again by a new run. */
export function reopenAskable(db: Database, projectId: number): number {
  const hint = stateRowsHint(db, projectId, 'error', 'offline');
  return db.prepare(`UPDATE row_status ${hint} SET state = 'pending', outcome = 'pending' WHERE project_id = ? AND state IN ('error', 'offline')`).run(projectId).changes;
}

export function pendingRowCount(db: Database, projectId: number): number {
  return db.prepare("SELECT count(*) FROM row_status WHERE project_id = ? AND state = 'pending'").pluck().get(projectId) as number;
}
