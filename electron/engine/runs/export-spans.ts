import { setImmediate as nextTurn } from 'node:timers/promises';
import Sqlite, { type Database } from 'better-sqlite3';
import type { CsvSpan, CsvSpans } from '../export';
import type { ProjectRecord } from '../rows/project-record';
import { MatchSpans, chosenOf, originalWidth, type ExportScope, type SpanFormat } from './export-rows';
import { ExportSummaries } from './export-summaries';
import type { VerdictThread } from './verdict-thread';

/** How a large CSV export of the matches goes on two threads (exportProject's `twoThreads`). */
export interface TwoThreads {
  /** A worker on the database's file (VerdictThread.start with its path); null where none can start. */
  start: () => VerdictThread | null;
  /** The rows (blank ones too) from which an export goes on two threads: below, a worker costs more than it saves. */
  fromRows: number;
  /** Row indexes a span covers. */
  spanRows: number;
  /** Told of each span as it is written, and which thread made it. */
  onSpan?: (by: 'engine' | 'worker', from: number, to: number) => void;
  /**
   * Makes no span before the worker has joined or could not (tests): otherwise the engine's thread starts at once
   * and the worker joins when it is ready.
   */
  waitForWorker?: boolean;
}

export const TWO_THREADS_FROM_ROWS = 20_000;
/** A span of 2,000 rows is about 650 KB of the bench's sheet. */
export const SPAN_ROWS = 2000;
/**
 * Spans asked of the worker at a time: it is asked for more only between the engine's own spans, so a few wait for it
 * while it makes one, and it is not left idle while the engine makes a span.
 */
const WORKER_SPANS = 4;
/**
 * Bytes made by the engine's thread ahead of a span the worker has not handed over yet: past them it waits for the
 * worker, so the spans waiting to be written stay a few MB whatever the two threads' speeds.
 */
const AHEAD_BYTES = 4 * 1024 * 1024;
/** Written spans' memory kept to make others in: enough for the spans in the making on both threads. */
const KEPT_SPANS = WORKER_SPANS + 2;
/** Each connection's page cache for the export, in MB (SQLite's default): its reads walk the tables in order. */
export const EXPORT_CACHE_MB = 2;

/**
 * The matches export's lines as CSV, made on two threads: the engine's and a worker's (verdict-worker.ts), each with
 * a read-only connection of its own held on one snapshot, so the file is what one thread would write of that moment
 * however the engine's connection writes meanwhile. The rows go in spans of `spanRows` row indexes: the worker is
 * asked for the next spans while it has fewer than WORKER_SPANS, the engine makes the others, and the spans are
 * written in row order. The worker joins only if its snapshot is the engine's: no commit came between the two (a
 * probe connection's data_version unchanged). A worker that cannot start, read or join, or that fails, leaves its
 * spans to the engine's thread, on the same snapshot: the same bytes. `null` for a database without a file.
 */
export function csvSpans(
  db: Database,
  project: ProjectRecord,
  scope: ExportScope,
  delimiter: string,
  threads: TwoThreads,
  onPage?: (rowsDone: number) => void,
): { width: number; rows: CsvSpans; close: () => void } | null {
  if (db.memory) return null;
  const snapshot = new Sqlite(db.name, { readonly: true, fileMustExist: true });
  const probe = new Sqlite(db.name, { readonly: true, fileMustExist: true });
  // Also when the spans were never asked for (the file could not be made): the snapshot would hold the WAL back.
  const close = () => {
    if (snapshot.open) snapshot.close();
    if (probe.open) probe.close();
  };
  try {
    snapshot.pragma(`cache_size = -${EXPORT_CACHE_MB * 1024}`);
    const before = dataVersion(probe);
    snapshot.exec('BEGIN');
    const last = snapshot.prepare('SELECT max(row_index) FROM rows WHERE project_id = ?').pluck().get(project.id) as number | null;
    const version = dataVersion(probe);
    // A commit between the probe's two looks (another process's) leaves the snapshot's moment unknown: no worker.
    const joinable = version === before;
    const width = originalWidth(snapshot, project);
    const format: SpanFormat = { projectId: project.id, scope, width, delimiter };
    return { width, rows: { spans: spans(snapshot, probe, joinable ? version : null, format, last ?? -1, threads, onPage) }, close };
  } catch (err) {
    close();
    throw err;
  }
}

/** The spans in row order; the connections are closed and the worker stopped when it ends, however it ends. */
async function* spans(
  snapshot: Database,
  probe: Database,
  version: number | null,
  format: SpanFormat,
  last: number,
  threads: TwoThreads,
  onPage: ((rowsDone: number) => void) | undefined,
): AsyncGenerator<CsvSpan> {
  const { spanRows, onSpan } = threads;
  let thread: VerdictThread | null = null;
  /** The worker once it has joined; null again if it fails. */
  const joined: { worker: VerdictThread | null } = { worker: null };
  try {
    thread = version === null ? null : threads.start();
    const starting = thread;
    // The worker starts and takes its snapshot while the engine reads the chosen people; it is sent them once it has.
    let begun = false;
    const beginning = starting?.exportBegin(format).then(
      () => {
        // Its snapshot is the engine's if nothing was committed since the engine took its own.
        if (probe.open && dataVersion(probe) === version) begun = true;
        else void starting.close();
      },
      () => undefined,
    );
    const chosen = await chosenOf(snapshot, format.projectId, format.scope);
    if (threads.waitForWorker) await beginning;
    // A worker begun by now reads the later half of the chosen people while the engine reads the first.
    const reading = begun && starting && chosen.length >= 2 ? starting : null;
    const half = chosen.length >>> 1;
    const theirs = reading?.exportPeopleRead(chosen.slice(half)).then(
      (shared) => ExportSummaries.of(snapshot, shared),
      () => null,
    );
    const mine = await ExportSummaries.ofPeople(snapshot, reading ? chosen.subarray(0, half) : chosen);
    const rest = theirs && (await theirs);
    const summaries = !reading ? mine : ExportSummaries.joined(snapshot, [mine, rest ?? (await ExportSummaries.ofPeople(snapshot, chosen.subarray(half)))]);
    // A worker that could not read its half is left out.
    if (reading && !rest) {
      begun = false;
      void reading.close();
    }
    const here = new MatchSpans(snapshot, format, summaries);
    /**
     * Joins the worker once it has begun: sent the people the engine read (the first half, or all) before any span (a
     * worker takes its messages in order).
     */
    const join = () => {
      if (!begun || !starting) return;
      begun = false;
      joined.worker = starting;
      void starting.exportPeople((reading ? mine : summaries).shared).catch(() => undefined);
    };
    const count = Math.floor(last / spanRows) + 1;
    const span = (at: number): [number, number] => [at * spanRows, Math.min(last, (at + 1) * spanRows - 1)];
    const made = new Map<number, { span: CsvSpan; by: 'engine' | 'worker' }>();
    /** Bytes made and not written yet. */
    let waitingBytes = 0;
    const keep = (at: number, made_: CsvSpan, by: 'engine' | 'worker') => {
      made.set(at, { span: made_, by });
      waitingBytes += made_.bytes.length;
    };
    const asked = new Map<number, Asked>();
    const free: ArrayBuffer[] = [];
    let next = 0;
    for (let at = 0; at < count; ) {
      const ready = made.get(at);
      if (ready) {
        made.delete(at);
        waitingBytes -= ready.span.bytes.length;
        yield ready.span;
        // Written by now: its memory makes a later span, here or on the worker.
        if (free.length < KEPT_SPANS) free.push(ready.span.bytes.buffer as ArrayBuffer);
        onSpan?.(ready.by, ...span(at));
        onPage?.(span(at)[1] + 1);
        at++;
        continue;
      }
      join();
      const helper = joined.worker;
      while (helper && asked.size < WORKER_SPANS && next < count) asked.set(next, askedOf(helper, ...span(next++), free.pop() ?? null));
      const waiting = asked.get(at);
      // The engine makes the next span itself when nothing asked of the worker comes first, or while the worker makes
      // the first, up to AHEAD_BYTES waiting.
      if (!waiting || (!waiting.settled && next < count && waitingBytes < AHEAD_BYTES)) {
        keep(next, here.csv(...span(next), free.pop() ?? null), 'engine');
        next++;
        await nextTurn();
        continue;
      }
      await waiting.done;
      asked.delete(at);
      if (waiting.span) {
        keep(at, waiting.span, 'worker');
      } else {
        // The worker failed: this span and any other it was asked for are made here, on the same snapshot.
        joined.worker = null;
        keep(at, here.csv(...span(at), free.pop() ?? null), 'engine');
      }
    }
  } finally {
    if (thread) void thread.close();
    if (snapshot.open) snapshot.close();
    if (probe.open) probe.close();
  }
}

/** A span asked of the worker: `done` settles either way, with `span` set when the worker made it. */
interface Asked {
  done: Promise<void>;
  settled: boolean;
  span: CsvSpan | null;
}

function askedOf(worker: VerdictThread, from: number, to: number, into: ArrayBuffer | null): Asked {
  const asked: Asked = { done: Promise.resolve(), settled: false, span: null };
  asked.done = worker.exportSpan(from, to, into).then(
    (span) => {
      asked.span = span;
      asked.settled = true;
    },
    () => {
      asked.settled = true;
    },
  );
  return asked;
}

/** The connection's data_version: it changes when any other connection (or process) commits. */
function dataVersion(db: Database): number {
  return db.pragma('data_version', { simple: true }) as number;
}
