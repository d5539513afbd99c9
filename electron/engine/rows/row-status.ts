import type { Database } from 'better-sqlite3';
import { DECIDED_STATES, ROW_STATES, type JobChange, type JobChangeStatus, type PersonSummary, type RowState, type Strategy } from '../../../shared/model';
import { FACTS_VERSION, candidateFacts, readStoredPersonFacts, readStoredSummary, type CandidateFacts } from '../matching/candidate-facts';
import { StampedCache } from '../store/data-stamp';
import { ROW_FACTS_VERSION } from '../store/lookups';
import { repeated, statement } from '../store/statements';
import { recordOf, recordSql } from '../store/person-records';
import { jobChangeReasonOf, storedJobChangeReason } from './job-change-reason';

/**
 * The person a decision picked. Stored as numbers beside the decision (the version's `people` id, which clearing the
 * cache keeps, its score, the confidence, the job change's status and date), or, for a decision written before
 * migration 27 or taken from a refresh's record found before it (no `people` row holds either), as this JSON in `chosen`.
 */
export interface ChosenPerson {
  rank: number;
  score: number | null;
  summary: PersonSummary;
  /** The model's confidence in this candidate for the row, and why (absent on decisions made before the model). */
  confidence?: number;
  reason?: string;
  /** Where the person is now against the sheet's company (absent on decisions made before it was kept). */
  jobChange?: JobChange;
  /** The `people` id of the version chosen: the decision is stored as numbers. */
  personId?: number;
}

/** What the confidence model concluded about a row's candidates (matching/assess-row.ts), as stored on the row. */
export interface RowVerdict {
  confidence: number;
  runnerUp: number;
  /** The service rank of the candidate the model puts first. */
  bestRank: number;
  reason: string;
  guard: string | null;
}

/** One row of `row_status`: `state` is the decision when there is one, else `outcome` (what the run found). */
export interface RowStatusRecord {
  rowIndex: number;
  state: RowState;
  outcome: RowState;
  step: number;
  strategy: Strategy | null;
  /** The query's id in `queries` (runs/query-ids.ts): the one asked, or whose answer settled the row; null with nothing to ask. */
  queryId: number | null;
  /** When the answer that settled the row was fetched (ms); null while the row waits or had nothing to ask. */
  fetchedAt: number | null;
  candidateCount: number;
  chosenRank: number | null;
  chosen: ChosenPerson | null;
  source: 'auto' | 'manual' | null;
  decidedAt: string | null;
  label: string;
  /** Null until the row has candidates. */
  verdict: RowVerdict | null;
}

/**
 * What row_status.job_change holds: the matched person's job change, for a row matched (auto or accepted) with a
 * decision that carries one; null otherwise. Every writer of a decision sets it, so counts and filters read an index.
 */
export function jobChangeOf(state: RowState, chosen: ChosenPerson | null): JobChangeStatus | null {
  return state === 'auto' || state === 'accepted' ? (chosen?.jobChange?.status ?? null) : null;
}

/** The states whose rows a run asks for (again): not looked up yet, or looked up without an answer. */
export const ASKABLE_STATES: readonly RowState[] = ['pending', 'error', 'offline'];

export function isDecided(state: RowState): boolean {
  return DECIDED_STATES.includes(state);
}

export function emptyCounts(): Record<RowState, number> {
  return Object.fromEntries(ROW_STATES.map((s) => [s, 0])) as Record<RowState, number>;
}

const countsCache = new StampedCache<Record<RowState, number>>();

/**
 * Rows per state for a whole project: a walk over the (project_id, state, row_index) index, which grows with the
 * project, so it is kept until the database changes (every page of the review list shows the counts).
 */
export function stateCounts(db: Database, projectId: number): Record<RowState, number> {
  return { ...countsCache.get(db, String(projectId), () => countStates(db, projectId)) };
}

/**
 * How a statement that reads more of some states' rows than the state index holds should find them. SQLite has no
 * statistics to choose by, and walks the whole project in row order even when no row is in those states: the run's
 * count of the queries still to ask (at each round, the last finding none), its start reopening the rows that failed,
 * and the failed queries' list each walked a large project whole, for seconds from a cold disk. Through the state index
 * a few rows take little and none take nothing, while most of a project is slower than in row order: the index is
 * taken while the states hold under half of the rows (docs/performance.md, "SQLite").
 */
export function stateRowsHint(db: Database, projectId: number, ...states: RowState[]): string {
  // Counted in the state index alone (a walk of the states' entries only), against the span of the project's rows.
  const inState = statement(db, 'SELECT count(*) AS n FROM row_status WHERE project_id = ? AND state IN (SELECT value FROM json_each(?))').get(
    projectId,
    JSON.stringify(states),
  ) as { n: number };
  const span = statement(db, 'SELECT max(row_index) + 1 AS n FROM row_status WHERE project_id = ?').get(projectId) as { n: number | null };
  return inState.n * 2 < (span.n ?? 0) ? 'INDEXED BY row_status_by_state' : '';
}

/** `rows` rows (one when not given) moved from one state to another. */
export interface StateMove {
  from: RowState;
  to: RowState;
  rows?: number;
}

/**
 * Runs `write`, which moves rows between states as `moves` says, keeping the counts without counting again. The
 * moves are read once `write` has returned, so `write` may fill them in as it goes.
 */
export function withStateMoves<R>(db: Database, projectId: number, moves: Iterable<StateMove>, write: () => R): R {
  return countsCache.through(db, String(projectId), write, (before) => {
    const after = { ...before };
    for (const { from, to, rows = 1 } of moves) {
      after[from] -= rows;
      after[to] += rows;
    }
    return after;
  });
}

function countStates(db: Database, projectId: number): Record<RowState, number> {
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
  query_id: number | null;
  fetched_at: number | null;
  candidate_count: number;
  chosen_rank: number | null;
  chosen: string | null;
  source: 'auto' | 'manual' | null;
  decided_at: string | null;
  label: string;
  confidence: number | null;
  runner_up: number | null;
  best_rank: number | null;
  reason: string | null;
  guard: string | null;
  chosen_person: number | null;
  chosen_score: number | null;
  chosen_confidence: number | null;
  chosen_reason: string | null;
  job_change: JobChangeStatus | null;
  job_change_date: string | null;
  /** As rows/job-change-reason.ts stores it: the text, or what stands for it. */
  job_change_reason: string | null;
  /** The chosen version's facts as readStoredPersonFacts reads them (`{"v":..,"f":..}`); null without chosen_person. */
  chosen_facts: string | null;
}

/** The row_status columns a full write sets, in rowStatusValues order. */
const STORED_COLUMNS = [
  'row_index', 'state', 'outcome', 'step', 'strategy', 'query_id', 'fetched_at', 'candidate_count', 'chosen_rank', 'chosen', 'source', 'decided_at', 'label',
  'confidence', 'runner_up', 'best_rank', 'reason', 'guard', 'chosen_person', 'chosen_score', 'chosen_confidence', 'chosen_reason', 'job_change', 'job_change_date',
  'job_change_reason',
];

/**
 * What toRowStatus reads, of the row_status called `alias` (none: the table's own name): its columns and its chosen
 * person's facts, read from `people` by id. `known`: SQL for a person's id and their facts as a reader already has
 * them (a refresh's found person: stored facts as readStoredPersonFacts reads them), taken instead when the row chose
 * that very person: no random page of `people` is read for it.
 */
export function rowStatusColumns(alias?: string, known?: { person: string; facts: string }): string {
  const of = alias ? `${alias}.` : '';
  const read = chosenFactsSql(`${of}chosen_person`);
  const facts = known ? `CASE WHEN ${of}chosen_person = ${known.person} THEN ${known.facts} ELSE ${read} END` : read;
  return `${STORED_COLUMNS.map((c) => `${of}${c}`).join(', ')}, ${facts} AS chosen_facts`;
}

export const ROW_STATUS_COLUMNS = rowStatusColumns();

/**
 * The facts of the person `personId` (an SQL expression) names, as readStoredPersonFacts reads them; or, made by
 * another version of the facts, their record (store/person-records.ts recordSql), to make them from again.
 */
function chosenFactsSql(personId: string): string {
  return `(SELECT CASE WHEN ${rowFactsSql('p')} THEN '{"v":' || p.facts_version || ',"f":' || p.facts || '}' ELSE ${recordSql('p')} END
    FROM people AS p WHERE p.id = ${personId})`;
}

/** Whether the `people` row called `person` holds facts readStoredPersonFacts reads (a row of values, version 3 or 4). */
function rowFactsSql(person: string): string {
  return `${person}.facts_version BETWEEN ${ROW_FACTS_VERSION} AND ${FACTS_VERSION}`;
}

/**
 * The summary's `social` in the facts of the `people` row called `person`, in SQL: the seventh value of a version 3
 * row, the third of a version 4 row (matching/candidate-facts.ts).
 */
function factsSlugSql(person: string): string {
  return `json_extract(${person}.facts, CASE ${person}.facts_version WHEN ${FACTS_VERSION} THEN '$[2]' ELSE '$[6]' END)`;
}

/**
 * The profile slug of the person chosen for the row_status called `alias`, in SQL: read from its `people` facts, or
 * from the JSON of a decision stored whole.
 */
export function chosenSlugSql(alias: string): string {
  return `CASE WHEN ${alias}.chosen_person IS NULL THEN json_extract(${alias}.chosen, '$.summary.social')
    ELSE (SELECT ${factsSlugSql('p')} FROM people AS p WHERE p.id = ${alias}.chosen_person) END`;
}

const WRITTEN_COLUMNS = STORED_COLUMNS.join(', ');

export function toRowStatus(row: RowStatusRow): RowStatusRecord {
  return {
    rowIndex: row.row_index,
    state: row.state,
    outcome: row.outcome,
    step: row.step,
    strategy: row.strategy,
    queryId: row.query_id,
    fetchedAt: row.fetched_at,
    candidateCount: row.candidate_count,
    chosenRank: row.chosen_rank,
    chosen: row.chosen_person === null ? parseChosen(row.chosen) : chosenOf(row, row.chosen_person),
    source: row.source,
    decidedAt: decidedAtOf(row.decided_at, row.fetched_at),
    label: row.label,
    verdict:
      row.confidence === null || row.best_rank === null
        ? null
        : { confidence: row.confidence, runnerUp: row.runner_up ?? 0, bestRank: row.best_rank, reason: row.reason ?? '', guard: row.guard },
  };
}

/**
 * When a decision was taken, as row_status.decided_at stores it: '' for the moment its answer was fetched (most of a
 * first run's are taken then: the ISO text was a tenth of a settled row's bytes), else the ISO text.
 */
export function storedDecidedAt(at: string | null, fetchedAt: number | null): string | null {
  return at !== null && fetchedAt !== null && at === isoTime(fetchedAt) ? '' : at;
}

/** decided_at as storedDecidedAt stored it, with the row's fetched_at: the ISO text. */
export function decidedAtOf(stored: string | null, fetchedAt: number | null): string | null {
  return stored === '' && fetchedAt !== null ? isoTime(fetchedAt) : stored;
}

// Rows written in row order came from the few dozen calls that landed since the last write, and share their times:
// the texts made are kept (only the last one, each row of a write made its text again: at 1M half a second).
const isoTimes = new Map<number, string>();
const ISO_TIMES_KEPT = 256;

function isoTime(ms: number): string {
  let iso = isoTimes.get(ms);
  if (iso === undefined) {
    if (isoTimes.size >= ISO_TIMES_KEPT) isoTimes.clear();
    iso = new Date(ms).toISOString();
    isoTimes.set(ms, iso);
  }
  return iso;
}

export function readRowStatus(db: Database, projectId: number, rowIndex: number): RowStatusRecord | null {
  const row = statement(db, `SELECT ${ROW_STATUS_COLUMNS} FROM row_status WHERE project_id = ? AND row_index = ?`).get(projectId, rowIndex) as RowStatusRow | undefined;
  return row ? toRowStatus(row) : null;
}

/** A full row_status write's values after project_id, in ROW_STATUS_COLUMNS order (positional: planning writes 100,000). */
export type RowStatusValues = [
  rowIndex: number,
  state: RowState,
  outcome: RowState,
  step: number,
  strategy: Strategy | null,
  queryId: number | null,
  fetchedAt: number | null,
  candidateCount: number,
  chosenRank: number | null,
  chosen: string | null,
  source: string | null,
  decidedAt: string | null,
  label: string,
  confidence: number | null,
  runnerUp: number | null,
  bestRank: number | null,
  reason: string | null,
  guard: string | null,
  ...chosen: ChosenValues,
];

export function rowStatusValues(r: RowStatusRecord): RowStatusValues {
  const v = r.verdict;
  const [chosen, ...numbers] = chosenValues(r.state, r.chosen, v?.reason ?? null);
  return [
    r.rowIndex, r.state, r.outcome, r.step, r.strategy, r.queryId, r.fetchedAt, r.candidateCount, r.chosenRank, chosen, r.source, r.decidedAt, r.label,
    v?.confidence ?? null, v?.runnerUp ?? null, v?.bestRank ?? null, v?.reason ?? null, v?.guard ?? null, ...numbers,
  ];
}

/** A decision's chosen person as row_status stores it: in CHOSEN_SQL's columns, in this order. */
export type ChosenValues = [
  chosenPerson: number | null,
  chosenScore: number | null,
  chosenConfidence: number | null,
  chosenReason: string | null,
  jobChange: JobChangeStatus | null,
  jobChangeDate: string | null,
  jobChangeReason: string | null,
];

/**
 * The columns chosenValues sets, in an UPDATE: `chosen = ?, chosen_person = ?, ...`. The reason is kept only where it
 * is not the row's (as it was before the statement).
 */
export const CHOSEN_SQL =
  'chosen = ?, chosen_person = ?, chosen_score = ?, chosen_confidence = ?, chosen_reason = nullif(?, reason), job_change = ?, job_change_date = ?, job_change_reason = ?';

/**
 * The values CHOSEN_SQL writes for a row in `state` that chose `chosen` (or nobody), its own reason being `rowReason`:
 * the JSON of the decision, only when its person has no `people` id, then the numbers. The reason is kept only where
 * it is not the row's.
 */
export function chosenValues(state: RowState, chosen: ChosenPerson | null, rowReason: string | null = null): [json: string | null, ...ChosenValues] {
  const jobChangeStatus = jobChangeOf(state, chosen);
  if (!chosen) return [null, null, null, null, null, jobChangeStatus, null, null];
  if (chosen.personId === undefined) return [JSON.stringify(chosen), null, null, null, null, jobChangeStatus, null, null];
  const reason = chosen.reason === undefined || chosen.reason === rowReason ? null : chosen.reason;
  const jobChange = chosen.jobChange;
  return [null, chosen.personId, chosen.score, chosen.confidence ?? null, reason, jobChangeStatus, jobChange?.date ?? null, storedJobChangeReason(jobChange?.reason ?? null, chosen.reason)];
}

/** A chosen version's facts as chosenFactsSql reads them; null when they do not read. */
function personFacts(read: string): CandidateFacts | null {
  if (!read.startsWith('{"person":') && !read.startsWith('{"packed":')) return readStoredPersonFacts(read);
  try {
    return candidateFacts({ rank: 0, score: null, person: recordOf(read) });
  } catch {
    return null;
  }
}

/** Whether two decisions in `state` store the same chosen person, however each was read or made. */
export function sameChosen(state: RowState, a: ChosenPerson | null, b: ChosenPerson | null): boolean {
  return JSON.stringify(chosenValues(state, a)) === JSON.stringify(chosenValues(state, b));
}

/**
 * The columns exportedChoice reads of the row_status called `alias`, in ChosenColumns order. The chosen person's
 * summary is not among them: an export reads its matched rows' people once, in id order (summaryColumns), since a
 * `people` row joined per row was a random read of a large table for each matched row.
 */
export function chosenColumns(alias: string): string {
  return ['chosen', 'chosen_person', 'chosen_rank', 'chosen_score', 'chosen_confidence', 'chosen_reason', 'job_change', 'job_change_date'].map((name) => `${alias}.${name}`).join(', ');
}

/**
 * The `people` row, as `person`, of the person a matched row of the row_status called `alias` chose: for a statement
 * that needs its profile (chosenSlugOf).
 */
export function chosenPersonJoin(alias: string, person: string): string {
  return `LEFT JOIN people AS ${person} ON ${person}.id = ${alias}.chosen_person AND ${alias}.state IN ('auto', 'accepted')`;
}

/** chosenSlugSql, for a matched row whose person is joined by chosenPersonJoin. */
export function chosenSlugOf(alias: string, person: string): string {
  return `CASE WHEN ${alias}.chosen_person IS NULL THEN json_extract(${alias}.chosen, '$.summary.social') ELSE ${factsSlugSql(person)} END`;
}

export type ChosenColumns = [
  chosen: string | null,
  chosenPerson: number | null,
  chosenRank: number | null,
  chosenScore: number | null,
  chosenConfidence: number | null,
  chosenReason: string | null,
  jobChange: JobChangeStatus | null,
  jobChangeDate: string | null,
];

/**
 * The columns personSummary reads of the `people` row called `person`, in SummaryColumns order: facts stored as a row of
 * values, whose summary is read from their front (readStoredSummary: SQLite's json_extract parsed the whole facts for
 * each of the six values); facts of another version, as their record to make them from again.
 */
export function summaryColumns(person: string): string {
  const current = rowFactsSql(person);
  return `CASE WHEN ${current} THEN ${person}.facts END, CASE WHEN NOT ${current} THEN ${recordSql(person)} END`;
}

export type SummaryColumns = [
  /** Facts stored as a row of values (people.facts, version 3 or 4). */
  facts: string | null,
  /** Facts of another version: the person's record, as store/person-records.ts recordSql reads it. */
  record: string | null,
];

/** A chosen person's summary from summaryColumns' values; null when neither reads. */
export function personSummary(columns: SummaryColumns): PersonSummary | null {
  const record = columns[1];
  if (record !== null) return personFacts(record)?.summary ?? null;
  const facts = columns[0];
  return facts !== null ? readStoredSummary(facts) : null;
}

/** What an export writes of a row's chosen person. */
export type ExportedChoice = Pick<ChosenPerson, 'rank' | 'score' | 'summary' | 'confidence' | 'reason'> & { jobChange?: Pick<JobChange, 'status' | 'date'> };

const NO_SUMMARY: PersonSummary = { id: null, name: null, title: null, company: null, social: null, location: null };

/**
 * A row's chosen person from chosenColumns' values (an export reads rows as arrays), with what the export writes of it;
 * `reason` is the row's own (row_status.reason), which the person's stands for unless it has one of its own, and
 * `summary` its person's (personSummary), when it names one.
 */
export function exportedChoice(columns: ChosenColumns, reason: string | null, summary: PersonSummary | null): ExportedChoice | null {
  // Read by index: an export makes one a matched row, and a destructured array goes through an iterator.
  const personId = columns[1];
  if (personId === null) return parseChosen(columns[0]);
  const choice: ExportedChoice = { rank: columns[2] ?? 0, score: columns[3], summary: summary ?? NO_SUMMARY };
  const confidence = columns[4];
  if (confidence !== null) choice.confidence = confidence;
  const why = columns[5] ?? reason;
  if (why !== null) choice.reason = why;
  const jobChange = columns[6];
  if (jobChange !== null) choice.jobChange = { status: jobChange, date: columns[7] };
  return choice;
}

/**
 * chosenSlugSql of a matched row, from the choice exportedChoice made: the profile of the person its facts name (none
 * when its person's summary was made from a record, whose facts are of another version), or of a decision stored whole.
 */
export function exportedSlug(fromRecord: boolean, choice: ExportedChoice | null): string | null {
  return fromRecord ? null : (choice?.summary.social ?? null);
}

type ChosenRow = Pick<
  RowStatusRow,
  'chosen_rank' | 'chosen_score' | 'chosen_confidence' | 'chosen_reason' | 'reason' | 'job_change' | 'job_change_date' | 'job_change_reason' | 'chosen_facts'
>;

function chosenOf(row: ChosenRow, personId: number): ChosenPerson {
  const facts = row.chosen_facts === null ? null : personFacts(row.chosen_facts);
  const current = facts?.jobs.find((j) => j.status === 'current' && j.company) ?? null;
  const chosen: ChosenPerson = {
    rank: row.chosen_rank ?? 0,
    score: row.chosen_score,
    summary: facts?.summary ?? { id: null, name: null, title: null, company: null, social: null, location: null },
    personId,
  };
  if (row.chosen_confidence !== null) chosen.confidence = row.chosen_confidence;
  const reason = row.chosen_reason ?? row.reason;
  if (reason !== null) chosen.reason = reason;
  if (row.job_change !== null) {
    chosen.jobChange = {
      status: row.job_change,
      date: row.job_change_date,
      currentCompany: current?.company ?? null,
      currentTitle: current?.title ?? null,
      reason: jobChangeReasonOf(row.job_change_reason, reason),
    };
  }
  return chosen;
}

/**
 * A full row_status write, whether or not the row has a status yet: bind project_id, then rowStatusValues. A row's
 * first status goes in cheaper by NEW_STATUS_SQL.
 */
export const REPLACE_STATUS_SQL = `INSERT OR REPLACE INTO row_status (project_id, ${WRITTEN_COLUMNS}) VALUES (?, ${repeated('?', WRITTEN_COLUMNS.split(', ').length)})`;

/**
 * A status with nothing behind it yet, as a row's first plan writes it: the query to ask and the label, every other
 * column left at its default (NULL, no candidates). Binding 8 values instead of a full write's 25 makes a large plan's
 * status inserts markedly cheaper (docs/performance.md, "Planning").
 */
export const NEW_STATUS_SQL = 'INSERT INTO row_status (project_id, row_index, state, outcome, step, strategy, query_id, label) VALUES (?, ?, ?, ?, ?, ?, ?, ?)';

/** NEW_STATUS_SQL's values after project_id. */
export type NewStatusValues = [rowIndex: number, state: RowState, outcome: RowState, step: number, strategy: Strategy | null, queryId: number | null, label: string];

/** The status as NEW_STATUS_SQL writes it; null when it has an answer, a verdict or a decision to write. */
export function newStatusValues(r: RowStatusRecord): NewStatusValues | null {
  const bare = r.fetchedAt === null && r.candidateCount === 0 && r.chosenRank === null && r.chosen === null && r.source === null && r.decidedAt === null && r.verdict === null;
  return bare ? [r.rowIndex, r.state, r.outcome, r.step, r.strategy, r.queryId, r.label] : null;
}

function parseChosen(text: string | null): ChosenPerson | null {
  if (text === null) return null;
  try {
    return JSON.parse(text) as ChosenPerson;
  } catch {
    return null;
  }
}
