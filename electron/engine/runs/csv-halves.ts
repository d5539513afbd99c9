import { setTimeout as sleep } from 'node:timers/promises';
import Sqlite, { type Database } from 'better-sqlite3';
import { writeCsvLines, type ExportCell, type LinesFile, type RowPages } from '../export';
import { readProject } from '../rows/project-record';
import { EXPORT_PAGE_ROWS, matchExport, type ExportScope, type RowRange } from './export-rows';
import type { VerdictThread } from './verdict-thread';

/**
 * Rows (blank ones too) from which a CSV export of the matches goes on two threads: below, starting the worker costs
 * more than half the export.
 */
export const HALVES_FROM_ROWS = 50_000;
/** The page cache of each half's read-only connection, in MB: its reads walk the tables in row order. */
export const HALF_CACHE_MB = 8;
/** How long the engine's thread waits for the worker to begin its read transaction before it exports alone. */
const BEGIN_WAIT_MS = 2_000;
/** How often the engine tells the worker's progress while it waits for the worker's half. */
const WAIT_STEP_MS = 100;
/** Tries at two snapshots with nothing committed between them (another process writing): then one thread. */
const TRIES = 3;

/** Slots of a second half's shared state (SecondHalfRequest.state), as an Int32Array. */
const BEGUN = 0;
const ROWS_DONE = 1;
const STOP = 2;
const SLOTS = 3;

/** The second half of a CSV export of the matches, for the worker (verdict-worker.ts) to write. */
export interface SecondHalfRequest {
  projectId: number;
  scope: ExportScope;
  /** The original columns' count (matchExport's width). */
  width: number;
  delimiter: string;
  rows: RowRange;
  /** Where its lines go: a file of the export's own (PartFiles.scratch). */
  path: string;
  /**
   * Shared with the engine's thread: BEGUN set to 1 once the worker's read transaction holds its snapshot (-1: it
   * could not), ROWS_DONE the rows of the half it went through, STOP set by the engine to have it stop between pages.
   */
  state: SharedArrayBuffer;
}

/**
 * The worker's half: begins a read transaction on `db` (tells the engine at once through `state`), then writes the
 * lines of its rows into `path`, as writeCsv writes them. Stops, throwing, between two pages once told to.
 */
export async function writeSecondHalf(db: Database, request: SecondHalfRequest): Promise<LinesFile> {
  const state = new Int32Array(request.state);
  try {
    db.exec('BEGIN');
    // A deferred transaction takes its snapshot at its first read.
    db.prepare('SELECT 1 FROM projects WHERE id = ?').get(request.projectId);
  } catch (error) {
    tell(state, -1);
    throw error;
  }
  tell(state, 1);
  try {
    const project = readProject(db, request.projectId);
    if (!project) throw new Error(`No project ${request.projectId}.`);
    const onPage = (rowsDone: number) => {
      if (Atomics.load(state, STOP) !== 0) throw new Error('The export stopped.');
      Atomics.store(state, ROWS_DONE, rowsDone - request.rows.from);
    };
    const table = matchExport(db, project, request.scope, { pageRows: EXPORT_PAGE_ROWS, rows: request.rows, onPage }, request.width);
    return { path: request.path, rows: await writeCsvLines(request.path, request.delimiter, table.rows) };
  } finally {
    db.exec('ROLLBACK');
  }
}

function tell(state: Int32Array, begun: number): void {
  Atomics.store(state, BEGUN, begun);
  Atomics.notify(state, BEGUN);
}

/** A large CSV export's matches on two threads (csvHalves). */
export interface Halves {
  /** The matches' rows for writeCsv: the first half's pages, then the second half's lines. */
  rows: RowPages;
  /** Ends both halves' reads (and the worker's half, if it still goes): once the file is written, or has failed. */
  close: () => Promise<void>;
}

export interface HalvesInput {
  db: Database;
  projectId: number;
  scope: ExportScope;
  width: number;
  delimiter: string;
  /** The sheet's last row index. */
  lastRow: number;
  /** A worker of the export's own, ready to read (its connection open). */
  worker: VerdictThread;
  /** Where the worker writes its lines: recorded already (PartFiles.scratch). */
  secondPath: string;
  /** Told of the rows gone through, both halves' together; may throw to cancel, between pages. */
  onPage?: (rowsDone: number) => void;
}

/**
 * The matches of a large CSV export as two halves of the sheet, each made on its own thread: the rows up to the middle
 * on the engine's thread, the rest on `worker`, into a file of their own whose bytes then follow the first half's
 * (writeCsv's linesAfter). Each half reads the people its own rows chose, on a read-only connection of its own held in
 * a read transaction from before its first read, so the file is what one thread would write of one moment, whatever is
 * committed meanwhile. The two snapshots are one: the worker begins its transaction while the engine's thread waits
 * (so the engine's own connection commits nothing between), and a connection that reads nothing else sees no commit
 * (its data_version) from before the first to after the second, by another process either. Null when they could not
 * be had (the worker did not begin in time, or another process kept committing): the caller exports on one thread.
 * A worker that fails or stops leaves its half to the engine's thread, read on the same snapshot.
 */
export async function csvHalves({ db, projectId, scope, width, delimiter, lastRow, worker, secondPath, onPage }: HalvesInput): Promise<Halves | null> {
  const middle = Math.ceil((lastRow + 1) / 2);
  const second: RowRange = { from: middle, to: lastRow };
  for (let tries = 0; tries < TRIES; tries++) {
    const began = beginBoth(db, projectId, { projectId, scope, width, delimiter, rows: second, path: secondPath, state: new SharedArrayBuffer(SLOTS * 4) }, worker);
    if (began === null) return null;
    if (began.here !== null) return { rows: halvesRows(began.here, began.half, projectId, scope, width, middle, lastRow, onPage), close: began.close };
    await began.close();
  }
  return null;
}

interface SecondHalf {
  done: Promise<LinesFile | null>;
  state: Int32Array;
}

/**
 * The engine's read-only connection in a read transaction and the worker's half begun on the same snapshot; `here` null
 * when something was committed between them (to be tried again), all null when the worker did not begin.
 */
function beginBoth(db: Database, projectId: number, request: SecondHalfRequest, worker: VerdictThread): { here: Database | null; half: SecondHalf; close: () => Promise<void> } | null {
  const probe = new Sqlite(db.name, { readonly: true, fileMustExist: true });
  const here = new Sqlite(db.name, { readonly: true, fileMustExist: true });
  const state = new Int32Array(request.state);
  let done: Promise<LinesFile | null> = Promise.resolve(null);
  const close = async () => {
    Atomics.store(state, STOP, 1);
    // The worker's file is closed before the caller removes it.
    await done;
    if (here.open) here.close();
  };
  try {
    here.pragma(`cache_size = -${HALF_CACHE_MB * 1024}`);
    const before = dataVersion(probe);
    here.exec('BEGIN');
    here.prepare('SELECT 1 FROM projects WHERE id = ?').get(projectId);
    done = worker.secondHalf(request).catch(() => null);
    // Blocks the engine's thread for as long as the worker takes to begin (its connection is open already): a few ms.
    Atomics.wait(state, BEGUN, 0, BEGIN_WAIT_MS);
    if (Atomics.load(state, BEGUN) !== 1) {
      void close();
      return null;
    }
    const same = dataVersion(probe) === before;
    return { here: same ? here : null, half: { done, state }, close };
  } catch (error) {
    void close();
    throw error;
  } finally {
    probe.close();
  }
}

/** Changes whenever another connection commits (SQLite's PRAGMA data_version). */
function dataVersion(db: Database): number {
  return db.pragma('data_version', { simple: true }) as number;
}

/**
 * The first half's pages read on `here`, then, once the worker's half is done, its lines as linesAfter; the rows gone
 * through told meanwhile. If the worker's half failed, its rows are read on `here` after the first half's.
 */
function halvesRows(here: Database, half: SecondHalf, projectId: number, scope: ExportScope, width: number, middle: number, lastRow: number, onPage?: (rowsDone: number) => void): RowPages {
  const project = readProject(here, projectId)!;
  const workerDone = () => Math.max(0, Atomics.load(half.state, ROWS_DONE));
  let after: LinesFile | null = null;
  async function* pages(): AsyncGenerator<readonly ExportCell[][]> {
    const first = matchExport(here, project, scope, { pageRows: EXPORT_PAGE_ROWS, rows: { from: 0, to: middle - 1 }, onPage: (rowsDone) => onPage?.(rowsDone + workerDone()) }, width);
    yield* (first.rows as RowPages).pages;
    let finished = false;
    void half.done.finally(() => (finished = true));
    while (!finished) {
      onPage?.(middle + workerDone());
      await Promise.race([half.done, sleep(WAIT_STEP_MS)]);
    }
    after = await half.done;
    if (after) return;
    const rest = matchExport(here, project, scope, { pageRows: EXPORT_PAGE_ROWS, rows: { from: middle, to: lastRow }, onPage }, width);
    yield* (rest.rows as RowPages).pages;
  }
  return { pages: pages(), linesAfter: async () => after };
}
