import { setTimeout as sleep } from 'node:timers/promises';
import Sqlite, { type Database } from 'better-sqlite3';
// Not the export's index: the export's worker (export-half-worker.ts) loads what this module imports, and the index
// brings modules it never runs (the XLSX writer; unfinished exports' records and zod, their schema).
import { writeCsvLines } from '../export/csv-export';
import type { DeflatedRows, ExportCell, LinesFile, RowPages } from '../export/export-target';
import { writeDeflatedRows } from '../export/xlsx-rows';
import { readProject } from '../rows/project-record';
import { within } from '../within';
import { EXPORT_PAGE_ROWS, matchExport, scopeRowCount, type ExportScope, type RowRange } from './export-rows';

/**
 * Rows (blank ones too) from which an export of the matches goes on two threads: the worker is ready 0.1-0.3 s in,
 * and each thread is slower while both run. 100,000 rows, alternated with one thread: CSV 1.05-1.11 -> 0.88-0.96 s,
 * XLSX 1.86, 1.91 -> 1.63, 1.64 s, 0.3 s more CPU and 20-30 MB more at the peak.
 */
export const HALVES_FROM_ROWS = 100_000;
/**
 * The page cache of each half's read-only connection, in MB: its reads walk the tables in row order, so a small one
 * does (1M: the export's peak 218 -> 205 MB from 8 MB, its time the same).
 */
export const HALF_CACHE_MB = 2;
/**
 * The engine's thread's share of the rows, by format: both halves begin together, and the engine's thread also serves
 * the event loop and copies the worker's lines in at the end. An Excel file's worker compresses its half itself, where
 * the engine's thread hands its own to libuv's threads: at 52% the worker's half ended seconds after the engine's (1M:
 * 15.8-17.4 s against 13.5-14.8 s).
 */
export const FIRST_SHARE = { csv: 0.52, xlsx: 0.57 } as const;
/**
 * How long the engine's thread waits for the worker's connection before it exports alone: a worker is ready in 0.1-0.3
 * s, more on a loaded machine, and one that cannot start says so at once.
 */
const READY_WAIT_MS = 2_000;
/** How long the engine's thread waits for the worker to begin its read transaction once asked (its connection is open). */
const BEGIN_WAIT_MS = 2_000;
/** How often the engine tells the worker's progress while it waits for the worker's half. */
const WAIT_STEP_MS = 100;

/** Slots of a second half's shared state (SecondHalfRequest.state), as an Int32Array. */
const BEGUN = 0;
const ROWS_DONE = 1;
const STOP = 2;
const SLOTS = 3;

/**
 * What a second half is written as: CSV lines, or an XLSX sheet's rows, numbered from `firstRow` (the sheet's row
 * number of the half's first row: the header is 1), compressed (export/xlsx-rows.ts writeDeflatedRows).
 */
export type HalfFormat = { kind: 'csv'; delimiter: string } | { kind: 'xlsx'; firstRow: number };

/** A second half as the worker wrote it. */
export type WrittenHalf = { kind: 'csv'; lines: LinesFile } | { kind: 'xlsx'; rows: DeflatedRows };

/** The second half of an export of the matches, for the export's worker (export-half-worker.ts) to write. */
export interface SecondHalfRequest {
  projectId: number;
  scope: ExportScope;
  /** The original columns' count (matchExport's width). */
  width: number;
  format: HalfFormat;
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
 * The worker's half: begins a read transaction on `db` (tells the engine at once through `state`), then writes its
 * rows into `path`: as writeCsv writes their lines, or as writeXlsx writes their sheet rows, compressed. Stops,
 * throwing, between two pages once told to.
 */
export async function writeSecondHalf(db: Database, request: SecondHalfRequest): Promise<WrittenHalf> {
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
    const { format, path } = request;
    if (format.kind === 'csv') return { kind: 'csv', lines: { path, rows: await writeCsvLines(path, format.delimiter, table.rows) } };
    return { kind: 'xlsx', rows: await writeDeflatedRows(path, table.rows, format.firstRow, table.headers.length) };
  } finally {
    db.exec('ROLLBACK');
  }
}

function tell(state: Int32Array, begun: number): void {
  Atomics.store(state, BEGUN, begun);
  Atomics.notify(state, BEGUN);
}

/** A large export's matches on two threads (exportHalves). */
export interface Halves {
  /** The matches' rows for writeCsv or writeXlsx: the first half's pages, then the second half's lines or sheet rows. */
  rows: RowPages;
  /** Ends both halves' reads (and the worker's half, if it still goes): once the file is written, or has failed. */
  close: () => Promise<void>;
}

export interface HalvesInput {
  db: Database;
  projectId: number;
  scope: ExportScope;
  width: number;
  /** CSV lines, or XLSX sheet rows (numbered: the second half's from the first half's count). */
  format: { kind: 'csv'; delimiter: string } | { kind: 'xlsx' };
  /** The sheet's last row index. */
  lastRow: number;
  /** A worker of the export's own (export-half-thread.ts), and when it is ready to read (its connection open). */
  worker: SecondHalfWriter;
  ready: Promise<unknown>;
  /** Where the worker writes its lines: recorded already (PartFiles.scratch). */
  secondPath: string;
  /** Told of the rows gone through, both halves' together; may throw to cancel, between pages. */
  onPage?: (rowsDone: number) => void;
}

/** What writes a second half: the export's worker (export-half-thread.ts ExportHalfThread), while it is alive. */
export interface SecondHalfWriter {
  readonly alive: boolean;
  secondHalf(request: SecondHalfRequest): Promise<WrittenHalf>;
}

/**
 * The matches of a large export as two halves of the sheet, each made on its own thread: the first FIRST_SHARE of
 * the rows on the engine's thread, the rest on `worker`, into a file of their own whose bytes then follow the first
 * half's (writeCsv's linesAfter; writeXlsx's sheetAfter, compressed there already, its rows numbered on from the first
 * half's as counted when the halves began: the whole sheet's one a row, a scope's by scopeRowCount; used only when the
 * first half wrote that many). Each half reads the people its own rows chose, on a read-only connection of its own
 * held in a read transaction, so the file is what one thread would write of one moment, whatever is committed meanwhile.
 * Once the worker's connection is open (or READY_WAIT_MS passed), the engine's thread begins its transaction and the
 * worker's in one turn, so that none of the engine's own commits (a job's record, a background slice) comes between
 * them; the worker joins only if a connection that reads nothing else saw no commit at all (its data_version) from
 * before the engine's transaction to after the worker's: the two snapshots are then one. A worker that is not ready in time, could not join, fails or stops leaves
 * its half to the engine's thread, read on the same snapshot. Throws where the engine's own connection cannot open.
 */
export function exportHalves({ db, projectId, scope, width, format, lastRow, worker, ready, secondPath, onPage }: HalvesInput): Halves {
  const seam = Math.ceil((lastRow + 1) * FIRST_SHARE[format.kind]);
  const probe = new Sqlite(db.name, { readonly: true, fileMustExist: true });
  let here: Database;
  try {
    here = new Sqlite(db.name, { readonly: true, fileMustExist: true });
    here.pragma(`cache_size = -${HALF_CACHE_MB * 1024}`);
  } catch (error) {
    probe.close();
    throw error;
  }
  const state = new Int32Array(new SharedArrayBuffer(SLOTS * 4));
  /** The rows the first half writes: in the whole sheet's export one a row; a scope's counted once its snapshot is taken. */
  let firstHalfRows = seam;
  const request: SecondHalfRequest = { projectId, scope, width, format: format.kind === 'csv' ? format : { kind: 'xlsx', firstRow: seam + 2 }, rows: { from: seam, to: lastRow }, path: secondPath, state: state.buffer as SharedArrayBuffer };
  let joined = false;
  let done: Promise<WrittenHalf | null> = Promise.resolve(null);

  /** Begins the engine's read transaction, and the worker's beside it when its connection opened in time. */
  async function begin(): Promise<void> {
    const inTime = await within(ready.then(() => true, () => false), READY_WAIT_MS, false);
    // From here to the end, one turn of the engine's thread.
    const before = dataVersion(probe);
    here.exec('BEGIN');
    // A deferred transaction takes its snapshot at its first read.
    here.prepare('SELECT 1 FROM projects WHERE id = ?').get(projectId);
    // A worker gone since its connection opened is not asked: nothing would end the wait below before BEGIN_WAIT_MS.
    if (inTime && worker.alive) {
      if (format.kind === 'xlsx' && scope !== 'all') {
        // The header is row 1: the second half's rows are numbered on from the first half's last.
        firstHalfRows = scopeRowCount(here, projectId, scope, { from: 0, to: seam - 1 });
        request.format = { kind: 'xlsx', firstRow: firstHalfRows + 2 };
      }
      done = worker.secondHalf(request).catch(() => null);
      // Blocks the engine's thread for as long as the worker takes to begin (its connection is open already): a few ms.
      Atomics.wait(state, BEGUN, 0, BEGIN_WAIT_MS);
      joined = Atomics.load(state, BEGUN) === 1 && dataVersion(probe) === before;
      if (!joined) Atomics.store(state, STOP, 1);
    }
    probe.close();
  }

  const workerDone = () => (joined ? Math.max(0, Atomics.load(state, ROWS_DONE)) : 0);
  let after: WrittenHalf | null = null;
  async function* pages(): AsyncGenerator<readonly ExportCell[][]> {
    await begin();
    const project = readProject(here, projectId)!;
    const first = matchExport(here, project, scope, { pageRows: EXPORT_PAGE_ROWS, rows: { from: 0, to: joined ? seam - 1 : lastRow }, onPage: (rowsDone) => onPage?.(rowsDone + workerDone()) }, width);
    let written = 0;
    for await (const page of (first.rows as RowPages).pages) {
      written += page.length;
      yield page;
    }
    if (!joined) return;
    // The worker numbered its sheet rows from the row after the first half's: another count, and they are not used.
    const usable = format.kind === 'csv' || written === firstHalfRows;
    if (!usable) Atomics.store(state, STOP, 1);
    let finished = false;
    void done.finally(() => (finished = true));
    while (!finished) {
      onPage?.(seam + workerDone());
      await Promise.race([done, sleep(WAIT_STEP_MS)]);
    }
    after = usable ? await done : null;
    if (after) return;
    // The worker failed or stopped part-way: its half written here, on the same snapshot.
    const rest = matchExport(here, project, scope, { pageRows: EXPORT_PAGE_ROWS, rows: { from: seam, to: lastRow }, onPage }, width);
    yield* (rest.rows as RowPages).pages;
  }
  return {
    rows: {
      pages: pages(),
      linesAfter: async () => (after?.kind === 'csv' ? after.lines : null),
      sheetAfter: async () => (after?.kind === 'xlsx' ? after.rows : null),
    },
    close: async () => {
      Atomics.store(state, STOP, 1);
      // The worker's file is closed before the caller removes it.
      await done;
      if (probe.open) probe.close();
      if (here.open) here.close();
    },
  };
}

/** Changes whenever another connection commits (SQLite's PRAGMA data_version). */
function dataVersion(db: Database): number {
  return db.pragma('data_version', { simple: true }) as number;
}
