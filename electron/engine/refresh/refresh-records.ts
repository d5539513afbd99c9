import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Database } from 'better-sqlite3';
import type { RefreshProgress, RefreshStatus } from '../../../shared/contract';
import { LISTED, dropListsSlice } from '../store/refresh-tables';

/** What a refresh has done so far; saved with every commit, so its progress survives a restart. */
export interface RefreshCounters {
  peopleTotal: number;
  found: number;
  notFound: number;
  failed: number;
  rowsWithoutProfile: number;
  rowsUpdated: number;
  rowsChanged: number;
  rowsNotFound: number;
  calls: number;
}

export interface RefreshRecord {
  id: number;
  projectId: number;
  scope: string;
  status: RefreshStatus;
  olderThanDays: number | null;
  counters: RefreshCounters;
  message: string | null;
  startedAt: string;
  updatedAt: string;
  finishedAt: string | null;
}

export function zeroRefreshCounters(): RefreshCounters {
  return { peopleTotal: 0, found: 0, notFound: 0, failed: 0, rowsWithoutProfile: 0, rowsUpdated: 0, rowsChanged: 0, rowsNotFound: 0, calls: 0 };
}

export function peopleDone(c: RefreshCounters): number {
  return c.found + c.notFound + c.failed;
}

interface RefreshRow {
  id: number;
  project_id: number;
  scope: string;
  status: RefreshStatus;
  older_than_days: number | null;
  counters: string;
  message: string | null;
  started_at: string;
  updated_at: string;
  finished_at: string | null;
}

/** Records a refresh whose lists are still to be made (store/refresh-tables.ts LISTED); `markListed` makes it the project's running refresh. */
export function insertUnlistedRefresh(db: Database, projectId: number, scope: string, olderThanDays: number | null, at: string): number {
  return Number(
    db
      .prepare("INSERT INTO refreshes (project_id, scope, status, older_than_days, started_at, updated_at) VALUES (?, ?, 'cancelled', ?, ?, ?)")
      .run(projectId, scope, olderThanDays, at, at).lastInsertRowid,
  );
}

/** The refresh's lists are complete: it becomes the project's running refresh, with its counters. */
export function markListed(db: Database, refreshId: number, counters: RefreshCounters, at: string): void {
  db.prepare("UPDATE refreshes SET status = 'running', counters = ?, updated_at = ? WHERE id = ?").run(JSON.stringify(counters), at, refreshId);
}

/**
 * Lets a refresh's list of rows per person go (once it ended, nothing resumes it), and with 'people and rows' its list
 * of people too (once a newer refresh replaced it), a slice at a time with other calls' turns between. Never
 * rejects: nothing depends on the lists being gone, and what a closed or failing database cuts off is let go by the
 * project's next refresh (or its deletion).
 */
export async function dropLists(db: Database, refreshId: number, what: 'rows' | 'people and rows'): Promise<void> {
  try {
    while (db.open && dropListsSlice(db, refreshId, what) > 0) await nextTurn();
  } catch {
    // Left for the next refresh of the project, as above.
  }
}

/** The project's last refresh whose lists were made (store/refresh-tables.ts LISTED), whatever became of it. */
export function latestRefresh(db: Database, projectId: number): RefreshRecord | null {
  const row = db.prepare(`SELECT * FROM refreshes WHERE project_id = ? AND ${LISTED} ORDER BY id DESC LIMIT 1`).get(projectId) as RefreshRow | undefined;
  return row ? toRecord(row) : null;
}

export function saveRefresh(
  db: Database,
  refreshId: number,
  state: { status: RefreshStatus; counters: RefreshCounters; message: string | null; updatedAt: string; finishedAt: string | null },
): void {
  db.prepare('UPDATE refreshes SET status = ?, counters = ?, message = ?, updated_at = ?, finished_at = ? WHERE id = ?').run(
    state.status,
    JSON.stringify(state.counters),
    state.message,
    state.updatedAt,
    state.finishedAt,
    refreshId,
  );
}

/**
 * Refreshes still marked 'running' when the engine opens were cut off by a crash or a kill. Every landed answer
 * was committed with the rows it changed, so they are paused: resuming asks only for the people still pending.
 */
export function markInterruptedRefreshes(db: Database, at: string): number {
  return db
    .prepare(
      "UPDATE refreshes SET status = 'paused', updated_at = ?, message = 'Interrupted when Matchdesk stopped unexpectedly. Everything that had arrived is kept; resume to ask for the rest.' WHERE status = 'running'",
    )
    .run(at).changes;
}

/** A refresh's progress as its record tells it: at rest (no rate, no time left, no rows being written). */
export function storedRefreshProgress(record: Pick<RefreshRecord, 'id' | 'projectId' | 'status' | 'counters' | 'message' | 'startedAt' | 'updatedAt'>): RefreshProgress {
  const c = record.counters;
  return {
    projectId: record.projectId,
    refreshId: record.id,
    status: record.status,
    peopleTotal: c.peopleTotal,
    peopleDone: peopleDone(c),
    found: c.found,
    notFound: c.notFound,
    failed: c.failed,
    rowsWithoutProfile: c.rowsWithoutProfile,
    rowsUpdated: c.rowsUpdated,
    rowsChanged: c.rowsChanged,
    rowsNotFound: c.rowsNotFound,
    calls: c.calls,
    ratePerSec: 0,
    etaSeconds: null,
    rowsWriting: null,
    message: record.message,
    startedAt: record.startedAt,
    updatedAt: record.updatedAt,
  };
}

function toRecord(row: RefreshRow): RefreshRecord {
  let counters = zeroRefreshCounters();
  try {
    counters = { ...counters, ...(JSON.parse(row.counters) as Partial<RefreshCounters>) };
  } catch {
    // Counters only feed the progress display; zeros are an honest fallback.
  }
  return {
    id: row.id,
    projectId: row.project_id,
    scope: row.scope,
    status: row.status,
    olderThanDays: row.older_than_days,
    counters,
    message: row.message,
    startedAt: row.started_at,
    updatedAt: row.updated_at,
    finishedAt: row.finished_at,
  };
}
