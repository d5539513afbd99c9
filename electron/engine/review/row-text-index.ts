import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Database } from 'better-sqlite3';
import type { TextIndexProgress } from '../../../shared/contract';
import type { Mapping } from '../../../shared/model';
import { EngineError } from '../engine-errors';
import { idleTurn } from '../idle-turn';
import { rowInput } from '../matching';
import { progressPace } from '../progress-pace';
import { rowLabel } from '../runs/planned-page';
import { BLANK_ROW, parseCells } from '../rows/row-cells';
import { writingTextIndexOnly } from '../store/data-stamp';

/**
 * The review filter's text index (table row_text, migration 4): one trigram document per row holding its label and
 * cells, so "contains this text" is answered from the index instead of a scan of every row. Matching ignores
 * letter case and accents (FTS5's remove_diacritics, plus the letters below that have no accent to remove).
 */

/** A trigram index finds only texts of at least three characters; shorter filters scan the rows instead. */
export const MIN_INDEXED_LENGTH = 3;
/** Rows indexed per transaction: a short transaction, so other calls get in between while a large project fills. */
const ROWS_PER_SLICE = 1000;
/** Bump when what a row's document holds changes: every project's index is then filled again. */
const DOCUMENT_VERSION = 1;
/** Between cells, so a filter never matches across two of them; nobody types it. */
const CELL_SEPARATOR = '\u001f';

// Letters no accent removal reaches (as in matching/normalize.ts), spelled the way people type them on an ASCII keyboard.
const PLAIN_LETTERS: Record<string, string> = {
  ł: 'l', ø: 'o', ß: 'ss', æ: 'ae', œ: 'oe', đ: 'd', ð: 'd', þ: 'th', ı: 'i', ħ: 'h', ŧ: 't', ĸ: 'k', ŋ: 'n', ƒ: 'f',
};
const PLAIN_LETTER = new RegExp(`[${Object.keys(PLAIN_LETTERS).join('')}]`, 'g');

/** The form rows and filters are indexed and searched in; FTS5 removes the accents (and would fold case) after it. */
export function searchForm(text: string): string {
  return text.normalize('NFKC').toLowerCase().replace(PLAIN_LETTER, (c) => PLAIN_LETTERS[c]!);
}

/** The FTS5 query for a filter (one phrase: the text as a substring), or null when it is too short for the index. */
export function rowTextMatch(filter: string): string | null {
  const text = searchForm(filter.trim());
  if ([...text].length < MIN_INDEXED_LENGTH) return null;
  return `"${text.replace(/"/g, '""')}"`;
}

/** What a row is found by: the label the review list shows (when it is not one of the cells already) and its cells. */
export function rowDocument(label: string, cells: readonly string[]): string {
  const parts = cells.filter((c) => c !== '');
  if (label !== '' && !parts.includes(label)) parts.unshift(label);
  return searchForm(parts.join(CELL_SEPARATOR));
}

/** The label depends on the mapping, so an index is good for the mapping it was filled under only. */
function signatureOf(mappingJson: string): string {
  const mapping = parseMapping(mappingJson);
  const fields = Object.keys(mapping)
    .sort()
    .map((k) => [k, mapping[k as keyof Mapping]]);
  return JSON.stringify([DOCUMENT_VERSION, fields]);
}

function parseMapping(json: string): Mapping {
  try {
    const mapping = JSON.parse(json) as unknown;
    return mapping && typeof mapping === 'object' && !Array.isArray(mapping) ? (mapping as Mapping) : {};
  } catch {
    return {};
  }
}

export function isRowTextIndexReady(db: Database, projectId: number): boolean {
  const row = db
    .prepare('SELECT p.mapping, s.signature, s.done FROM projects p LEFT JOIN row_text_state s ON s.project_id = p.id WHERE p.id = ?')
    .get(projectId) as { mapping: string; signature: string | null; done: number | null } | undefined;
  return !!row && row.done === 1 && row.signature === signatureOf(row.mapping);
}

/** A fill under way: `hurry` once someone waits for it (a text filter), before which it works only when the engine is idle. */
interface FillJob {
  done: Promise<void>;
  hurry: boolean;
  /** Ends the background fill's wait for an idle engine at once (set while it waits). */
  wake: (() => void) | null;
  /** Set by stopRowTextIndexFill: it stops before its next slice, keeping where it got to. */
  stopped: boolean;
}

/** Rows a background slice indexes: a few milliseconds' work, so a page asked for meanwhile barely waits. */
const BACKGROUND_ROWS_PER_SLICE = 250;

const filling = new WeakMap<Database, Map<number, FillJob>>();
/** Who hears how far fills get (the engine, which tells the fill's `textIndex` job: its detail in job.progress). */
const progressListeners = new WeakMap<Database, (progress: TextIndexProgress) => void>();

/** Sets who hears how far the text index fills of `db` get (one listener; the engine's). */
export function onRowTextIndexProgress(db: Database, listener: (progress: TextIndexProgress) => void): void {
  progressListeners.set(db, listener);
}

/**
 * Fills the project's text index, or refills it after the mapping changed, and resolves once it is complete.
 * Works in short transactions with a turn of the event loop between them, so other calls (and a plan or a run of
 * this project) go on meanwhile; where it got to is stored, so a fill cut off by a crash resumes. Concurrent callers
 * share one fill, and a fill started in the background (prefillRowTextIndex) goes on at full speed from here.
 * Resolves at once when the index is ready.
 */
export function fillRowTextIndex(db: Database, projectId: number): Promise<void> {
  if (isRowTextIndexReady(db, projectId)) return Promise.resolve();
  const running = filling.get(db)?.get(projectId);
  // A fill being stopped is let end, and this one goes on from where it got to.
  if (running?.stopped) return running.done.catch(() => undefined).then(() => fillRowTextIndex(db, projectId));
  if (running) {
    running.hurry = true;
    running.wake?.();
    return running.done;
  }
  return startFill(db, projectId, true, () => true).done;
}

/**
 * Starts filling the project's text index in the background, a small slice at a time and only while `isIdle` says
 * nothing else is going on, so the first text filter of a large project finds it (partly) filled instead of waiting
 * for all of it (a large project's fill takes a long while). Nothing happens when the index is ready or a fill is under
 * way; a fill that fails (the database closed) is left for the next filter, which resumes it.
 */
export function prefillRowTextIndex(db: Database, projectId: number, isIdle: () => boolean): void {
  if (filling.get(db)?.has(projectId) || isRowTextIndexReady(db, projectId)) return;
  startFill(db, projectId, false, isIdle).done.catch(() => undefined);
}

/**
 * Stops the project's fill under way (job.cancel) before its next slice: where it got to is kept, and the next fill
 * (the review's background one, or a text filter's) goes on from there. A text filter waiting for it fails as
 * cancelled. Resolves once it has stopped; null when none goes on.
 */
export function stopRowTextIndexFill(db: Database, projectId: number): Promise<void> | null {
  const job = filling.get(db)?.get(projectId);
  if (!job) return null;
  job.stopped = true;
  job.wake?.();
  return job.done.catch(() => undefined);
}

function startFill(db: Database, projectId: number, hurry: boolean, isIdle: () => boolean): FillJob {
  let jobs = filling.get(db);
  if (!jobs) filling.set(db, (jobs = new Map()));
  const job: FillJob = { hurry, done: Promise.resolve(), wake: null, stopped: false };
  const waitTurn = () =>
    idleTurn({
      isIdle,
      goOn: () => db.open && !job.stopped,
      hurry: () => job.hurry,
      // A text filter that takes the fill over must not wait out the rest of a poll.
      onPoll: (wake) => (job.wake = wake),
    });
  job.done = fillInSlices(db, projectId, job, waitTurn).finally(() => jobs.delete(projectId));
  jobs.set(projectId, job);
  return job;
}

async function fillInSlices(db: Database, projectId: number, job: FillJob, waitTurn: () => Promise<boolean>): Promise<void> {
  const projectMapping = db.prepare('SELECT mapping FROM projects WHERE id = ?').pluck();
  const readState = db.prepare('SELECT signature, next_row, done FROM row_text_state WHERE project_id = ?');
  const startState = db.prepare('INSERT INTO row_text_state (project_id, signature) VALUES (?, ?)');
  // An update, not a REPLACE: deleting the row would fire the trigger that drops every document of the project.
  const restartState = db.prepare('UPDATE row_text_state SET signature = ?, next_row = 0, done = 0 WHERE project_id = ?');
  const advance = db.prepare('UPDATE row_text_state SET next_row = ?, done = ? WHERE project_id = ?');
  const rowsFrom = db.prepare('SELECT row_index, cells FROM rows WHERE project_id = ? AND row_index >= ? ORDER BY row_index LIMIT ?');
  // REPLACE: after a change of mapping the rows are indexed again over their old documents.
  const putDocument = db.prepare('INSERT OR REPLACE INTO row_text (rowid, text) VALUES ((? << 32) | ?, ?)');
  // Row positions, as next_row counts them: the blank rows between data rows too.
  const rowCount = db.prepare('SELECT row_count + blank_rows FROM projects WHERE id = ?').pluck();
  /** The row the last slice got to (rows are numbered densely from 0 at import); null until a slice indexed any. */
  let indexedTo: number | null = null;

  /** One transaction: the next rows of the project, and how far that got. False when there is nothing left. */
  const slice = db.transaction((limit: number): boolean => {
    const mappingJson = projectMapping.get(projectId) as string | undefined;
    if (mappingJson === undefined) return false;
    const signature = signatureOf(mappingJson);
    let state = readState.get(projectId) as { signature: string; next_row: number; done: number } | undefined;
    if (!state || state.signature !== signature) {
      if (state) restartState.run(signature, projectId);
      else startState.run(projectId, signature);
      state = { signature, next_row: 0, done: 0 };
    }
    if (state.done === 1) return false;
    const mapping = parseMapping(mappingJson);
    const rows = rowsFrom.all(projectId, state.next_row, limit) as { row_index: number; cells: string }[];
    for (const row of rows) {
      if (row.cells === BLANK_ROW) continue;
      const cells = parseCells(row.cells);
      putDocument.run(projectId, row.row_index, rowDocument(rowLabel(rowInput(cells, mapping), cells), cells));
    }
    const done = rows.length < limit;
    const next = rows.length > 0 ? rows[rows.length - 1]!.row_index + 1 : state.next_row;
    advance.run(next, done ? 1 : 0, projectId);
    if (rows.length > 0) indexedTo = next;
    return !done;
  });

  const report = progressReport(db, projectId, () => (rowCount.get(projectId) as number | undefined) ?? 0);
  let filled = false;
  // The first slice of a hurried fill at once, as before: a filter on a small project is answered in the same turn.
  // Each slice writes the text index alone: the review's counts and lists are kept through it (data-stamp.ts).
  const next = () => writingTextIndexOnly(db, () => slice.immediate(job.hurry ? ROWS_PER_SLICE : BACKGROUND_ROWS_PER_SLICE));
  while (!job.stopped && (job.hurry || (await waitTurn())) && next()) {
    filled = true;
    if (indexedTo !== null) report('filling', indexedTo);
    if (job.hurry) await nextTurn();
  }
  if (job.stopped) throw new EngineError('cancelled', 'The text index stopped filling: where it got to is kept. Filter again to go on from there.');
  // Nothing was indexed (the index was ready, or the project is gone), or the database closed: nothing to tell.
  if (indexedTo === null || !db.open) return;
  // Part of the fill, so the filter that waits for it is answered from the merged index.
  if (filled) {
    report('merging', indexedTo);
    await mergeSegments(db, waitTurn);
    checkpoint(db);
  }
  if (db.open && isRowTextIndexReady(db, projectId)) report('ready', indexedTo);
}

/**
 * Tells the listener of `db` (if any) how far a fill got (a large project's fill is long, and a text filter waits
 * for it): each change of phase, and the rows indexed a few times a second while filling.
 */
function progressReport(db: Database, projectId: number, rowsTotal: () => number): (phase: TextIndexProgress['phase'], rowsIndexed: number) => void {
  const pace = progressPace();
  let total: number | null = null;
  return (phase, rowsIndexed) => {
    const listener = progressListeners.get(db);
    if (!listener || !pace(phase)) return;
    total ??= rowsTotal();
    listener({ projectId, phase, rowsIndexed: phase === 'filling' ? Math.min(rowsIndexed, total) : total, rowsTotal: total });
  };
}

/** Pages of the index written per merge step: a short step, so other calls get in between. */
const MERGE_PAGES = 200;

/**
 * Merges the index's segments into one, in short steps after a fill. Filled 1,000 rows a transaction, a million-row
 * index is left in dozens of segments, and every query reads each of them, several times slower than one merged
 * segment. One 'optimize' would do it in a single statement, but that blocks every other call for many seconds. An
 * index left half-merged (the database closed, or another process was writing) is as correct, only slower.
 */
/**
 * Copies what the fill wrote into the database file. A large fill leaves up to a WAL's worth (30,000 pages) that every
 * read after it looks pages up in until a later commit checkpoints, which made the review's pages after a first text
 * filter several times slower (docs/performance.md, "Review"). Passive: a reader holding an older snapshot (the
 * reading worker) is not waited for, and what it still needs is copied by a later checkpoint.
 */
function checkpoint(db: Database): void {
  try {
    if (db.open) db.pragma('wal_checkpoint(PASSIVE)');
  } catch {
    // The database closed meanwhile: it was checkpointed as it closed.
  }
}

async function mergeSegments(db: Database, waitTurn: () => Promise<boolean>): Promise<void> {
  try {
    // Merge whenever two segments share a level (the default waits for four), down to a single segment.
    writingTextIndexOnly(db, () => db.prepare("INSERT INTO row_text (row_text, rank) VALUES ('usermerge', 2)").run());
    const changes = db.prepare('SELECT total_changes()').pluck();
    const merge = db.prepare(`INSERT INTO row_text (row_text, rank) VALUES ('merge', ${MERGE_PAGES})`);
    for (;;) {
      if (!(await waitTurn())) return;
      const before = changes.get() as number;
      writingTextIndexOnly(db, () => merge.run());
      // FTS5's documented way to tell that a merge step found nothing left to do.
      if ((changes.get() as number) - before <= 1) return;
    }
  } catch {
    // The database closed or is busy with a write of another process: the next fill merges again.
  }
}
