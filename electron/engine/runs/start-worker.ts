import { Worker } from 'node:worker_threads';

/** The engine's worker threads, each started from an entry of its own beside this module. */
export type WorkerEntry = 'verdict-worker' | 'export-half-worker';

/**
 * A worker's young generation, in MB: the engine's hosts cap theirs with --max-semi-space-size=8 (three 8 MB
 * semi-spaces' worth), which a worker does not inherit. Without a cap it grows to V8's default for every page's
 * garbage (parsed facts, row inputs), and the process's resident memory with it.
 */
const YOUNG_GENERATION_MB = 24;

/**
 * Starts the worker of `entry` with `data` as its workerData; throws where a thread cannot start. From the source tree
 * (tsx: the CLI, the browser host, the tests, the bench) the thread starts through worker-entry.dev.mjs, which
 * registers tsx in it first and is told the entry's path as `data.entry`; a built app starts the bundled entry
 * (`verdict-worker.js`, `export-half-worker.js`) beside the main bundle (electron.vite.config.ts).
 */
export function startWorker(entry: WorkerEntry, data: object): Worker {
  const resourceLimits = { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB };
  return import.meta.url.endsWith('.ts')
    ? new Worker(new URL('./worker-entry.dev.mjs', import.meta.url), { workerData: { ...data, entry: SOURCES[entry]().href }, resourceLimits })
    : new Worker(BUILT[entry](), { workerData: data, resourceLimits });
}

// Each entry's path written out whole, as a bundler and test/engine/core/verdict-worker-built.test.ts look for them.
const SOURCES: Record<WorkerEntry, () => URL> = {
  'verdict-worker': () => new URL('./verdict-worker.ts', import.meta.url),
  'export-half-worker': () => new URL('./export-half-worker.ts', import.meta.url),
};
const BUILT: Record<WorkerEntry, () => URL> = {
  'verdict-worker': () => new URL('./verdict-worker.js', import.meta.url),
  'export-half-worker': () => new URL('./export-half-worker.js', import.meta.url),
};
