import type { Database, Statement } from 'better-sqlite3';
import { z } from 'zod';
import type { RunStatus } from '../../../shared/contract';
import type { Settings } from '../../../shared/model';

/** What a run has done so far; persisted with the run so its progress survives a restart. */
export interface RunCounters {
  queriesTotal: number;
  queriesDone: number;
  rowsResolved: number;
  calls: number;
  cacheHits: number;
  errors: number;
  /** Queries answered by the service in this run (not the cache): the rate is measured on these. */
  fetched: number;
}

/** The settings a run works under, as they were when it started: a resumed run goes on under these. */
export type RunSettings = Omit<Settings, 'activeProfileId'>;

const runSettingsSchema = z.object({
  concurrency: z.number().int().min(1),
  cacheTtlDays: z.number().min(0),
  autoAccept: z.object({ enabled: z.boolean(), minConfidence: z.number().min(0).max(1), minLead: z.number().min(0).max(1) }),
});

export interface RunRecord {
  id: number;
  projectId: number;
  status: RunStatus;
  offline: boolean;
  /** What the run started with, from its job (the one place they are kept); null for a run from before runs kept them. */
  settings: RunSettings | null;
  counters: RunCounters;
  message: string | null;
  startedAt: string;
  updatedAt: string;
  finishedAt: string | null;
}

export function zeroCounters(): RunCounters {
  return { queriesTotal: 0, queriesDone: 0, rowsResolved: 0, calls: 0, cacheHits: 0, errors: 0, fetched: 0 };
}

interface RunRow {
  id: number;
  project_id: number;
  status: RunStatus;
  offline: number;
  /** The settings in the run's job's options (JSON), read beside the run. */
  options: string | null;
  counters: string;
  message: string | null;
  started_at: string;
  updated_at: string;
  finished_at: string | null;
}

/** A new run's record; what it starts with is kept with its job (`jobOptions`), opened beside it. */
export function createRun(db: Database, projectId: number, offline: boolean, at: string): number {
  return Number(
    db
      .prepare("INSERT INTO runs (project_id, status, offline, counters, started_at, updated_at) VALUES (?, 'running', ?, ?, ?, ?)")
      .run(projectId, offline ? 1 : 0, JSON.stringify(zeroCounters()), at, at).lastInsertRowid,
  );
}

/** What a run's job keeps: the run it is of and the settings it works under (what a resume goes on under). */
export interface RunJobOptions {
  offline: boolean;
  runId: number;
  settings: RunSettings;
}

export function jobOptions(runId: number, offline: boolean, settings: RunSettings): RunJobOptions {
  return { offline, runId, settings: { concurrency: settings.concurrency, cacheTtlDays: settings.cacheTtlDays, autoAccept: { ...settings.autoAccept } } };
}

export function latestRun(db: Database, projectId: number): RunRecord | null {
  // The settings come from the run's newest job: a run resumed in a later session has a job for each, all alike.
  const row = db
    .prepare(
      `SELECT r.*, (SELECT json_extract(j.options, '$.settings') FROM jobs AS j
                    WHERE j.project_id = r.project_id AND j.kind = 'run' AND json_extract(j.options, '$.runId') = r.id
                    ORDER BY j.id DESC LIMIT 1) AS options
       FROM runs AS r WHERE r.project_id = ? ORDER BY r.id DESC LIMIT 1`,
    )
    .get(projectId) as RunRow | undefined;
  return row ? toRecord(row) : null;
}

// A run saves itself with every commit: the statement is prepared once per database.
const saveStatements = new WeakMap<Database, Statement>();

export function saveRun(
  db: Database,
  runId: number,
  state: { status: RunStatus; counters: RunCounters; message: string | null; updatedAt: string; finishedAt: string | null },
): void {
  let save = saveStatements.get(db);
  if (!save) saveStatements.set(db, (save = db.prepare('UPDATE runs SET status = ?, counters = ?, message = ?, updated_at = ?, finished_at = ? WHERE id = ?')));
  save.run(
    state.status,
    JSON.stringify(state.counters),
    state.message,
    state.updatedAt,
    state.finishedAt,
    runId,
  );
}

/**
 * Runs still marked 'running' when the engine opens were cut off by a crash or a kill. Everything they had
 * landed is committed, so they are paused: resuming re-sends only what had not landed.
 */
export function markInterruptedRuns(db: Database, at: string): number {
  return db
    .prepare(
      "UPDATE runs SET status = 'paused', updated_at = ?, message = 'Interrupted when Matchdesk stopped unexpectedly. Everything that had arrived is kept; resume to finish the rest.' WHERE status = 'running'",
    )
    .run(at).changes;
}

function toRecord(row: RunRow): RunRecord {
  let counters = zeroCounters();
  try {
    counters = { ...counters, ...(JSON.parse(row.counters) as Partial<RunCounters>) };
  } catch {
    // Counters only feed the progress display; zeros are an honest fallback.
  }
  return {
    id: row.id,
    projectId: row.project_id,
    status: row.status,
    offline: row.offline === 1,
    settings: storedSettings(row.options),
    counters,
    message: row.message,
    startedAt: row.started_at,
    updatedAt: row.updated_at,
    finishedAt: row.finished_at,
  };
}

/**
 * The settings stored with a run's job, or null when there are none (an older run). Stored ones that do not parse are
 * a damaged row: the run would otherwise go on under other options than it started with, so that is refused.
 */
export function storedSettings(text: string | null): RunSettings | null {
  if (text === null) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  const result = runSettingsSchema.safeParse(parsed);
  if (!result.success) throw new Error(`The options stored with a run cannot be read: ${text.slice(0, 200)}`);
  return result.data;
}
