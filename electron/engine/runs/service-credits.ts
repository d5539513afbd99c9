import type { Database } from 'better-sqlite3';
import type { CreditsReport } from '../api';
import { scopeId, type ServiceScope } from '../rows/service-scope';

/** The service returns at most this many people a query, each billed once at most: a run's credits are bounded by it. */
export const MAX_PEOPLE_PER_QUERY = 5;

/** How often changed figures are written down (and once more when the engine closes). */
const SAVE_INTERVAL_MS = 5_000;
/** Kept in the settings table under this prefix and the service's scope: a key getSettings never reads. */
const KEY_PREFIX = 'credits ';

/**
 * The credits each service last said remain (X-LDT-Credits-Remaining, and Used, on its replies), so the cost preview
 * can set a run against them. Kept in the database as well, so a new session (every CLI command is one) previews
 * with what the last one heard; a service that never sent them has none (no cap, or not said).
 */
export class ServiceCredits {
  private readonly latest = new Map<string, CreditsReport>();
  private readonly unsaved = new Set<string>();
  private savedAt = 0;

  constructor(private readonly db: Database) {}

  /** A reply from `scope` carried credit headers. */
  record(scope: ServiceScope, credits: CreditsReport): void {
    const key = scopeId(scope);
    const before = this.latest.get(key) ?? this.stored(key);
    if (before && before.used === credits.used && before.remaining === credits.remaining) return;
    // Calls go out several at a time: a reply sent before the last one heard says less was used, and is older news.
    if (before?.used != null && credits.used !== null && credits.used < before.used) return;
    this.latest.set(key, { used: credits.used, remaining: credits.remaining });
    this.unsaved.add(key);
    if (performance.now() - this.savedAt >= SAVE_INTERVAL_MS) this.save();
  }

  /** The credits `scope` last said remain; null when it never said (no cap, or no reply yet). */
  remaining(scope: ServiceScope | null): number | null {
    if (!scope) return null;
    const key = scopeId(scope);
    const known = this.latest.get(key) ?? this.stored(key);
    return known?.remaining ?? null;
  }

  /** Writes down the figures that changed since the last save. */
  save(): void {
    this.savedAt = performance.now();
    if (this.unsaved.size === 0 || !this.db.open) return;
    const upsert = this.db.prepare('INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value');
    for (const key of this.unsaved) upsert.run(KEY_PREFIX + key, JSON.stringify(this.latest.get(key)));
    this.unsaved.clear();
  }

  private stored(key: string): CreditsReport | null {
    const text = this.db.prepare('SELECT value FROM settings WHERE key = ?').pluck().get(KEY_PREFIX + key) as string | undefined;
    if (text === undefined) return null;
    try {
      const value = JSON.parse(text) as Partial<CreditsReport> | null;
      const figure = (n: unknown) => (typeof n === 'number' && Number.isFinite(n) && n >= 0 ? n : null);
      const report = { used: figure(value?.used), remaining: figure(value?.remaining) };
      this.latest.set(key, report);
      return report;
    } catch {
      return null;
    }
  }
}
