import type { Worker } from 'node:worker_threads';
import type { Strategy } from '../../../shared/model';
import type { PagePlanInput, PlannedPage } from './planned-page';
import { receivedAnswers, type LandedReply, type PreparedAnswers, type SentAnswers, type VerdictContext, type VerdictJob, type VerdictValues } from './row-verdict';
import { startWorker } from './start-worker';

/** One page's answers for the worker (verdict-worker.ts), their stored facts read by the engine. */
export interface VerdictRequest {
  id: number;
  kind: 'verdicts';
  context: VerdictContext;
  jobs: VerdictJob[];
}

/** For each job, its rows' values, or null when its stored facts do not read or hold nobody (row-verdict.ts jobVerdicts). */
export type VerdictResults = (VerdictValues[] | null)[];

/** A page's queries for the worker to look up in the cache itself, with the cells of the rows asking each. */
export interface AnswersRequest {
  id: number;
  kind: 'answers';
  context: VerdictContext;
  /** Answers fetched before this (ms) do not count: the cache's time to live. */
  freshAfter: number;
  /** The queries' ids. */
  keys: number[];
  strategies: Strategy[];
  cells: string[][];
}

/**
 * What the cache holds for one key of an AnswersRequest: nothing fresh (null), an answer that found nobody, one with
 * candidates and its rows' values, or one whose stored facts do not read (the engine reads that answer itself).
 */
export type AnswerResult =
  | null
  | { kind: 'nobody'; fetchedAt: number }
  | { kind: 'found'; count: number; fetchedAt: number; values: VerdictValues[]; people: number[] | null }
  | { kind: 'unread' };

export type AnswerResults = AnswerResult[];

/** A find call's reply, with the cells of the rows waiting on each query when it landed. */
export interface ReplyRequest extends LandedReply {
  id: number;
  kind: 'reply';
}

/** A list of rows for the worker to walk on its own connection: a statement giving each row's index, in order (reading-thread.ts ListWalker). */
export interface RowListRequest {
  id: number;
  kind: 'rowList';
  sql: string;
  params: unknown[];
}

/** A statement's rows (as objects), for the worker to read on its own connection: a few rows of figures read from many. */
export interface RowsRequest {
  id: number;
  kind: 'rows';
  sql: string;
  params: unknown[];
}

/** A range of a project's rows for the worker to read on its own connection and work out for a plan (runs/planned-page.ts). */
export interface PlanPageRequest extends PagePlanInput {
  id: number;
  kind: 'planPage';
}

export type WorkerRequest = VerdictRequest | AnswersRequest | ReplyRequest | RowListRequest | RowsRequest | PlanPageRequest;
type WorkerResults = VerdictResults | AnswerResults | SentAnswers | Uint32Array | unknown[] | PlannedPage;

export type VerdictReply = { id: number; results: WorkerResults } | { id: number; error: string };

/** What the worker is started with: where the database is, for the answers it reads itself (null: it reads none). */
export interface VerdictWorkerData {
  dbPath: string | null;
  /** The page cache of the worker's read-only connection, in MB (SQLite's sorts work within it too). */
  readCacheMb: number;
}

/**
 * The runs' worker reads a page's answers, random pages of the cache: a small page cache of its own, the rest from
 * the OS.
 */
const ANSWERS_CACHE_MB = 4;

/**
 * The engine's handle on the verdict worker: a thread of its own that works out rows' verdicts while a run's
 * thread reads the next page and writes the last. In a cached re-run of a million rows that is about a third of
 * the work (parsing the stored facts, assessing each row; docs/performance.md). Given the database's path, the
 * worker can also read a page's answers itself, through a read-only connection of its own, so the run's thread
 * hands it some of the reading too; a plan of more than a page has it work out the next page (runs/planned-page.ts).
 * Started when a run or such a plan first needs it, stopped once none goes (engine.ts letGoAfterWork).
 * It starts as runs/start-worker.ts starts a worker.
 */
export class VerdictThread {
  private nextId = 0;
  private readonly waiting = new Map<number, { resolve: (results: WorkerResults) => void; reject: (error: Error) => void }>();
  /** Set once the thread failed or exited: every request after it is refused at once. */
  private failure: Error | null = null;

  private constructor(
    private readonly worker: Worker,
    /** Whether the worker can read answers from the database itself. */
    readonly readsAnswers: boolean,
  ) {
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

  /**
   * Starts the worker; null where a thread cannot start (then the engine works the verdicts out itself). `dbPath`:
   * the engine's database, which the worker then reads answers from when asked (null: it is only sent facts).
   */
  static start(dbPath: string | null = null, readCacheMb = ANSWERS_CACHE_MB): VerdictThread | null {
    try {
      return new VerdictThread(startWorker('verdict-worker', { dbPath, readCacheMb } satisfies VerdictWorkerData), dbPath !== null);
    } catch {
      return null;
    }
  }

  get usable(): boolean {
    return this.failure === null;
  }

  /** The verdicts of one page's jobs; rejects when the worker fails (the caller then works them out itself). */
  verdicts(jobs: VerdictJob[], context: VerdictContext): Promise<VerdictResults> {
    return this.ask({ id: this.nextId++, kind: 'verdicts', context, jobs }) as Promise<VerdictResults>;
  }

  /**
   * The cache's answers to a page's queries, read by the worker, with the verdicts of the rows asking each (one
   * result a key, in order); rejects when the worker fails or cannot read answers (the caller reads them itself).
   */
  answers(request: Omit<AnswersRequest, 'id' | 'kind'>): Promise<AnswerResults> {
    if (!this.readsAnswers) return Promise.reject(new Error('This verdict worker was started without the database.'));
    return this.ask({ ...request, id: this.nextId++, kind: 'answers' }) as Promise<AnswerResults>;
  }

  /**
   * A find call's reply read and made ready to store (row-verdict.ts preparedReply: the answers, their facts and JSON),
   * with the verdicts of the rows waiting on them. Rejects when the worker fails, or when the reply does not read: the
   * caller then does it all itself, and meets the reply's own fault if it has one.
   */
  reply(request: LandedReply): Promise<PreparedAnswers> {
    return (this.ask({ ...request, id: this.nextId++, kind: 'reply' }) as Promise<SentAnswers>).then(receivedAnswers);
  }

  /**
   * The row indexes `sql` gives (its one column, in its order), walked by the worker on its read-only connection from
   * the data as last committed: a list the review keeps (reading-thread.ts ListWalker). Rejects when it cannot read the
   * database.
   */
  rowList(sql: string, params: unknown[]): Promise<Uint32Array> {
    if (!this.readsAnswers) return Promise.reject(new Error('This verdict worker was started without the database.'));
    return this.ask({ id: this.nextId++, kind: 'rowList', sql, params }) as Promise<Uint32Array>;
  }

  /**
   * The rows `sql` gives, read by the worker on its read-only connection from the data as last committed: figures a
   * statement works out over many rows (the run's preview, the cache's figures). Rejects when it cannot read the
   * database.
   */
  rows(sql: string, params: unknown[]): Promise<unknown[]> {
    if (!this.readsAnswers) return Promise.reject(new Error('This verdict worker was started without the database.'));
    return this.ask({ id: this.nextId++, kind: 'rows', sql, params }) as Promise<unknown[]>;
  }

  /**
   * A page of a plan worked out by the worker from the rows as last committed (runs/plan-queries.ts): rejects when it
   * cannot read the database or fails (the caller then works the page out itself).
   */
  plannedPage(input: PagePlanInput): Promise<PlannedPage> {
    if (!this.readsAnswers) return Promise.reject(new Error('This verdict worker was started without the database.'));
    return this.ask({ ...input, id: this.nextId++, kind: 'planPage' }) as Promise<PlannedPage>;
  }

  async close(): Promise<void> {
    this.fail(new Error('The engine closed.'));
    await this.worker.terminate();
  }

  private ask(request: WorkerRequest): Promise<WorkerResults> {
    if (this.failure) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => {
      this.waiting.set(request.id, { resolve, reject });
      this.worker.ref();
      this.worker.postMessage(request);
    });
  }

  private fail(error: Error): void {
    this.failure ??= error;
    for (const { reject } of this.waiting.values()) reject(this.failure);
    this.waiting.clear();
  }
}
