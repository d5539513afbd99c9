// Starts a worker's entry (verdict-worker.ts, export-half-worker.ts) from the source tree (the CLI, the browser host, the
// tests and the bench run the engine's TypeScript through tsx): the thread registers tsx for itself, then loads the
// entry named in its workerData (runs/start-worker.ts). Built apps start the bundled verdict-worker.js or
// export-half-worker.js directly.
import { register } from 'tsx/esm/api';
import { workerData } from 'node:worker_threads';

register();
await import(workerData.entry);
