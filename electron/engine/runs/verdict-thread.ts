import { Worker } from 'node:worker_threads';
import type { VerdictContext, VerdictJob, VerdictValues } from './row-verdict';

/** One page's answers for the worker (verdict-worker.ts). */
export interface VerdictRequest {
  id: number;
  context: VerdictContext;
  jobs: VerdictJob[];
}

/** For each job, its rows' values, or null when its stored facts do not read or hold nobody (row-verdict.ts jobVerdicts). */
export type VerdictResults = (VerdictValues[] | null)[];

export type VerdictReply = { id: number; results: VerdictResults } | { id: number; error: string };

/**
 * The worker's young generation, in MB: the engine's hosts cap theirs with --max-semi-space-size=8 (three 8 MB
 * semi-spaces' worth), which a worker does not inherit. Without a cap it grows to V8's default for every page's
 * garbage (parsed facts, row inputs), and the process's resident memory with it.
 */
const YOUNG_GENERATION_MB = 24;

/**
 * The engine's handle on the verdict worker: a thread of its own that works out rows' verdicts while a run's
 * thread reads the next page and writes the last. In a cached re-run of a million rows that is about a third of
 * the work (parsing the stored facts, assessing each row; docs/performance.md). Started on the first page a run
 * settles from the cache, kept while the engine is open.
 *
 * From the source tree (tsx: the CLI, the browser host, the tests, the bench) the thread starts through
 * verdict-worker.dev.mjs, which registers tsx in it first; a built app starts the bundled verdict-worker.js beside
 * the main bundle (electron.vite.config.ts).
 */
export class VerdictThread {
  private nextId = 0;
  private readonly waiting = new Map<number, { resolve: (results: VerdictResults) => void; reject: (error: Error) => void }>();
  /** Set once the thread failed or exited: every request after it is refused at once. */
  private failure: Error | null = null;

  private constructor(private readonly worker: Worker) {
    // The thread must not hold a process open when nothing waits on it (the CLI exits once its work is done).
    worker.unref();
    worker.on('message', (reply: VerdictReply) => {
      const waiting = this.waiting.get(reply.id);
      if (!waiting) return;
      this.waiting.delete(reply.id);
      if (this.waiting.size === 0) worker.unref();
      if ('error' in reply) waiting.reject(new Error(`The verdict worker failed: ${reply.error}`));
      else waiting.resolve(reply.results);
    });
    worker.on('error', (error) => this.fail(error));
    worker.on('exit', (code) => this.fail(new Error(`The verdict worker stopped (exit code ${code}).`)));
  }

  /** Starts the worker; null where a thread cannot start (then the engine works the verdicts out itself). */
  static start(): VerdictThread | null {
    const here = import.meta.url;
    try {
      const resourceLimits = { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB };
      const worker = here.endsWith('.ts')
        ? new Worker(new URL('./verdict-worker.dev.mjs', here), { workerData: { entry: new URL('./verdict-worker.ts', here).href }, resourceLimits })
        : new Worker(new URL('./verdict-worker.js', here), { resourceLimits });
      return new VerdictThread(worker);
    } catch {
      return null;
    }
  }

  get usable(): boolean {
    return this.failure === null;
  }

  /** The verdicts of one page's jobs; rejects when the worker fails (the caller then works them out itself). */
  verdicts(jobs: VerdictJob[], context: VerdictContext): Promise<VerdictResults> {
    if (this.failure) return Promise.reject(this.failure);
    const id = this.nextId++;
    return new Promise<VerdictResults>((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.worker.ref();
      this.worker.postMessage({ id, context, jobs } satisfies VerdictRequest);
    });
  }

  async close(): Promise<void> {
    this.fail(new Error('The engine closed.'));
    await this.worker.terminate();
  }

  private fail(error: Error): void {
    this.failure ??= error;
    for (const { reject } of this.waiting.values()) reject(this.failure);
    this.waiting.clear();
  }
}
