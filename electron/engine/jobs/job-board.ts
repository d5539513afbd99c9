// Every long piece of work as a job of one shape: one lifecycle, one progress event (job.progress), one cancel.
import type { Database } from 'better-sqlite3';
import type { JobDetails, JobKind, JobProgress, JobState } from '../../../shared/contract';
import type { Clock } from '../clock';
import { EngineError } from '../engine-errors';
import { progressPace } from '../progress-pace';

/** States a job has ended in: it leaves the board. */
const ENDED: ReadonlySet<JobState> = new Set(['done', 'failed', 'cancelled']);
/**
 * Kinds stored in `jobs`: the ones a resume goes on with, under the options they started with. The others are kept in
 * memory only: a write for each would move the data stamp (store/data-stamp.ts) and drop the review's kept figures
 * and lists at every accept, undo or export, and none of them resumes.
 */
const STORED: ReadonlySet<JobKind> = new Set(['run', 'refresh']);

/** What a job tells the board as it goes; `detail`: what its kind says beside (job.progress's `detail`). */
export interface JobHandle<K extends JobKind = JobKind> {
  readonly id: number;
  /** Aborted when the job is cancelled (job.cancel) or the engine closes. */
  readonly signal: AbortSignal;
  /** How far it is: at most a few events a second, each new phase or state at once. */
  progress(done: number, total: number, phase?: string, detail?: JobDetails[K]): void;
  /** A job whose lifecycle another control keeps (a run, a refresh): its state as that control says it. */
  state(state: JobState, message?: string | null): void;
}

interface LiveJob {
  progress: JobProgress;
  /** Its row in `jobs`; null for a kind kept in memory only. */
  rowId: number | null;
  controller: AbortController;
  /** How a cancel stops it, beside aborting its signal (a run's or a refresh's own cancel). */
  stop?: () => unknown;
  cancellable: boolean;
  settled: Promise<void>;
  ended: () => void;
  pace: () => boolean;
  /** Not told yet (announce): a queued job's state may change before its first word. */
  quiet: boolean;
}

export interface JobStart<K extends JobKind = JobKind> {
  kind: K;
  projectId: number | null;
  /** What the job started with: stored, and what a resume goes on under. */
  options?: object;
  /** A cancel of a job that stops its own way (a run, a refresh), beside its signal. */
  stop?: () => unknown;
  /** False for work that cannot stop part-way (clearing the cache, the move of older answers): job.cancel leaves it be. */
  cancellable?: boolean;
  phase?: string;
  /** What the job says of itself from its start, when it knows (an import's file). */
  detail?: JobDetails[K];
  /** False for a job whose every word is an event: each is rare and worth showing (a search's page, landed). */
  paced?: boolean;
  /**
   * For work that may have to wait its turn (jobs/concurrency.ts, 'wait'): the job opens `queued` and this resolves
   * once the work may go, calling `admitted` in that same turn, at which the job turns `running`. A cancel meanwhile
   * aborts `signal` and the work never starts.
   */
  queue?: (signal: AbortSignal, admitted: () => void) => Promise<void>;
}

export class JobBoard {
  private readonly live = new Map<number, LiveJob>();
  /** Job ids, this engine's: a screen follows a job by it while it goes. */
  private nextId = 1;

  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly emit: (progress: JobProgress) => void,
  ) {}

  /**
   * Runs `work` as a job: running at once (or queued until `start.queue` lets it go), then done, failed or cancelled
   * as it ends (a cancel's or a failure's words kept).
   */
  async run<K extends JobKind, T>(start: JobStart<K>, work: (job: JobHandle<K>) => Promise<T>): Promise<T> {
    const job = this.open(start, start.queue !== undefined);
    try {
      if (start.queue) {
        const admitted = start.queue(job.signal, () => this.tell(job.id, { state: 'running' }));
        // Its first word: running when nothing held it, else queued.
        this.announce(job.id);
        await admitted;
        if (job.signal.aborted) throw new EngineError('cancelled', 'Cancelled before it started: nothing was changed.');
      }
      const result = await work(job);
      this.close(job.id, 'done', null);
      return result;
    } catch (error) {
      const cancelled = job.signal.aborted || (error as { kind?: string } | null)?.kind === 'cancelled';
      this.close(job.id, cancelled ? 'cancelled' : 'failed', error instanceof Error ? error.message : String(error));
      throw error;
    }
  }

  /**
   * Opens a job whose lifecycle another control keeps (a run, a refresh): it tells the board with `state`. `quiet`: its
   * first word waits for `announce` (a queued job's, which may be let go in the same turn).
   */
  open<K extends JobKind>(start: JobStart<K>, quiet = false): JobHandle<K> {
    const at = this.now();
    const id = this.nextId++;
    const state: JobState = start.queue ? 'queued' : 'running';
    const rowId = STORED.has(start.kind)
      ? Number(
          this.db
            .prepare('INSERT INTO jobs (kind, project_id, options, state, phase, started_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)')
            .run(start.kind, start.projectId, JSON.stringify(start.options ?? {}), state, start.phase ?? '', at, at).lastInsertRowid,
        )
      : null;
    const controller = new AbortController();
    let ended = () => undefined as void;
    const settled = new Promise<void>((resolve) => (ended = resolve));
    const progress = { jobId: id, kind: start.kind, projectId: start.projectId, state, done: 0, total: 0, phase: start.phase ?? '', startedAt: at, updatedAt: at, message: null, detail: start.detail ?? null } as JobProgress;
    const pace = start.paced === false ? () => true : progressPace();
    this.live.set(id, { progress, rowId, controller, stop: start.stop, cancellable: start.cancellable !== false, settled, ended, pace, quiet });
    if (!quiet) this.emit({ ...progress });
    return {
      id,
      signal: controller.signal,
      progress: (done, total, phase, detail) => this.tell(id, { done, total, ...(phase !== undefined ? { phase } : {}), ...(detail !== undefined ? { detail } : {}) }),
      state: (state, message = null) => (ENDED.has(state) ? this.close(id, state, message) : this.tell(id, { state, message })),
    };
  }

  /** The jobs under way on the project, oldest first. */
  list(projectId: number): JobProgress[] {
    return [...this.live.values()].filter((job) => job.progress.projectId === projectId).map((job) => ({ ...job.progress }));
  }

  /** The jobs of the kind under way on no project (the imports, the searches), oldest first. */
  listOnNoProject(kind: JobKind): JobProgress[] {
    return [...this.live.values()].filter((job) => job.progress.projectId === null && job.progress.kind === kind).map((job) => ({ ...job.progress }));
  }

  /** The kinds running on the project (null: on no project): a job queued or paused holds nothing up. */
  kinds(projectId: number | null): JobKind[] {
    return [...this.live.values()].filter((job) => job.progress.projectId === projectId && job.progress.state === 'running').map((job) => job.progress.kind);
  }

  /** Resolves once the project's jobs of that kind under way have ended (not those queued: one may be the asker). */
  async settled(projectId: number | null, kind: JobKind): Promise<void> {
    const of = [...this.live.values()].filter((job) => job.progress.projectId === projectId && job.progress.kind === kind && job.progress.state !== 'queued');
    await Promise.all(of.map((job) => job.settled));
  }

  /**
   * Cancels the job: its signal aborts and, once it has started, its own stop runs (a queued one's stop would reach
   * the job of its kind it waits for); false when no such job is under way or it cannot stop.
   */
  cancel(jobId: number, reason?: unknown): boolean {
    const job = this.live.get(jobId);
    if (!job?.cancellable) return false;
    const queued = job.progress.state === 'queued';
    job.controller.abort(reason);
    if (queued) return true;
    void Promise.resolve()
      .then(() => job.stop?.())
      .catch(() => undefined);
    return true;
  }

  /** Cancels the project's jobs of that kind; false when none was under way. */
  cancelKind(projectId: number | null, kind: JobKind, reason?: unknown): boolean {
    let any = false;
    for (const [id, job] of this.live) if (job.progress.projectId === projectId && job.progress.kind === kind) any = this.cancel(id, reason) || any;
    return any;
  }

  /** The options the project's last job of that kind was stored with, or null (none, or kept in memory only). */
  lastOptions(projectId: number, kind: JobKind): unknown {
    const text = this.db.prepare('SELECT options FROM jobs WHERE project_id = ? AND kind = ? ORDER BY id DESC LIMIT 1').pluck().get(projectId, kind) as string | undefined;
    return text === undefined ? null : JSON.parse(text);
  }

  /**
   * Ends the project's stored jobs of the kind left paused by an earlier session (they have no job on this board), as
   * its control ended the work they held (a cancel of a run paused before a restart).
   */
  endEarlier(projectId: number, kind: JobKind, state: JobState, message: string | null): void {
    const here = [...this.live.values()].map((job) => job.rowId).filter((rowId) => rowId !== null);
    this.db
      .prepare(`UPDATE jobs SET state = ?, message = ?, updated_at = ? WHERE project_id = ? AND kind = ? AND state = 'paused' AND id NOT IN (SELECT value FROM json_each(?))`)
      .run(state, message, this.now(), projectId, kind, JSON.stringify(here));
  }

  /** Jobs a crash or a kill cut off, as the next start finds them: what can be resumed is paused, the rest failed. */
  static markInterrupted(db: Database, at: string, resumable: JobKind[]): void {
    const kinds = JSON.stringify(resumable);
    db.prepare(
      `UPDATE jobs SET state = CASE WHEN kind IN (SELECT value FROM json_each(?)) THEN 'paused' ELSE 'failed' END,
         message = coalesce(message, 'Matchdesk stopped while this went on.'), updated_at = ? WHERE state IN ('queued', 'running')`,
    ).run(kinds, at);
  }

  private tell(id: number, change: Partial<JobProgress>): void {
    const job = this.live.get(id);
    if (!job) return;
    const before = job.progress;
    const next = { ...before, ...change, updatedAt: this.now() } as JobProgress;
    job.progress = next;
    const turned = next.state !== before.state || next.phase !== before.phase;
    if (next.state !== before.state) this.save(job.rowId, next);
    if (!job.quiet && (turned || next.done === 0 || next.done >= next.total || job.pace())) this.emit({ ...next });
  }

  private announce(id: number): void {
    const job = this.live.get(id);
    if (!job?.quiet) return;
    job.quiet = false;
    this.emit({ ...job.progress });
  }

  private close(id: number, state: JobState, message: string | null): void {
    const job = this.live.get(id);
    if (!job) return;
    this.live.delete(id);
    const last = { ...job.progress, state, message, updatedAt: this.now() } as JobProgress;
    this.save(job.rowId, last);
    job.ended();
    this.emit(last);
  }

  private save(rowId: number | null, progress: JobProgress): void {
    // A job ending after the database closed (the engine closing cut it off) is found interrupted at the next start.
    if (rowId === null || !this.db.open) return;
    try {
      this.db
        .prepare('UPDATE jobs SET state = ?, done = ?, total = ?, phase = ?, message = ?, updated_at = ? WHERE id = ?')
        .run(progress.state, progress.done, progress.total, progress.phase, progress.message, progress.updatedAt, rowId);
    } catch {
      // A full disk, or another process holding the write lock: the job is still told and ends here; its stored row,
      // left as it was, is found cut off at the next start (what may be resumed, paused). The work's own records say
      // how it ended.
    }
  }

  private now(): string {
    return new Date(this.clock.now()).toISOString();
  }
}
