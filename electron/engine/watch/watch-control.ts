import type { Database } from 'better-sqlite3';
import type { ChangesInbox, ChangeKind, ImportantChangesFound, InboxCount, PersonChange, RefreshProgress, WatchRun, WatchSummary } from '../../../shared/contract';
import { ServiceError } from '../api';
import type { Clock } from '../clock';
import { EngineError } from '../engine-errors';
import { requireProject } from '../rows/project-record';
import { latestRefresh, type RefreshConnection, type RefreshControl } from '../refresh';
import { scopeId } from '../rows/service-scope';
import { ANSWERED } from '../store/refresh-tables';
import { personMoves, projectChanges } from './changes';
import { deleteWatch, listWatches, putWatch, watchHeldBack, watchOf, watchRefreshEnded, watchStarted, watchSummary, type WatchRecord } from './watches';

export interface WatchControlDeps {
  db: Database;
  clock: Clock;
  refreshes: RefreshControl;
  /** The profile's connection, with its secret at hand; throws an EngineError the user can act on when there is none. */
  connection(profileId: string): Promise<RefreshConnection>;
  /** The profile refreshes use when a watch names none: the selected one. */
  selectedProfileId(): string | null;
  onImportant(found: ImportantChangesFound): void;
  /** Readies the project as a refresh started by hand is (its plan up to date) before a background run. */
  ready(projectId: number): Promise<void>;
}

const RESUMABLE = new Set(['paused', 'failed', 'out_of_credits']);
const FINAL = new Set(['done', 'cancelled', 'failed', 'out_of_credits', 'paused']);
/** Errors of a profile that no retry mends by itself: the watch is blocked until the user acts. */
const BLOCKING_CODES = new Set(['no_secret', 'no_profile']);

/** A due watch tried a moment ago (blocked, or its refresh stopped: the network gone) waits this long for its next try in the background. */
const RETRY_MS = 30 * 60_000;
/** Service errors that say the service cannot be reached or is down for now: a due run waits for them to pass. */
const OUT_OF_REACH = new Set(['network_error', 'server_error']);

/** Watches: set, cleared, listed, run when due, and what their refreshes found. */
export class WatchControl {
  private timer: NodeJS.Timeout | null = null;
  private sweeping: Promise<void> | null = null;
  private stopped = false;

  constructor(private readonly deps: WatchControlDeps) {}

  /** While the app runs: every `everyMs` the due watches are run one after another, as `matchdesk refresh --due` does. */
  startBackground(everyMs: number): void {
    this.timer = setInterval(() => void this.sweep(), everyMs);
    this.timer.unref();
  }

  /** Stops the background runs; a refresh going on is paused with the others when the engine closes. */
  async stopBackground(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    await this.sweeping;
  }

  /**
   * One pass over the due watches. Never loud: a watch that cannot run, or whose refresh stops (offline), says why on
   * the watch, and is tried again after RETRY_MS; the app's refresh progress shows the one going on.
   */
  sweep(): Promise<void> {
    this.sweeping ??= this.sweepOnce().finally(() => (this.sweeping = null));
    return this.sweeping;
  }

  private async sweepOnce(): Promise<void> {
    for (const watch of listWatches(this.deps.db, this.deps.clock.now())) {
      if (this.stopped) return;
      const now = this.deps.clock.now();
      if (!watch.due || this.deps.refreshes.isBusy(watch.projectId)) continue;
      if (watch.lastRunAt !== null && now - Date.parse(watch.lastRunAt) < RETRY_MS) continue;
      try {
        await this.deps.ready(watch.projectId);
        const run = await this.runDue(watch.projectId);
        if (run.outcome === 'started') await this.deps.refreshes.settled(watch.projectId);
      } catch (error) {
        watchHeldBack(this.deps.db, watch.projectId, `Not run: ${error instanceof Error ? error.message : String(error)} The next due run tries again.`, false, now);
      }
    }
  }

  set(input: { projectId: number; everyDays?: number; weekday?: number; creditCeiling: number | null; profileId?: string }): WatchSummary {
    const { db, clock } = this.deps;
    const project = requireProject(db, input.projectId);
    if (project.kind !== 'match') throw new EngineError('invalid_input', `"${project.name}" is a search's results: only a matched sheet can be watched.`);
    const profileId = input.profileId ?? this.deps.selectedProfileId();
    if (!profileId) throw new EngineError('invalid_input', 'No connection is selected: choose the connection profile the watch refreshes with.', 'no_profile');
    if (!db.prepare('SELECT 1 FROM profiles WHERE id = ?').get(profileId)) throw new EngineError('not_found', `There is no connection profile "${profileId}": choose one of the saved profiles.`);
    putWatch(db, project.id, { everyDays: input.everyDays ?? null, weekday: input.weekday ?? null }, input.creditCeiling, profileId, clock.now());
    return this.summary(project.id)!;
  }

  clear(projectId: number): void {
    requireProject(this.deps.db, projectId);
    deleteWatch(this.deps.db, projectId);
  }

  list(): WatchSummary[] {
    return listWatches(this.deps.db, this.deps.clock.now()).map(({ refreshId: _refreshId, ...summary }) => summary);
  }

  summary(projectId: number): WatchSummary | null {
    return watchSummary(this.deps.db, projectId, this.deps.clock.now());
  }

  /**
   * Runs the project's watch if due: goes on with its stopped refresh, else previews a new one and starts it when
   * it keeps within the ceiling. A watch whose profile has no secret, or over its ceiling, is blocked and stays due:
   * the next due run tries again.
   */
  async runDue(projectId: number): Promise<WatchRun> {
    const { db, clock, refreshes } = this.deps;
    requireProject(db, projectId);
    const watch = watchOf(db, projectId, clock.now());
    if (!watch) throw new EngineError('not_found', 'This project is not watched: set a watch on it first.');
    if (!watch.due) return { outcome: 'not_due', nextRefreshAt: watch.nextRefreshAt };
    if (refreshes.isBusy(projectId)) return this.started(watch, refreshes.status(projectId)!);
    let via: RefreshConnection;
    try {
      via = await this.deps.connection(watch.profileId);
    } catch (error) {
      if (error instanceof EngineError && error.code !== undefined && BLOCKING_CODES.has(error.code)) return this.blocked(watch, error.message);
      throw error;
    }
    const outOfReach = await this.outOfReach(via);
    if (outOfReach !== null) return this.waiting(watch, outOfReach);
    const last = latestRefresh(db, projectId);
    if (last && RESUMABLE.has(last.status) && last.scope === scopeId(via.scope)) {
      const progress = await refreshes.resume(projectId, via);
      if (progress) return this.started(watch, progress);
    }
    const preview = await refreshes.preview(projectId, null, undefined, via);
    if (watch.creditCeiling !== null && preview.people > watch.creditCeiling) {
      return this.blocked(
        watch,
        `This refresh would ask ${preview.people} people (up to ${preview.people} credits), over the watch's ceiling of ${watch.creditCeiling}. Raise the ceiling to refresh them.`,
      );
    }
    if (preview.people === 0) {
      watchRefreshEnded(db, watch, true, preview.matchedRows === 0 ? 'No matched rows: nobody to refresh.' : 'Nobody to ask.', null, clock.now());
      return { outcome: 'not_due', nextRefreshAt: watchOf(db, projectId, clock.now())!.nextRefreshAt };
    }
    return this.started(watch, await refreshes.start(projectId, null, via));
  }

  /**
   * Every refresh's progress: a watch's refresh that ended says so on the watch; any refresh done may find important
   * people moved. A refresh of a watched project started by hand that is done counts as the watch's: its people were
   * just asked, so the next is due a period later, and its result is the watch's last.
   */
  refreshProgress(progress: RefreshProgress): void {
    if (!FINAL.has(progress.status)) return;
    const { db, clock } = this.deps;
    const now = clock.now();
    const watch = watchOf(db, progress.projectId, now);
    if (watch && (watch.refreshId === progress.refreshId || progress.status === 'done')) {
      const { result, blocked } = this.outcome(progress);
      watchRefreshEnded(db, watch, progress.status === 'done', result, blocked, now);
    }
    if (progress.status === 'done') this.announceImportant(progress);
  }

  changes(projectId: number, since: string) {
    requireProject(this.deps.db, projectId);
    return projectChanges(this.deps.db, projectId, { beforeDate: since });
  }

  inbox(projectId: number): ChangesInbox {
    const changes = this.unseen(projectId);
    const counts: Record<ChangeKind, number> = { moved: 0, left: 0, title: 0 };
    for (const c of changes) counts[c.kind]++;
    return { projectId, unseen: changes.length, counts, important: changes.filter((c) => c.important).length, changes };
  }

  /** The inbox's counts without its changes, whose cells a count has no use for. */
  inboxCount(projectId: number): InboxCount {
    const changes = this.unseen(projectId);
    return { projectId, unseen: changes.length, important: changes.filter((c) => c.important).length };
  }

  private unseen(projectId: number): PersonChange[] {
    const { db } = this.deps;
    requireProject(db, projectId);
    const through = (db.prepare('SELECT through_refresh_id FROM inbox_seen WHERE project_id = ?').pluck().get(projectId) as number | undefined) ?? 0;
    return projectChanges(db, projectId, { throughRefresh: through });
  }

  /**
   * Every change found by the project's refreshes so far is seen (one still going counts when it ends; one that got
   * no answer yet, when it does).
   */
  markSeen(projectId: number): ChangesInbox {
    const { db } = this.deps;
    requireProject(db, projectId);
    const last = db.prepare(`SELECT max(id) FROM refreshes WHERE project_id = ? AND status <> 'running' AND ${ANSWERED}`).pluck().get(projectId) as number | null;
    if (last !== null) db.prepare('INSERT INTO inbox_seen (project_id, through_refresh_id) VALUES (?, ?) ON CONFLICT (project_id) DO UPDATE SET through_refresh_id = excluded.through_refresh_id').run(projectId, last);
    return this.inbox(projectId);
  }

  private started(watch: WatchRecord, progress: RefreshProgress): WatchRun {
    watchStarted(this.deps.db, watch.projectId, progress.refreshId, this.deps.clock.now());
    return { outcome: 'started', progress };
  }

  /**
   * Why the service cannot be reached now, or null when it answers (a login, or for an API key a find of nobody; no
   * credit spent). Checked before a due run starts a refresh, so one at 3 am with the network gone waits for the
   * next try instead of asking nobody and counting as the period's refresh.
   */
  private async outOfReach(via: RefreshConnection): Promise<string | null> {
    try {
      await (await via.client(1)).testConnection();
      return null;
    } catch (error) {
      if (error instanceof ServiceError && OUT_OF_REACH.has(error.kind)) return error.message;
      throw error;
    }
  }

  private waiting(watch: WatchRecord, reason: string): WatchRun {
    const text = `Waiting for the service: ${reason} The next due run tries again.`;
    watchHeldBack(this.deps.db, watch.projectId, text, false, this.deps.clock.now());
    return { outcome: 'waiting', reason: text };
  }

  private blocked(watch: WatchRecord, reason: string): WatchRun {
    watchHeldBack(this.deps.db, watch.projectId, reason, true, this.deps.clock.now());
    return { outcome: 'blocked', reason };
  }

  /** What the watch says of its refresh that ended. */
  private outcome(progress: RefreshProgress): { result: string; blocked: string | null } {
    const message = progress.message ?? 'the service did not say why';
    switch (progress.status) {
      case 'done': {
        const moves = personMoves(this.deps.db, progress.projectId, { throughRefresh: progress.refreshId - 1 });
        const count = (kind: ChangeKind) => moves.filter((m) => m.kind === kind).length;
        return { result: `${progress.found} people asked: ${count('moved')} moved, ${count('left')} left, ${count('title')} changed title.`, blocked: null };
      }
      case 'out_of_credits':
        return { result: `Out of credits: ${message}`, blocked: `Out of credits: ${message} The next due run goes on with it.` };
      case 'failed':
        return { result: `Stopped: ${message} The next due run goes on with it.`, blocked: null };
      case 'paused':
        return { result: 'Paused; the next due run goes on with it.', blocked: null };
      default:
        return { result: 'Cancelled; the next due run starts anew.', blocked: null };
    }
  }

  private announceImportant(progress: RefreshProgress): void {
    const { db } = this.deps;
    const marked = db.prepare('SELECT EXISTS (SELECT 1 FROM important_rows WHERE project_id = ?) OR EXISTS (SELECT 1 FROM important_values WHERE project_id = ?)').pluck().get(progress.projectId, progress.projectId);
    if (!marked) return;
    const changes = projectChanges(db, progress.projectId, { throughRefresh: progress.refreshId - 1 }).filter((c) => c.important && c.kind !== 'title');
    if (changes.length === 0) return;
    const projectName = requireProject(db, progress.projectId).name;
    this.deps.onImportant({ projectId: progress.projectId, projectName, refreshId: progress.refreshId, changes });
  }
}
