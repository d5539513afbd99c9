import type { Worker } from 'node:worker_threads';
import type { SecondHalfRequest, WrittenHalf } from './export-halves';
import { startWorker } from './start-worker';

/** What the export's worker is started with (export-half-worker.ts). */
export interface ExportHalfWorkerData {
  dbPath: string;
  /** The page cache of its read-only connection, in MB. */
  readCacheMb: number;
}

/** The worker's messages: its connection open, its half written, or why it could do neither. */
export type ExportHalfReply = { kind: 'ready' } | { kind: 'written'; half: WrittenHalf } | { kind: 'failed'; error: string };

interface Waiting<T> {
  promise: Promise<T>;
  resolve: (value: T) => void;
  reject: (error: Error) => void;
}

/**
 * Promise.withResolvers (not in ES2023's lib), whose failure nobody asked about yet is no unhandled rejection: the
 * caller meets it when it asks.
 */
function waiting<T>(): Waiting<T> {
  let resolve!: (value: T) => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<T>((yes, no) => {
    resolve = yes;
    reject = no;
  });
  promise.catch(() => undefined);
  return { promise, resolve, reject };
}

/**
 * The worker that writes the second half of a large export (export-halves.ts), one export's own. It starts from an
 * entry of its own (export-half-worker.ts) that loads only the export's reading, its CSV and sheet rows' writing and better-sqlite3, not
 * the verdict worker's matching and storage: it is ready sooner and holds less beside the engine's thread, which is
 * what decides how long the engine's thread waits for it and the process's peak. It opens its read-only connection at
 * once, then writes the one half it is asked for.
 * It starts as runs/start-worker.ts starts a worker.
 */
export class ExportHalfThread {
  private readonly opened = waiting<void>();
  private written: Waiting<WrittenHalf> | null = null;
  private failure: Error | null = null;

  private constructor(private readonly worker: Worker) {
    // The thread must not hold a process open when nothing waits on it (the CLI exits once its work is done).
    worker.unref();
    worker.on('message', (reply: ExportHalfReply) => {
      if (reply.kind === 'ready') this.opened.resolve();
      else if (reply.kind === 'written') this.written?.resolve(reply.half);
      else this.fail(new Error(`The export's worker failed: ${reply.error}`));
    });
    worker.on('error', (error) => this.fail(error));
    worker.on('exit', (code) => this.fail(new Error(`The export's worker stopped (exit code ${code}).`)));
  }

  /** Starts the worker on the database at `dbPath`; null where a thread cannot start (the export then goes on one). */
  static start(dbPath: string, readCacheMb: number): ExportHalfThread | null {
    try {
      return new ExportHalfThread(startWorker('export-half-worker', { dbPath, readCacheMb } satisfies ExportHalfWorkerData));
    } catch {
      return null;
    }
  }

  /** False once the worker has failed, stopped or been closed: it would not answer if asked. */
  get alive(): boolean {
    return this.failure === null;
  }

  /** Resolves once the worker's read-only connection is open; rejects when it cannot open it or the worker fails. */
  connection(): Promise<void> {
    return this.opened.promise;
  }

  /**
   * The second half of the export, written by the worker on its connection (export-halves.ts writeSecondHalf): rejects
   * when it cannot read the database, fails, is stopped or closed. One half a worker.
   */
  secondHalf(request: SecondHalfRequest): Promise<WrittenHalf> {
    if (this.written) return Promise.reject(new Error("The export's worker writes one half only."));
    const written = (this.written = waiting<WrittenHalf>());
    if (this.failure) written.reject(this.failure);
    else {
      this.worker.ref();
      this.worker.postMessage(request);
    }
    return written.promise.finally(() => this.worker.unref());
  }

  async close(): Promise<void> {
    this.fail(new Error('The export closed its worker.'));
    await this.worker.terminate();
  }

  private fail(error: Error): void {
    this.failure ??= error;
    this.opened.reject(this.failure);
    this.written?.reject(this.failure);
  }
}
