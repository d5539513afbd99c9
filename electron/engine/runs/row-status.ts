import type { Database } from 'better-sqlite3';
import { DECIDED_STATES, ROW_STATES, type PersonSummary, type RowState, type Strategy } from '../../../shared/model';

/** The person a decision picked, kept beside the decision so it outlives a cleared cache. */
export interface ChosenPerson {
  rank: number;
  score: number | null;
  summary: PersonSummary;
}

/** One row of `row_status`: `state` is the decision when there is one, else `outcome` (what the run found). */
export interface RowStatusRecord {
  rowIndex: number;
  state: RowState;
  outcome: RowState;
  step: number;
  strategy: Strategy | null;
  queryKey: string | null;
  candidateCount: number;
  chosenRank: number | null;
  chosen: ChosenPerson | null;
  source: 'auto' | 'manual' | null;
  decidedAt: string | null;
  label: string;
}

export function isDecided(state: RowState): boolean {
  return DECIDED_STATES.includes(state);
}

export function emptyCounts(): Record<RowState, number> {
  return Object.fromEntries(ROW_STATES.map((s) => [s, 0])) as Record<RowState, number>;
}

/** Rows per state for a whole project: a walk over the (project_id, state, row_index) index. */
export function stateCounts(db: Database, projectId: number): Record<RowState, number> {
  const counts = emptyCounts();
  const rows = db.prepare('SELECT state, count(*) AS n FROM row_status WHERE project_id = ? GROUP BY state').all(projectId) as { state: RowState; n: number }[];
  for (const r of rows) if (r.state in counts) counts[r.state] = r.n;
  return counts;
}

export interface RowStatusRow {
  row_index: number;
  state: RowState;
  outcome: RowState;
  step: number;
  strategy: Strategy | null;
  query_key: string | null;
  candidate_count: number;
  chosen_rank: number | null;
  chosen: string | null;
  source: 'auto' | 'manual' | null;
  decided_at: string | null;
  label: string;
}

export const ROW_STATUS_COLUMNS = 'row_index, state, outcome, step, strategy, query_key, candidate_count, chosen_rank, chosen, source, decided_at, label';

export function toRowStatus(row: RowStatusRow): RowStatusRecord {
  return {
    rowIndex: row.row_index,
    state: row.state,
    outcome: row.outcome,
    step: row.step,
    strategy: row.strategy,
    queryKey: row.query_key,
    candidateCount: row.candidate_count,
    chosenRank: row.chosen_rank,
    chosen: parseChosen(row.chosen),
    source: row.source,
    decidedAt: row.decided_at,
    label: row.label,
  };
}

export function readRowStatus(db: Database, projectId: number, rowIndex: number): RowStatusRecord | null {
  const row = db.prepare(`SELECT ${ROW_STATUS_COLUMNS} FROM row_status WHERE project_id = ? AND row_index = ?`).get(projectId, rowIndex) as RowStatusRow | undefined;
  return row ? toRowStatus(row) : null;
}

/** Bound parameters of a full row_status write; pair with writeRowStatusSql. */
export function rowStatusParams(projectId: number, r: RowStatusRecord): Record<string, unknown> {
  return {
    projectId,
    rowIndex: r.rowIndex,
    state: r.state,
    outcome: r.outcome,
    step: r.step,
    strategy: r.strategy,
    queryKey: r.queryKey,
    candidateCount: r.candidateCount,
    chosenRank: r.chosenRank,
    chosen: r.chosen ? JSON.stringify(r.chosen) : null,
    source: r.source,
    decidedAt: r.decidedAt,
    label: r.label,
  };
}

export const WRITE_ROW_STATUS_SQL = `INSERT OR REPLACE INTO row_status
  (project_id, row_index, state, outcome, step, strategy, query_key, candidate_count, chosen_rank, chosen, source, decided_at, label)
  VALUES (@projectId, @rowIndex, @state, @outcome, @step, @strategy, @queryKey, @candidateCount, @chosenRank, @chosen, @source, @decidedAt, @label)`;

function parseChosen(text: string | null): ChosenPerson | null {
  if (text === null) return null;
  try {
    return JSON.parse(text) as ChosenPerson;
  } catch {
    return null;
  }
}
