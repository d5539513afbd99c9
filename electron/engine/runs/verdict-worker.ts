// The verdict worker's thread: works out rows' verdicts (row-verdict.ts) beside the engine's thread, which keeps to
// the database meanwhile. Started by verdict-thread.ts. Sent stored facts, or a find call's reply (which it reads,
// and whose answers' facts and JSON it makes for the engine to store), it needs nothing but the message. Asked for a
// page's answers, a plan's next page of rows (runs/planned-page.ts), or for a list of rows the review keeps or the
// cache's figures (runs/reading-thread.ts starts one for such long reads alone), it reads them through a read-only
// connection of its own: WAL lets it read beside the engine's writes, and it sees only what the engine committed.
import type { Database } from 'better-sqlite3';
import { setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { getAnswerFacts } from '../store/lookups';
import { pageRows, plannedPage, plannedPageBuffers, type PlannedPage } from './planned-page';
import { jobVerdicts, preparedReply, sentAnswers, type SentAnswers } from './row-verdict';
import type { AnswerResult, AnswersRequest, VerdictReply, VerdictResults, VerdictWorkerData, WorkerRequest } from './verdict-thread';

const port = parentPort;
if (!port) throw new Error('verdict-worker.ts runs as a worker thread (verdict-thread.ts starts it)');

/**
 * This thread's nice value on Linux, where each thread has its own: when it and the engine's thread both wait for a
 * core, the engine's thread goes first. That thread hands a reply to this one and sends the run's next call as the
 * reply lands, and answers the window; held up behind the verdicts, every call spent longer on the wire. Elsewhere
 * the call would lower the whole process, so it is not made.
 */
const WORKER_NICE = 10;
if (process.platform === 'linux') {
  try {
    setPriority(0, WORKER_NICE);
  } catch {
    // Refused (a sandbox's policy): the thread runs at the engine's priority, as it does elsewhere.
  }
}
const { dbPath, readCacheMb } = (workerData ?? { dbPath: null, readCacheMb: 4 }) as VerdictWorkerData;
let db: Promise<Database> | null = null;

/**
 * The worker's own connection, opened on the first page it reads. SQLite's native module is loaded only then: where
 * it cannot load in a thread, only these reads fail (the engine reads those pages itself), not the verdicts.
 */
function database(): Promise<Database> {
  if (!dbPath) return Promise.reject(new Error('the worker was started without the database'));
  db ??= import('better-sqlite3').then(({ default: Sqlite }) => {
    const connection = new Sqlite(dbPath, { readonly: true, fileMustExist: true });
    connection.pragma(`cache_size = -${readCacheMb * 1024}`);
    return connection;
  });
  return db;
}

async function answers({ context, freshAfter, keys, strategies, cells }: AnswersRequest): Promise<AnswerResult[]> {
  const stored = getAnswerFacts(await database(), keys, freshAfter);
  return keys.map((key, i): AnswerResult => {
    const answer = stored.get(key);
    if (answer === undefined) return null;
    if (answer === null) return { kind: 'unread' };
    if (answer.count === 0) return { kind: 'nobody', fetchedAt: answer.fetchedAt };
    const values = answer.facts === null ? null : jobVerdicts({ strategy: strategies[i]!, facts: answer.facts, cells: cells[i]! }, context);
    return values ? { kind: 'found', count: answer.count, fetchedAt: answer.fetchedAt, values, people: answer.people } : { kind: 'unread' };
  });
}

function results(request: WorkerRequest): VerdictResults | Promise<AnswerResult[] | Uint32Array | unknown[] | PlannedPage> | SentAnswers {
  if (request.kind === 'planPage') return database().then((connection) => plannedPage(pageRows(connection, request.projectId, request.from, request.to), request));
  if (request.kind === 'answers') return answers(request);
  if (request.kind === 'rows') return database().then((connection) => connection.prepare(request.sql).all(...request.params));
  if (request.kind === 'rowList') return database().then((connection) => Uint32Array.from(connection.prepare(request.sql).pluck().all(...request.params) as number[]));
  if (request.kind === 'reply') return sentAnswers(preparedReply(request));
  return request.jobs.map((job) => jobVerdicts(job, request.context));
}

port.on('message', (request: WorkerRequest) => {
  const failed = (error: unknown): VerdictReply => ({ id: request.id, error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
  let reply: VerdictReply | Promise<VerdictReply>;
  try {
    const made = results(request);
    reply = made instanceof Promise ? made.then((answered) => ({ id: request.id, results: answered }), failed) : { id: request.id, results: made };
  } catch (error) {
    reply = failed(error);
  }
  // A list of rows, or a planned page's arrays, is handed over, not copied.
  void Promise.resolve(reply).then((message) => port.postMessage(message, 'results' in message ? handedOver(request, message.results) : []));
});

function handedOver(request: WorkerRequest, results: unknown): ArrayBuffer[] {
  if (results instanceof Uint32Array) return [results.buffer as ArrayBuffer];
  return request.kind === 'planPage' ? plannedPageBuffers(results as PlannedPage) : [];
}
