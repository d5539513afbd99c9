// The one contract between the renderer and the engine: every call with a zod input
// schema and its output type, and every event. Electron IPC, the browser host and tests all carry this contract;
// the engine parses every input with it, whoever sent it.
import { z } from 'zod';
import {
  CONFIDENCE_THRESHOLD_RANGE,
  CREDENTIAL_KINDS,
  JOB_CHANGES,
  LEAD_RANGE,
  MAPPED_FIELDS,
  ROW_STATES,
  STRATEGIES,
  type AutoAcceptRule,
  type EvidenceItem,
  type JobChange,
  type JobChangeStatus,
  type MappedField,
  type Mapping,
  type PersonJson,
  type PersonSummary,
  type Profile,
  type RowState,
  type Settings,
  type Strategy,
} from './model';
import { searchFilters, type SearchFilter } from './search-filters';

// ---------- output types ----------

export interface AppInfo {
  version: string;
  host: 'electron' | 'web' | 'cli';
  dataDir: string;
  /** Where secrets go: the OS keychain, this session only (no keychain usable), or nowhere yet. */
  secrets: 'keychain' | 'session';
  keychainProblem: string | null;
  demoRunning: boolean;
}

/**
 * Where the engine's start is (`app.startup`): opening, bringing a data folder an older version made to this version
 * (a long move done in slices; phase 'rows', 'answers', then 'finishing' as it swaps in), ready, or failed with why.
 * The hosts answer it before the engine exists; the window shows the move's progress until it is ready.
 */
export const startupStateSchema = z.discriminatedUnion('state', [
  z.object({ state: z.literal('starting') }).strict(),
  z.object({ state: z.literal('ready') }).strict(),
  z.object({ state: z.literal('updating'), phase: z.string().max(40), done: z.number().int().nonnegative(), total: z.number().int().nonnegative() }).strict(),
  z.object({ state: z.literal('failed'), message: z.string().max(4000) }).strict(),
]);
export type StartupState = z.infer<typeof startupStateSchema>;
export type StartupProgress = Extract<StartupState, { state: 'updating' }>;

export interface SheetWarning {
  code: string;
  message: string;
  count?: number;
}

export type ProjectKind = 'match' | 'search';

export interface ProjectSummary {
  id: number;
  name: string;
  kind: ProjectKind;
  sourceName: string | null;
  /** The rows to match: the sheet's rows below its header, less the blank ones. */
  rowCount: number;
  /** Blank rows between the data rows, kept at their place (and in exports) but never looked up or reviewed. */
  blankRows: number;
  counts: Record<RowState, number>;
  /** Rows with a chosen person (auto or accepted). */
  matched: number;
  /** Matched rows by where the person is now against the sheet's company. */
  jobChanges: Record<JobChangeStatus, number>;
  /**
   * Matched rows whose person's job changed at the last refresh (0 before any); null while they are being counted (a
   * large project whose file is not in memory yet: the `project.changedCount` event gives the figure). And when that
   * refresh began (null: never refreshed).
   */
  changedAtLastRefresh: number | null;
  lastRefreshAt: string | null;
  /** The project's watch (scheduled refresh), or null when it is not watched. */
  watch: WatchSummary | null;
  createdAt: string;
  updatedAt: string;
}

/** A project refreshed on a schedule (watch/): when next, and what its last due run did. */
export interface WatchSummary {
  projectId: number;
  projectName: string;
  /** Refreshed every this many days, or weekly on `weekday` (0 = Sunday, UTC): one of the two. */
  everyDays: number | null;
  weekday: number | null;
  /** At most this many people asked (each up to a credit) a refresh; null: no ceiling. */
  creditCeiling: number | null;
  /** The connection profile it refreshes with. */
  profileId: string;
  nextRefreshAt: string;
  /** Its next refresh is due now. */
  due: boolean;
  lastRunAt: string | null;
  /** What its last due run did, in words ("12 people moved or left, 3 changed title", "waiting for the network"). */
  lastResult: string | null;
  /** Why its last due run did not refresh (no secret, out of credits, over its ceiling); the next due run tries again. */
  blocked: string | null;
}

/** What a due run of a watch did: started (or went on with) its refresh, or did not, and why. */
export type WatchRun =
  | { outcome: 'started'; progress: RefreshProgress }
  | { outcome: 'blocked'; reason: string }
  | { outcome: 'waiting'; reason: string }
  | { outcome: 'not_due'; nextRefreshAt: string };

export type ChangeKind = 'moved' | 'left' | 'title';

/** One matched row whose person moved, left or changed title since a date (or since the inbox was last seen). */
export interface PersonChange {
  rowIndex: number;
  /** The row's number in the sheet, as a spreadsheet app shows it. */
  rowNumber: number;
  cells: string[];
  personName: string | null;
  personId: string | null;
  kind: ChangeKind;
  from: { company: string | null; title: string | null };
  to: { company: string | null; title: string | null };
  /** When the new job began (or the last one ended), as the service wrote it; null when it sent no date. */
  changeDate: string | null;
  /** When the refresh that found it began (ISO). */
  detectedAt: string;
  important: boolean;
}

/** Rows marked important: one by one, and by a column's value (compared trimmed and case-folded). */
export interface ImportantMarks {
  rows: number[];
  values: { columnIndex: number; value: string }[];
}

/** How many changes no one has marked as seen yet, and how many of them are about rows marked important. */
export interface InboxCount {
  projectId: number;
  unseen: number;
  important: number;
}

/** The changes no one has marked as seen yet, counted. */
export interface ChangesInbox extends InboxCount {
  counts: Record<ChangeKind, number>;
  changes: PersonChange[];
}

/** A refresh found people marked important moved or left: the hosts may show a desktop notification. */
export interface ImportantChangesFound {
  projectId: number;
  projectName: string;
  refreshId: number;
  changes: PersonChange[];
}

export interface ColumnGuess {
  field: MappedField;
  column: number;
  confidence: number;
  reason: string;
}

export interface ProjectDetail {
  summary: ProjectSummary;
  headers: string[];
  format: 'csv' | 'xlsx' | null;
  sheetName: string | null;
  warnings: SheetWarning[];
  mapping: Mapping;
  strategies: Strategy[];
  guesses: ColumnGuess[];
  /** The first rows of the sheet, as imported. */
  sample: string[][];
}

export interface MappingSample {
  raw: string;
  normalized: string | null;
  problem: string | null;
}

export interface MappingPreview {
  fields: Record<MappedField, { column: number | null; header: string | null; samples: MappingSample[] }>;
  /** The rows the counts cover: every row of the sheet, or the first ones asked for (firstRows). */
  rowsChecked: number;
  /** Rows with nothing usable to ask for under the chosen strategies. */
  unusableRows: number;
  /** The first of those rows, to show which they are. */
  unusableExamples: PreviewRow[];
  /** Of those rows, how many "Name alone" would look up (a name and no company); null when it is chosen already. */
  unusableByName: number | null;
  /** Kinds of problems, each with its count and the first rows that have it. */
  problems: { message: string; count: number; examples: PreviewRow[] }[];
}

/** A row of the sheet as a mapping warning shows it: its number in the sheet and its cells (each cut to 200 characters). */
export interface PreviewRow {
  rowNumber: number;
  cells: string[];
}

export interface RunPreview {
  rows: number;
  /** Blank rows of the sheet, not in `rows`: nothing is asked for them. */
  blankRows: number;
  rowsWithoutQuery: number;
  /** Distinct queries of the first strategy round (later rounds depend on answers). */
  distinctQueries: number;
  cachedFresh: number;
  toFetch: number;
  calls: number;
  estimatedSeconds: number;
  byStrategy: Partial<Record<Strategy, number>>;
  offline: boolean;
  /**
   * The credits the service last said remain (its X-LDT-Credits-Remaining header); null when it never said: no
   * cap, or no reply from it yet.
   */
  creditsRemaining: number | null;
  /**
   * At most what this run's first lookups can cost: the queries to fetch times the 5 people a query returns at most
   * (one credit a person not billed before). A bound, not an estimate; later rounds can add to it.
   */
  creditsUpTo: number;
}

export const RUN_STATUSES = ['running', 'paused', 'cancelled', 'done', 'failed', 'out_of_credits'] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];

export interface RunProgress {
  projectId: number;
  runId: number;
  status: RunStatus;
  offline: boolean;
  /** The rule this run accepts rows alone by, as it started: a resumed run keeps it. Null for a run stored before runs kept it. */
  autoAccept: AutoAcceptRule | null;
  queriesTotal: number;
  queriesDone: number;
  rowsTotal: number;
  rowsResolved: number;
  /**
   * While the run follows its project's plan (a first plan, still going): the rows planned so far. The queries' total
   * counts only theirs until the plan is whole.
   */
  rowsPlanned?: number;
  calls: number;
  cacheHits: number;
  errors: number;
  ratePerSec: number;
  etaSeconds: number | null;
  message: string | null;
  /**
   * The kind of service failure that stopped the run (`unauthorized`, `forbidden`, `network_error`, `payment_required`,
   * ...), in the final progress of a run that stopped on one.
   */
  stopKind?: string;
  startedAt: string;
  updatedAt: string;
}

/** What a refresh of a project's chosen people would do, before anything is sent. */
export interface RefreshPreview {
  /** Rows with a chosen person (auto or accepted). */
  matchedRows: number;
  /** Distinct people to ask, each once however many rows chose them. */
  people: number;
  /** Matched rows whose person has no profile slug to ask by: they keep what they have. */
  rowsWithoutProfile: number;
  /** People left out because their record is younger than --older-than. */
  recentPeople: number;
  calls: number;
  estimatedSeconds: number;
  olderThanDays: number | null;
}

export const REFRESH_STATUSES = RUN_STATUSES;
export type RefreshStatus = RunStatus;

/** Where a refresh stands. Also the `detail` of its job (job.progress). */
export interface RefreshProgress {
  projectId: number;
  refreshId: number;
  status: RefreshStatus;
  peopleTotal: number;
  /** People whose answer has landed (found or not) or whose call failed. */
  peopleDone: number;
  found: number;
  /** People the service no longer finds by their slug: their rows keep what they had. */
  notFound: number;
  /** People whose call failed: their rows keep what they had; refresh again to ask. */
  failed: number;
  rowsWithoutProfile: number;
  /** Matched rows given the fresh record, and of those, the rows whose person's job changed. */
  rowsUpdated: number;
  rowsChanged: number;
  /** Matched rows whose person was not found. */
  rowsNotFound: number;
  calls: number;
  ratePerSec: number;
  etaSeconds: number | null;
  /**
   * While the rows that chose the people found are brought up to date, once everyone is asked or before the refresh
   * stops: how far through the project's rows it is (row positions, not rows written). Null otherwise.
   */
  rowsWriting: { done: number; total: number } | null;
  message: string | null;
  /** The kind of service failure that stopped the refresh, as RunProgress.stopKind. */
  stopKind?: string;
  startedAt: string;
  updatedAt: string;
}

export interface ReviewRow {
  rowIndex: number;
  /** The row's number in the sheet, as a spreadsheet app shows it (the header is row 1): how the row is named to people. */
  rowNumber: number;
  state: RowState;
  /** A short label of the row's input: name, e-mail or profile. */
  label: string;
  /** The chosen person, else the candidate the confidence model puts first. */
  top: PersonSummary | null;
  /** The service's own score of `top`, when it sent one. */
  topScore: number | null;
  /** How sure the model is that `top` is the row's person (0..1), and why; null before the row has candidates. */
  confidence: number | null;
  reason: string | null;
  /** The service rank of the candidate the model puts first: what Enter accepts. */
  bestRank: number | null;
  /** For a matched row: where the person is now against the sheet's company. */
  jobChange: JobChange | null;
  strategy: Strategy | null;
  candidateCount: number;
  chosenRank: number | null;
}

export interface ReviewPage {
  rows: ReviewRow[];
  total: number;
  counts: Record<RowState, number>;
  /** Matched rows (auto or accepted) by where the person is now against the sheet's company, whole project. */
  jobChanges: Record<JobChangeStatus, number>;
  /** Matched rows whose person's job changed at the project's last refresh (0 before any); null while counted (ProjectSummary). */
  changedAtLastRefresh: number | null;
  /** When the last refresh began; null when the project was never refreshed. */
  lastRefreshAt: string | null;
}

/**
 * The review's chip counts for the view on show (review/view-counts.ts): the states under the job-change and "changed"
 * filters, the job changes under the state and "changed" filters, the changed rows under the state and job-change
 * filters; the project's own without a filter.
 */
export type ReviewCounts = Pick<ReviewPage, 'counts' | 'jobChanges' | 'changedAtLastRefresh'>;

export interface CandidateView {
  /** The service's rank (1 = its first): how a decision names the candidate. */
  rank: number;
  score: number | null;
  personId: string | null;
  summary: PersonSummary;
  /** The probability (0..1) that this candidate is the row's person (its calibrated share of the evidence): best first. */
  confidence: number;
  reason: string;
  evidence: EvidenceItem[];
  /** The person's jobs, most recent first, from the freshest record known (a refresh's, else the row's answer). */
  jobs: JobView[];
  /** When that record was fetched. */
  jobsAsOf: string | null;
}

/** One job of a candidate's history, as the card's timeline shows it. */
export interface JobView {
  company: string | null;
  title: string | null;
  started: string | null;
  ended: string | null;
  /** current: no end; ended: an end that reads as a date; unknown: an end that cannot be read. */
  status: 'current' | 'ended' | 'unknown';
  /** The sheet's company, however it is spelled (the comparison the job change uses). */
  atSheetCompany: boolean;
}

/** What the refresh that last asked for a matched row's person found, against what the row said before it. */
export interface RowRefresh {
  refreshId: number;
  at: string;
  /** Whether that refresh is the project's last one. */
  latest: boolean;
  /** Where the person works (or the job change) differs from before that refresh. */
  changed: boolean;
  previousCompany: string | null;
  previousTitle: string | null;
  previousJobChange: JobChangeStatus | null;
  previousJobChangeDate: string | null;
}

export interface RowDetail {
  rowIndex: number;
  /** The row's number in the sheet, as a spreadsheet app shows it. */
  rowNumber: number;
  headers: string[];
  cells: string[];
  input: { email: string | null; social: string | null; name: string | null; company: string | null; location: string | null };
  problems: string[];
  state: RowState;
  strategy: Strategy | null;
  fetchedAt: string | null;
  /** Best first, by the confidence model. */
  candidates: CandidateView[];
  /** The best candidate's confidence, and the reason in words; null without candidates. */
  confidence: number | null;
  reason: string | null;
  /** Why the row is not accepted without a person looking, whatever its confidence; null when nothing stops it. */
  guard: string | null;
  /** Whether the service sent scores for these candidates ("rank only" otherwise). */
  scored: boolean;
  chosenRank: number | null;
  decidedAt: string | null;
  source: 'auto' | 'manual' | null;
  error: string | null;
  /** Other rows that asked the same query. */
  identicalRows: number;
  /** For a matched row: where the person is now against the sheet's company. */
  jobChange: JobChange | null;
  /** For a matched row whose person a refresh asked for: what changed; null otherwise. */
  refresh: RowRefresh | null;
}

/** What a decision changed, with the project's figures after it as a review page gives them (the review's chips follow). */
export interface DecisionResult extends Pick<ReviewPage, 'counts' | 'jobChanges' | 'changedAtLastRefresh'> {
  changed: number;
  row: RowDetail | null;
}

/** How many rows waiting for review "accept all at or above" would accept, per threshold, before it is applied. */
export interface AcceptPreview {
  /** Highest threshold first. */
  thresholds: { minConfidence: number; rows: number }[];
  /** The lead over the runner-up every accepted row also needs (the setting). */
  minLead: number;
  /** The threshold set in the settings. */
  setting: number;
  /** Rows waiting for review that a guard keeps for a person whatever the threshold. */
  guarded: number;
}

/** Rows of one reason pattern that what was learned now lifts, and the labels that support it. */
export interface LearningChange {
  pattern: string;
  /** The pattern in words, as its group of rows like this says it (review.groups): "Rows with a near name at the same company". */
  words: string;
  rows: number;
  /** The probability the labels give such rows (and at least what the model gave). */
  confidence: number;
  /** "You accepted 18 of 18 rows with a near name at the same company; 212 more rows now look like them." */
  sentence: string;
}

/** What a project learned from its reviewer's decisions (review/learning.ts), in words. */
export interface LearningSummary {
  projectId: number;
  /** Hand-made decisions counted as labels. */
  labels: number;
  /** Rows waiting for review that what was learned lifts above the guard. */
  rowsLifted: number;
  sentences: string[];
  /** Why a stored state was dropped (learned under another model version), or null. */
  note: string | null;
  /** What the last learning changed (empty outside learning.learn's answer). */
  changes: LearningChange[];
}

/** Another project whose learning a project may start from (learning.sources). */
export interface LearningSource {
  projectId: number;
  name: string;
  /** Hand-made decisions it learned from. */
  labels: number;
  /** Its sheet maps the same fields: the only kind learning.learn takes it for. */
  sameKind: boolean;
}

/** "Rows like this": the rows waiting for review of one reason pattern. */
export interface ReviewGroup {
  pattern: string;
  words: string;
  rows: number;
  /** Whether what is learned may ever lift such rows (never twins, conflicting names, a name without a company). */
  learnable: boolean;
}

export interface FailedQuery {
  /** The query's id in the data folder. */
  queryId: number;
  strategy: Strategy | null;
  terms: string;
  error: string;
  /** What kind of failure the service client saw (network_error, server_error, ...); null when none was recorded. */
  errorKind: string | null;
  rows: number;
}

export interface ExportResult {
  /** Where the file went (Electron and CLI), or a reference the browser host turns into a download. */
  path: string | null;
  downloadRef: string | null;
  fileName: string;
  rows: number;
  /** The candidates in long form, written beside the matches when asked for (null otherwise). */
  candidates?: { path: string | null; downloadRef: string | null; fileName: string; rows: number } | null;
}

export interface CacheStats {
  entries: number;
  /** Answers fetched within the cache TTL: these are cache hits. */
  fresh: number;
  /** Answers older than the TTL (offline mode still uses them). */
  stale: number;
  /** Failed lookups of any age; a later run asks them again. */
  errors: number;
  /** Bytes of stored JSON, not counting SQLite's own overhead. */
  bytes: number;
}

export interface ProfileTestResult {
  ok: boolean;
  reason: string | null;
  /** The failure as a typed error, so a caller can tell refused credentials from a service it could not reach. */
  error: ContractError | null;
}

export const SEARCH_STATUSES = ['running', 'cancelled', 'done', 'failed', 'out_of_credits'] as const;
export type SearchStatus = (typeof SEARCH_STATUSES)[number];

/** Where a criteria search stands. Also the `detail` of its job (job.progress). */
export interface SearchProgress {
  searchId: number;
  name: string;
  status: SearchStatus;
  /** Answered from the stored results of an identical search within the cache TTL: no call was made. */
  fromCache: boolean;
  offline: boolean;
  /** Separate searches a long value list was split into, and how many were paged to their end. */
  partsTotal: number;
  partsDone: number;
  pages: number;
  calls: number;
  /** Distinct people stored so far. */
  people: number;
  /** The service's own total when it sends one (summed over the parts of a split search, so an upper bound). */
  serviceCount: number | null;
  message: string | null;
  startedAt: string;
  updatedAt: string;
}

/** A saved search as the projects list and the search screen show it. */
export interface SearchSummary extends SearchProgress {
  filters: SearchFilter[];
  baseUrl: string;
  orgId: string;
  finishedAt: string | null;
}

/** The job entry that satisfied the grouped jobs.* filters, found locally with the filters' semantics. */
export interface SatisfyingJob {
  /** Position in the person's `jobs` list as the service sent it (most recent first). */
  index: number;
  company: string | null;
  companySlug: string | null;
  title: string | null;
  function: string | null;
  level: string | null;
  started: string | null;
  ended: string | null;
}

export interface SearchResultRow {
  personId: string;
  summary: PersonSummary;
  job: SatisfyingJob | null;
  /** The whole person as the service sent it. */
  person: PersonJson;
  /** The page (counted over the whole search) that first brought this person. */
  firstPage: number;
}

export interface SearchResultsPage {
  rows: SearchResultRow[];
  total: number;
}

/** The distinct non-empty values of a sheet's column, normalized for the field they will filter. */
export interface ColumnValues {
  header: string;
  column: number;
  values: string[];
  /** Non-empty cells read. */
  cells: number;
  duplicates: number;
  /** Cells that cannot be used for the field (e.g. a person's link where a company page belongs). */
  problems: { value: string; message: string }[];
}

/** Every kind of long work the engine does, each a job (electron/engine/jobs/). */
export const JOB_KINDS = ['import', 'plan', 'run', 'verdictCopy', 'refresh', 'accept', 'undo', 'learn', 'export', 'textIndex', 'cacheClear', 'answerMove', 'search'] as const;
export type JobKind = (typeof JOB_KINDS)[number];
/** One lifecycle for every job: queued (waiting for what it may not overlap), running, paused (resumable), then one end. */
export const JOB_STATES = ['queued', 'running', 'paused', 'done', 'failed', 'cancelled'] as const;
export type JobState = (typeof JOB_STATES)[number];

// ---------- input schemas ----------

const id = z.number().int().positive();
const rowIndex = z.number().int().nonnegative();
const strategy = z.enum(STRATEGIES);
const rowState = z.enum(ROW_STATES);
const mapping = z.partialRecord(z.enum(MAPPED_FIELDS), z.number().int().nonnegative());
const fileRef = z.string().min(1).max(4096);

export const profileInput = z.object({
  id: z.string().min(1).max(100).optional(),
  name: z.string().trim().min(1, 'Give the profile a name').max(200),
  baseUrl: z.url({ protocol: /^https?$/, message: 'The base URL must start with https:// (or http:// for a local service)' }),
  orgId: z.string().trim().regex(/^o_[A-Za-z0-9_-]+$/, 'An organization id starts with "o_"'),
  kind: z.enum(CREDENTIAL_KINDS),
  login: z.string().trim().max(500).nullable(),
  /** Only on create or when the user types a new one; never sent back out. */
  secret: z.string().min(1).max(10_000).optional(),
  /** Keep the secret for this session only (when no keychain is usable). */
  sessionOnly: z.boolean().optional(),
});
export type ProfileInput = z.infer<typeof profileInput>;

const confidenceThreshold = z.number().min(CONFIDENCE_THRESHOLD_RANGE.min).max(CONFIDENCE_THRESHOLD_RANGE.max);
/** A refresh asks only for people whose record is older than this; absent asks for everyone. */
const olderThanDays = z.number().min(0).max(36_500).optional();

const autoAcceptRule = z.object({
  enabled: z.boolean(),
  minConfidence: confidenceThreshold,
  minLead: z.number().min(LEAD_RANGE.min).max(LEAD_RANGE.max),
}) satisfies z.ZodType<AutoAcceptRule>;

export const settingsPatch = z.object({
  concurrency: z.number().int().min(1).max(16).optional(),
  cacheTtlDays: z.number().min(0).max(3650).optional(),
  autoAccept: autoAcceptRule.optional(),
  activeProfileId: z.string().nullable().optional(),
}) satisfies z.ZodType<Partial<Settings>>;

export const exportInput = z.object({
  projectId: id,
  format: z.enum(['csv', 'xlsx']),
  /** changed: only matched rows whose person's job changed at the last refresh. */
  scope: z.enum(['all', 'matched', 'changed']),
  /** Also write candidates in long form (a second file, or a second sheet in XLSX). */
  candidates: z.boolean().default(false),
  /** Where to write; null lets the host decide (a download in the browser host). */
  destination: z.string().max(4096).nullable().default(null),
  /** Where the candidates file goes; null puts it beside the main file as `<name>-candidates.<ext>`. */
  candidatesDestination: z.string().max(4096).nullable().default(null),
  bom: z.boolean().default(true),
  delimiter: z.enum([',', ';', '\t', '|']).default(','),
});

/** A calendar day, YYYY-MM-DD, that exists. */
export const isoDay = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'a day as YYYY-MM-DD')
  .refine((day) => {
    // Runs on any string (zod goes on after a failed regex): not every one makes a date.
    const at = Date.parse(`${day}T00:00:00Z`);
    return Number.isFinite(at) && new Date(at).toISOString().startsWith(day);
  }, 'a day that exists (YYYY-MM-DD)');

export const watchSetInput = z
  .object({
    projectId: id,
    everyDays: z.number().int().min(1).max(366).optional(),
    weekday: z.number().int().min(0).max(6).optional(),
    creditCeiling: z.number().int().nonnegative().nullable().default(null),
    profileId: z.string().min(1).max(200).optional(),
  })
  .refine((w) => (w.everyDays === undefined) !== (w.weekday === undefined), 'Choose one: every N days (everyDays) or weekly on a day (weekday, 0 = Sunday).');

export const changesExportInput = z.object({
  projectId: id,
  since: isoDay,
  format: z.enum(['csv', 'xlsx']),
  destination: z.string().max(4096).nullable().default(null),
  bom: z.boolean().default(true),
  delimiter: z.enum([',', ';', '\t', '|']).default(','),
});

export const markImportantInput = z
  .object({
    projectId: id,
    rows: z.array(z.number().int().nonnegative()).max(100_000).optional(),
    column: z.object({ columnIndex: z.number().int().nonnegative(), value: z.string().max(1000) }).optional(),
    important: z.boolean().default(true),
  })
  .refine((m) => (m.rows === undefined) !== (m.column === undefined), 'Mark rows (rows) or a column value (column), one at a time.');

/** What an export writes: its format, rows, candidates and CSV options. */
export type ExportChoice = Pick<z.infer<typeof exportInput>, 'format' | 'scope' | 'candidates' | 'bom' | 'delimiter'>;

export const searchRunInput = z.object({
  filters: searchFilters,
  name: z.string().trim().min(1).max(300).optional(),
  /** Ask the service again even when an identical search is fresh in the cache. */
  refresh: z.boolean().default(false),
  /** Answer from stored results only; send nothing. */
  offline: z.boolean().default(false),
  /** Values per call when a value list is long (default 100): longer lists are split and the results merged. */
  valuesPerCall: z.number().int().min(1).max(10_000).optional(),
  /** People per page (the simulator, like the service's clients, stays at 100 or fewer). */
  pageSize: z.number().int().min(1).max(100).optional(),
});

export const searchExportInput = z.object({
  searchId: z.number().int().positive(),
  format: z.enum(['csv', 'xlsx']),
  destination: z.string().max(4096).nullable().default(null),
  bom: z.boolean().default(true),
  delimiter: z.enum([',', ';', '\t', '|']).default(','),
});

export const columnValuesInput = z
  .object({
    /** An imported sheet (a project) ... */
    projectId: z.number().int().positive().optional(),
    /** ... or a sheet file not imported. */
    file: z.string().min(1).max(4096).optional(),
    sheet: z.string().max(300).optional(),
    /** A header (case-insensitive) or a 0-based column index. */
    column: z.union([z.string().trim().min(1).max(300), z.number().int().nonnegative()]),
    /** Normalize the values for this search field (e.g. company links to slugs). */
    field: z.string().max(200).optional(),
  })
  .refine((v) => (v.projectId === undefined) !== (v.file === undefined), { message: 'Give either a project or a sheet file.' });

// ---------- the calls ----------

function call<O>() {
  return <I extends z.ZodType>(input: I) => ({ input, output: undefined as unknown as O });
}
const none = z.object({}).strict();

export const calls = {
  'app.info': call<AppInfo>()(none),
  /** How far the engine's start is; answered at once while it brings the data folder up to this version. */
  'app.startup': call<StartupState>()(none),

  'profiles.list': call<Profile[]>()(none),
  'profiles.save': call<Profile>()(profileInput),
  'profiles.test': call<ProfileTestResult>()(z.object({ id: z.string().min(1) })),
  'profiles.remove': call<void>()(z.object({ id: z.string().min(1) })),
  /** `forThisSession`: the choice holds until this engine closes and the saved one stays (the CLI's MATCHDESK_* connection). */
  'profiles.select': call<Settings>()(z.object({ id: z.string().min(1).nullable(), forThisSession: z.boolean().default(false) })),
  /** Start the built-in simulator with seeded people, add a demo profile, and import the bundled sample sheet. */
  'demo.start': call<{ profile: Profile; project: ProjectSummary }>()(none),

  'projects.list': call<ProjectSummary[]>()(none),
  'projects.sheets': call<string[]>()(z.object({ file: fileRef })),
  'projects.import': call<ProjectDetail>()(
    z.object({ file: fileRef, sheet: z.string().max(300).optional(), name: z.string().trim().min(1).max(300).optional() }),
  ),
  'projects.get': call<ProjectDetail>()(z.object({ projectId: id })),
  'projects.rename': call<ProjectSummary>()(z.object({ projectId: id, name: z.string().trim().min(1).max(300) })),
  'projects.delete': call<void>()(z.object({ projectId: id })),

  /**
   * What the mapping would make of the sheet. `screen`: the screen asking (any id it keeps while open): its newer preview
   * lets its older one go, while another screen's (another window's) goes on. Without it, every preview of the project
   * counts as one screen's.
   */
  /**
   * A whole sheet's preview walks every row (seconds in a large sheet): `screen` (the asking screen's own id) lets its
   * older preview go, `firstRows` asks for the first rows only (their samples, while the whole sheet is counted).
   */
  'mapping.preview': call<MappingPreview>()(
    z.object({
      projectId: id,
      mapping,
      strategies: z.array(strategy).min(1).max(4),
      screen: z.string().min(1).max(64).optional(),
      firstRows: z.number().int().min(1).max(1000).optional(),
    }),
  ),
  'mapping.save': call<ProjectDetail>()(z.object({ projectId: id, mapping, strategies: z.array(strategy).min(1).max(4) })),

  'run.preview': call<RunPreview>()(
    z.object({
      projectId: id,
      offline: z.boolean().default(false),
      /**
       * The figures as they stood before the project's first run, started beside its first plan: every row at its first
       * step, answers fetched since that run started not counted as cached.
       */
      beforeFirstRun: z.boolean().optional(),
    }),
  ),
  'run.start': call<RunProgress>()(
    z.object({
      projectId: id,
      offline: z.boolean().default(false),
      /** Calls in flight for this run only (default: the setting). */
      concurrency: z.number().int().min(1).max(16).optional(),
      /** false leaves every row for review whatever the auto-accept rule says (default: the setting applies). */
      autoAccept: z.boolean().optional(),
      /** This run's auto-accept threshold (default: the setting's). */
      minConfidence: confidenceThreshold.optional(),
    }),
  ),
  'run.pause': call<RunProgress | null>()(z.object({ projectId: id })),
  'run.resume': call<RunProgress | null>()(z.object({ projectId: id })),
  'run.status': call<RunProgress | null>()(z.object({ projectId: id })),
  'run.failures': call<FailedQuery[]>()(z.object({ projectId: id })),

  'review.page': call<ReviewPage>()(
    z.object({
      projectId: id,
      states: z.array(rowState).max(ROW_STATES.length).optional(),
      text: z.string().max(500).optional(),
      /** File order, or by the confidence of the row's best candidate (rows without candidates last). */
      order: z.enum(['file', 'confidence_desc', 'confidence_asc']).default('file'),
      /** Only matched rows whose person moved, left, is still there, or unknown. */
      jobChanges: z.array(z.enum(JOB_CHANGES)).max(JOB_CHANGES.length).optional(),
      /** Only matched rows whose person's job changed at the project's last refresh. */
      changedAtLastRefresh: z.boolean().optional(),
      /** Only the rows waiting for review of this reason pattern (review.groups), in file order; the other filters do not apply. */
      pattern: z.string().min(1).max(200).optional(),
      offset: z.number().int().nonnegative(),
      limit: z.number().int().min(1).max(500),
    }),
  ),
  'review.counts': call<ReviewCounts>()(
    z.object({
      projectId: id,
      states: z.array(rowState).max(ROW_STATES.length).optional(),
      jobChanges: z.array(z.enum(JOB_CHANGES)).max(JOB_CHANGES.length).optional(),
      changedAtLastRefresh: z.boolean().optional(),
    }),
  ),
  'review.row': call<RowDetail>()(z.object({ projectId: id, rowIndex })),
  'decisions.choose': call<DecisionResult>()(
    z.object({ projectId: id, rowIndex, rank: z.number().int().min(1).max(5), applyToIdentical: z.boolean().default(false) }),
  ),
  'decisions.reject': call<DecisionResult>()(z.object({ projectId: id, rowIndex, applyToIdentical: z.boolean().default(false) })),
  'decisions.skip': call<DecisionResult>()(z.object({ projectId: id, rowIndex })),
  'decisions.clear': call<DecisionResult>()(z.object({ projectId: id, rowIndex })),
  'decisions.undo': call<DecisionResult>()(z.object({ projectId: id })),
  /** Decisions from a file, by sheet row number and person id (null: none fits), as one undoable action; refused whole on any bad entry. */
  'decisions.record': call<DecisionResult>()(
    z.object({
      projectId: id,
      entries: z
        .array(z.object({ line: z.number().int().positive(), row: z.number().int().positive(), personId: z.string().min(1).max(200).nullable() }))
        .min(1)
        .max(1_048_576),
    }),
  ),
  'decisions.acceptPreview': call<AcceptPreview>()(z.object({ projectId: id })),
  /**
   * Accepts every row waiting for review whose best candidate is at or above the threshold (default: the setting), as
   * one undoable action; with `pattern`, only the rows of that reason pattern (the rows a learning's change names).
   */
  'decisions.acceptAtOrAbove': call<DecisionResult>()(z.object({ projectId: id, minConfidence: confidenceThreshold.optional(), pattern: z.string().min(1).max(200).optional() })),

  /**
   * Counts the project's hand-made decisions as labels per reason pattern (on top of another project's, if given) and
   * assesses the rows waiting for review again under them; a `learn` job follows it (job.progress).
   */
  'learning.learn': call<LearningSummary>()(z.object({ projectId: id, startFromProjectId: id.optional() })),
  'learning.summary': call<LearningSummary>()(z.object({ projectId: id })),
  /** The other projects that learned something under this model version, those of the same kind of sheet first. */
  'learning.sources': call<LearningSource[]>()(z.object({ projectId: id })),
  /** Forgets what the project learned: lifted rows go back to what the model alone says. */
  'learning.reset': call<LearningSummary>()(z.object({ projectId: id })),
  /** The rows waiting for review grouped by reason pattern, the largest group first. */
  'review.groups': call<ReviewGroup[]>()(z.object({ projectId: id })),

  /** What refreshing the project's chosen people would ask (people, calls, time), sending nothing. */
  'refresh.preview': call<RefreshPreview>()(z.object({ projectId: id, olderThanDays })),
  /** Asks the service again for the chosen people (auto and accepted rows), each once; a `refresh` job follows it (job.progress). */
  'refresh.start': call<RefreshProgress>()(z.object({ projectId: id, olderThanDays })),
  'refresh.pause': call<RefreshProgress | null>()(z.object({ projectId: id })),
  /** Goes on with a paused, failed or interrupted refresh: people whose answer landed are not asked again. */
  'refresh.resume': call<RefreshProgress | null>()(z.object({ projectId: id })),
  'refresh.status': call<RefreshProgress | null>()(z.object({ projectId: id })),

  /** Watches the project: a refresh every N days or weekly on a day, up to a credit ceiling, with a profile (default: the selected one). */
  'watch.set': call<WatchSummary>()(watchSetInput),
  'watch.clear': call<void>()(z.object({ projectId: id })),
  /** Every watch, the next due first. */
  'watch.list': call<WatchSummary[]>()(none),
  /** Runs the project's watch if it is due: starts (or goes on with) its refresh, or says why not; its `refresh` job follows. */
  'watch.runDue': call<WatchRun>()(z.object({ projectId: id })),
  /** Matched rows whose person moved, left or changed title since the day (refreshes that began on it or after). */
  'watch.changes': call<PersonChange[]>()(z.object({ projectId: id, since: isoDay })),
  /** Writes the changes since the day, one row a change, for a CRM to import (CSV or XLSX). */
  'watch.exportChanges': call<ExportResult>()(changesExportInput),
  /** Marks rows (by index, or every row with a column's value) important, or unmarks them; the marks after. */
  'watch.markImportant': call<ImportantMarks>()(markImportantInput),
  'watch.importantMarks': call<ImportantMarks>()(z.object({ projectId: id })),
  'watch.inbox': call<ChangesInbox>()(z.object({ projectId: id })),
  /** The inbox's counts alone, for where only they are shown (the projects list, a project's header). */
  'watch.inboxCount': call<InboxCount>()(z.object({ projectId: id })),
  /** Marks every change found so far as seen; the (empty) inbox after. */
  'watch.markSeen': call<ChangesInbox>()(z.object({ projectId: id })),

  'export.run': call<ExportResult>()(exportInput),

  /** Starts a criteria search (or answers it from the cache) and returns at once; a `search` job follows it (job.progress). */
  'search.run': call<SearchProgress>()(searchRunInput),
  'search.status': call<SearchProgress | null>()(z.object({ searchId: id })),
  /** Goes on with a cancelled or failed search: parts paged to their end are not asked again. */
  'search.resume': call<SearchProgress>()(z.object({ searchId: id })),
  'search.list': call<SearchSummary[]>()(none),
  'search.get': call<SearchSummary>()(z.object({ searchId: id })),
  'search.results': call<SearchResultsPage>()(
    z.object({ searchId: id, offset: z.number().int().nonnegative(), limit: z.number().int().min(1).max(500), text: z.string().max(500).optional() }),
  ),
  'search.delete': call<void>()(z.object({ searchId: id })),
  'search.export': call<ExportResult>()(searchExportInput),
  'search.columnValues': call<ColumnValues>()(columnValuesInput),

  /**
   * Cancels a job (what a cancel leaves: docs/architecture.md): by its id; the project's job of a kind (a run or a
   * refresh paused in an earlier session too); the import of a file (before its first event names its job); a search.
   * `cancelled` is false when none was under way or it cannot stop.
   */
  'job.cancel': call<{ cancelled: boolean }>()(
    z.union([
      z.object({ jobId: id }).strict(),
      z.object({ projectId: id, kind: z.enum(JOB_KINDS) }).strict(),
      z.object({ kind: z.literal('import'), file: fileRef }).strict(),
      z.object({ kind: z.literal('search'), searchId: id }).strict(),
    ]),
  ),
  /**
   * The jobs under way (queued, running or paused), oldest first: a project's, or those of a kind on no project (the
   * imports, the searches), for a screen opened meanwhile.
   */
  'job.list': call<JobProgress[]>()(z.union([z.object({ projectId: id }).strict(), z.object({ kind: z.enum(JOB_KINDS) }).strict()])),

  'settings.get': call<Settings>()(none),
  'settings.update': call<Settings>()(settingsPatch),
  'cache.stats': call<CacheStats>()(none),
  'cache.clear': call<{ removed: number }>()(none),

  // Answered by the host, not the engine: native dialogs in Electron, whose files come back as tokens the window's
  // later calls name them by (electron/main/picked-files.ts); the browser host says `supported: false` and the
  // renderer uses a file input or a download instead.
  'dialog.openSheet': call<{ supported: boolean; file: string | null }>()(none),
  'dialog.saveExport': call<{ supported: boolean; path: string | null }>()(
    z.object({ defaultName: z.string().min(1).max(300), format: z.enum(['csv', 'xlsx']) }),
  ),
} as const;

export const HOST_CALLS = ['dialog.openSheet', 'dialog.saveExport'] as const satisfies readonly CallName[];

export type CallName = keyof typeof calls;
export type CallInput<K extends CallName> = z.input<(typeof calls)[K]['input']>;
export type CallParsedInput<K extends CallName> = z.output<(typeof calls)[K]['input']>;
export type CallOutput<K extends CallName> = (typeof calls)[K]['output'];

// ---------- events ----------

export interface ImportProgress {
  file: string;
  rowsRead: number;
  /** How far through the file, 0-100 (100 once every row is in). */
  percent: number;
}

/**
 * How far a project's text index for the review filter is (review/row-text-index.ts): filled once per project and
 * mapping, long in a large project, and a text filter waits for it. 'filling' counts rows; 'merging' is its last part.
 */
export interface TextIndexProgress {
  projectId: number;
  phase: 'filling' | 'merging' | 'ready';
  rowsIndexed: number;
  rowsTotal: number;
}

/**
 * Who started a plan: a mapping saved, a run, or a read that needs the project planned (a review screen, a preview, a
 * watch's look at it).
 */
export type PlanCause = 'mapping' | 'run' | 'read';

/**
 * How far planning a project's queries is: when its mapping is saved, or when a run or a screen needs it planned for
 * another service. A large sheet takes a while.
 */
export interface PlanProgress {
  projectId: number;
  rowsPlanned: number;
  rowsTotal: number;
  /** Only the mapping screen's own save is cancelled there; a run's or a read's plan is said for what it is. */
  startedBy: PlanCause;
}

/** What each kind of job says of itself beside the common fields: what its screen shows (null: nothing more). */
export interface JobDetails {
  import: ImportProgress;
  plan: PlanProgress;
  run: RunProgress;
  verdictCopy: null;
  refresh: RefreshProgress;
  accept: DecisionsProgress;
  undo: DecisionsProgress;
  learn: DecisionsProgress;
  export: ExportProgress;
  textIndex: TextIndexProgress;
  cacheClear: null;
  answerMove: null;
  search: SearchProgress;
}

/** The kinds whose jobs say more than the common fields (a `detail`). */
export type DetailedJobKind = { [K in JobKind]: JobDetails[K] extends null ? never : K }[JobKind];

interface JobCommon {
  jobId: number;
  /** Null for work on no one project (an import before its project exists, a search, clearing the cache). */
  projectId: number | null;
  state: JobState;
  done: number;
  total: number;
  phase: string;
  startedAt: string;
  updatedAt: string;
  /** Why it failed or how it was stopped; null while it goes. */
  message: string | null;
}

/**
 * How far a job is, one shape for every kind (the one progress event, job.progress, and job.list), told apart by
 * `kind`. `done` of `total` counts the job's own unit (rows for most, people for a refresh, parts for a search);
 * `phase` says in words what it does now; `detail` is what the kind's screen shows (null until the job first says it).
 */
export type JobProgress<K extends JobKind = JobKind> = { [Kind in K]: JobCommon & { kind: Kind; detail: JobDetails[Kind] | null } }[K];

/**
 * How far an export (export.run) is: the project's rows gone through, of all of them, for the matches and then, when
 * asked for, the candidates. A large project takes a while, to Excel longer than to CSV.
 */
export interface ExportProgress {
  projectId: number;
  /** What it writes, as export.run was asked: a screen opened meanwhile shows these choices, not its own. */
  choice: ExportChoice;
  part: 'matches' | 'candidates';
  rowsDone: number;
  rowsTotal: number;
}

/** The decisions that go over many rows a slice at a time: accepting the confident rows, undoing an action, learning from decisions. */
export const BULK_DECISIONS = ['accept', 'undo', 'learn'] as const;
export type BulkDecision = (typeof BULK_DECISIONS)[number];

/**
 * How far a decision over many rows is: "accept all at or above" (decisions.acceptAtOrAbove), or an undo of an action
 * over more rows than one slice. The rows it went through, of those it counted when it began. Each writes a few
 * hundred rows at a time, giving other calls their turn in between: a large accept or undo takes a while.
 */
export interface DecisionsProgress {
  projectId: number;
  action: BulkDecision;
  rowsDone: number;
  rowsTotal: number;
}

/**
 * The rows changed at a project's last refresh, counted in the background (review/changed-count.ts): a figure given as
 * null (still counting) by projects.list, projects.get or review.page is now this.
 */
export interface ChangedRowsCounted {
  projectId: number;
  refreshId: number;
  changedAtLastRefresh: number;
}

/**
 * A command from the app menu (Electron) that the renderer carries out as if the user had clicked it; `file` is the
 * picked file's token, what `projects.import` accepts.
 */
export type AppCommand = { command: 'open-file'; file: string } | { command: 'export' };

export interface Events {
  /** Every long piece of work, of every kind: its start, each change of state or phase, a few times a second between, its end. */
  'job.progress': JobProgress;
  'project.changedCount': ChangedRowsCounted;
  'watch.important': ImportantChangesFound;
  'app.command': AppCommand;
}
export type EventName = keyof Events;

// A Record, so adding an event to Events without listing it here fails to compile.
const eventNames: Record<EventName, true> = {
  'job.progress': true,
  'project.changedCount': true,
  'watch.important': true,
  'app.command': true,
};
export const EVENT_NAMES = Object.keys(eventNames) as EventName[];

export function isEventName(name: unknown): name is EventName {
  return typeof name === 'string' && Object.prototype.hasOwnProperty.call(eventNames, name);
}

// ---------- errors ----------

/** Errors cross every boundary as plain, serializable values. */
export const ERROR_KINDS = [
  'invalid_input',
  'not_found',
  'sheet',
  'service',
  'login_failed',
  'forbidden',
  'payment_required',
  'keychain_unavailable',
  'database',
  'busy',
  'offline',
  'cancelled',
  'internal',
] as const;
export type ErrorKind = (typeof ERROR_KINDS)[number];

export interface ContractError {
  kind: ErrorKind;
  message: string;
  /** A finer code within the kind, e.g. a SheetError code or an HTTP status. */
  code?: string;
}

export type CallResult<K extends CallName> = { ok: true; value: CallOutput<K> } | { ok: false; error: ContractError };

/** What the preload (Electron) and renderer/src/api.ts (browser host) expose as `window.matchdesk`. */
export interface MatchdeskBridge {
  call<K extends CallName>(name: K, input: CallInput<K>): Promise<CallResult<K>>;
  on<E extends EventName>(event: E, listener: (payload: Events[E]) => void): () => void;
  /** A reference to a dropped or picked file that `projects.import` accepts. */
  pathForFile(file: File): Promise<string>;
}

export function isCallName(name: unknown): name is CallName {
  return typeof name === 'string' && Object.prototype.hasOwnProperty.call(calls, name);
}
