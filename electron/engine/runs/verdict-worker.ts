// The verdict worker's thread: works out rows' verdicts (row-verdict.ts) beside the engine's thread, which keeps to
// the database meanwhile. Started by verdict-thread.ts; pure, so it needs nothing but the messages it is sent.
import { parentPort } from 'node:worker_threads';
import { jobVerdicts } from './row-verdict';
import type { VerdictReply, VerdictRequest } from './verdict-thread';

const port = parentPort;
if (!port) throw new Error('verdict-worker.ts runs as a worker thread (verdict-thread.ts starts it)');
port.on('message', ({ id, context, jobs }: VerdictRequest) => {
  let reply: VerdictReply;
  try {
    reply = { id, results: jobs.map((job) => jobVerdicts(job, context)) };
  } catch (error) {
    reply = { id, error: error instanceof Error ? (error.stack ?? error.message) : String(error) };
  }
  port.postMessage(reply);
});
