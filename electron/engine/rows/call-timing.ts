import type { Database } from 'better-sqlite3';
import { scopeId, type ServiceScope } from './service-scope';

/** What a find call of up to 100 queries takes on the real service, until a call to it has been measured. */
export const ASSUMED_SECONDS_PER_CALL = 1.5;
/** How calls are sent and what each takes. */
export interface CallPace {
  concurrency: number;
  secondsPerCall: number;
}

/** What a preview's time is worked out from: the calls, and the engine's own time a row takes (rows/row-timing.ts). */
export interface WorkPace extends CallPace {
  secondsPerRow: number;
}

/** The time `calls` find calls take, sent `concurrency` at a time. */
export function callSeconds(calls: number, { concurrency, secondsPerCall }: CallPace): number {
  return Math.ceil(calls / Math.max(1, concurrency)) * secondsPerCall;
}

/** The time a run or a refresh of `calls` calls and `rows` rows takes (a run's preview, a refresh's). */
export function estimatedSeconds(calls: number, rows: number, pace: WorkPace): number {
  return Math.ceil(callSeconds(calls, pace) + rows * pace.secondsPerRow);
}

/** How often a changing average is written down (and once more when the engine closes). */
const SAVE_INTERVAL_MS = 5_000;

/**
 * A running average of find-call durations for each service, so the cost preview estimates from what this machine
 * saw: kept in the database (call_timings, migration 13), so a new session (every CLI command is one) starts from the
 * last one's figure instead of the assumption. Callers name the service: a run times its own client's calls without
 * looking up the active profile on every call.
 */
export class CallTiming {
  private readonly averageMs = new Map<string, number>();
  private readonly unsaved = new Set<string>();
  private savedAt = 0;

  constructor(private readonly db: Database) {}

  /** One find call to `scope` took `ms`. */
  record(scope: ServiceScope, ms: number): void {
    if (!Number.isFinite(ms) || ms < 0) return;
    const key = scopeId(scope);
    const before = this.averageMs.get(key) ?? this.stored(key);
    this.averageMs.set(key, before === null ? ms : before * 0.8 + ms * 0.2);
    this.unsaved.add(key);
    if (performance.now() - this.savedAt >= SAVE_INTERVAL_MS) this.save();
  }

  /** What a find call to `scope` takes, as measured, else assumed (also with no service chosen). */
  secondsPerCall(scope: ServiceScope | null): number {
    if (!scope) return ASSUMED_SECONDS_PER_CALL;
    const key = scopeId(scope);
    const ms = this.averageMs.get(key) ?? this.stored(key);
    return ms === null ? ASSUMED_SECONDS_PER_CALL : ms / 1000;
  }

  /** Writes down the averages that changed since the last save (the engine calls it once more as it closes). */
  save(): void {
    this.savedAt = performance.now();
    if (this.unsaved.size === 0 || !this.db.open) return;
    const upsert = this.db.prepare(
      `INSERT INTO call_timings (scope, seconds_per_call, updated_at) VALUES (?, ?, ?)
       ON CONFLICT (scope) DO UPDATE SET seconds_per_call = excluded.seconds_per_call, updated_at = excluded.updated_at`,
    );
    const at = new Date().toISOString();
    for (const key of this.unsaved) upsert.run(key, this.averageMs.get(key)! / 1000, at);
    this.unsaved.clear();
  }

  /** The last session's average for a service, in ms; null when none was kept. */
  private stored(key: string): number | null {
    const seconds = this.db.prepare('SELECT seconds_per_call FROM call_timings WHERE scope = ?').pluck().get(key) as number | undefined;
    return seconds !== undefined && Number.isFinite(seconds) && seconds >= 0 ? seconds * 1000 : null;
  }
}
