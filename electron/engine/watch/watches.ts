import type { Database } from 'better-sqlite3';
import type { WatchSummary } from '../../../shared/contract';

const DAY_MS = 86_400_000;

export interface WatchSchedule {
  everyDays: number | null;
  weekday: number | null;
}

/**
 * When a watch is due next after `from` (ms): `everyDays` days on, or the next `weekday` (UTC) strictly after the
 * day of `from`, at its start. A due run that waited (offline, blocked) does not move the schedule: it goes on from
 * when the refresh ran.
 */
export function nextDue(schedule: WatchSchedule, from: number): number {
  if (schedule.everyDays !== null) return from + schedule.everyDays * DAY_MS;
  const dayStart = Math.floor(from / DAY_MS) * DAY_MS;
  const today = new Date(dayStart).getUTCDay();
  const ahead = (schedule.weekday! - today + 7) % 7 || 7;
  return dayStart + ahead * DAY_MS;
}

type WatchRow = [
  projectId: number,
  name: string,
  everyDays: number | null,
  weekday: number | null,
  ceiling: number | null,
  profileId: string,
  nextDueAt: string,
  lastRunAt: string | null,
  lastResult: string | null,
  blocked: string | null,
  refreshId: number | null,
];

const SELECT = `SELECT w.project_id, p.name, w.every_days, w.weekday, w.credit_ceiling, w.profile_id, w.next_due_at, w.last_run_at, w.last_result, w.blocked, w.refresh_id
  FROM watches AS w JOIN projects AS p ON p.id = w.project_id`;

export interface WatchRecord extends WatchSummary {
  /** The refresh the watch started last; null before its first. */
  refreshId: number | null;
}

function record(row: WatchRow, now: number): WatchRecord {
  const [projectId, projectName, everyDays, weekday, creditCeiling, profileId, nextRefreshAt, lastRunAt, lastResult, blocked, refreshId] = row;
  return { projectId, projectName, everyDays, weekday, creditCeiling, profileId, nextRefreshAt, due: Date.parse(nextRefreshAt) <= now, lastRunAt, lastResult, blocked, refreshId };
}

export function watchOf(db: Database, projectId: number, now: number): WatchRecord | null {
  const row = db.prepare(`${SELECT} WHERE w.project_id = ?`).raw().get(projectId) as WatchRow | undefined;
  return row ? record(row, now) : null;
}

/** The watch as the projects list shows it; null when the project is not watched. */
export function watchSummary(db: Database, projectId: number, now: number): WatchSummary | null {
  const watch = watchOf(db, projectId, now);
  if (!watch) return null;
  const { refreshId: _refreshId, ...summary } = watch;
  return summary;
}

/** Watches of projects that are not deleted, the next due first. */
export function listWatches(db: Database, now: number): WatchRecord[] {
  const rows = db.prepare(`${SELECT} WHERE p.status = 'ready' ORDER BY w.next_due_at, w.project_id`).raw().all() as WatchRow[];
  return rows.map((row) => record(row, now));
}

/** Sets (or changes) a watch; a new schedule is due one period from now. */
export function putWatch(db: Database, projectId: number, schedule: WatchSchedule, creditCeiling: number | null, profileId: string, now: number): void {
  const at = new Date(now).toISOString();
  db.prepare(
    `INSERT INTO watches (project_id, every_days, weekday, credit_ceiling, profile_id, next_due_at, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (project_id) DO UPDATE SET every_days = excluded.every_days, weekday = excluded.weekday, credit_ceiling = excluded.credit_ceiling,
       profile_id = excluded.profile_id, next_due_at = excluded.next_due_at, blocked = NULL`,
  ).run(projectId, schedule.everyDays, schedule.weekday, creditCeiling, profileId, new Date(nextDue(schedule, now)).toISOString(), at);
}

export function deleteWatch(db: Database, projectId: number): boolean {
  return db.prepare('DELETE FROM watches WHERE project_id = ?').run(projectId).changes > 0;
}

/** A due run that did not refresh: blocked (by the profile or the credits) or waiting (for the network). Still due. */
export function watchHeldBack(db: Database, projectId: number, reason: string, blocked: boolean, now: number): void {
  db.prepare('UPDATE watches SET last_run_at = ?, last_result = ?, blocked = ? WHERE project_id = ?').run(new Date(now).toISOString(), reason, blocked ? reason : null, projectId);
}

/** A due run started (or went on with) this refresh. */
export function watchStarted(db: Database, projectId: number, refreshId: number, now: number): void {
  db.prepare("UPDATE watches SET refresh_id = ?, last_run_at = ?, last_result = 'refreshing', blocked = NULL WHERE project_id = ?").run(refreshId, new Date(now).toISOString(), projectId);
}

/** The watch's refresh ended: done, it is due again a period later; otherwise it stays due and the next due run goes on with it. */
export function watchRefreshEnded(db: Database, watch: WatchRecord, done: boolean, result: string, blocked: string | null, now: number): void {
  const next = done ? new Date(nextDue(watch, now)).toISOString() : watch.nextRefreshAt;
  db.prepare('UPDATE watches SET next_due_at = ?, last_result = ?, blocked = ? WHERE project_id = ?').run(next, result, blocked, watch.projectId);
}
