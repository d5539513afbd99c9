import type { Database } from 'better-sqlite3';
import { CONFIDENCE_THRESHOLD_RANGE, DEFAULT_SETTINGS, LEAD_RANGE, type AutoAcceptRule, type Settings } from '../../../shared/model';
import { InvalidSetting } from './errors';

type SettingKey = keyof Settings;

/** Each key is checked on the way in and on the way out; a value that fails falls back to its default. */
const readers: { [K in SettingKey]: (value: unknown) => Settings[K] | undefined } = {
  concurrency: (v) => (Number.isInteger(v) && (v as number) >= 1 ? (v as number) : undefined),
  cacheTtlDays: (v) => (isFiniteNumber(v) && v >= 0 ? v : undefined),
  autoAccept: readAutoAccept,
  activeProfileId: (v) => (v === null || typeof v === 'string' ? v : undefined),
};

const keys = Object.keys(readers) as SettingKey[];

export function getSettings(db: Database): Settings {
  const rows = db.prepare('SELECT key, value FROM settings').all() as { key: string; value: string }[];
  const stored = new Map(rows.map((r) => [r.key, r.value]));
  const settings = structuredClone(DEFAULT_SETTINGS);
  for (const key of keys) {
    const text = stored.get(key);
    if (text === undefined) continue;
    const value = readers[key](parseJson(text));
    if (value !== undefined) (settings as Record<SettingKey, unknown>)[key] = value;
  }
  return settings;
}

/** Saves the keys present in `patch` (unknown keys ignored) and returns the settings as now stored. */
export function updateSettings(db: Database, patch: Partial<Settings>): Settings {
  const entries: [SettingKey, unknown][] = [];
  for (const key of keys) {
    if (!(key in patch) || patch[key] === undefined) continue;
    const value = readers[key](patch[key]);
    if (value === undefined || (key === 'autoAccept' && !isCompleteAutoAccept(patch[key]))) throw new InvalidSetting(key, `${JSON.stringify(patch[key])} is not a valid value`);
    entries.push([key, value]);
  }
  const upsert = db.prepare('INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value');
  db.transaction(() => {
    for (const [key, value] of entries) upsert.run(key, JSON.stringify(value));
  })();
  return getSettings(db);
}

/**
 * Missing or garbled fields take their default, so one bad field does not reset the whole rule. A rule saved before
 * the confidence model (exactSingle, minScore: a lead between service scores) keeps only whether it was on.
 */
function readAutoAccept(v: unknown): AutoAcceptRule | undefined {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return undefined;
  const o = v as Record<string, unknown>;
  const d = DEFAULT_SETTINGS.autoAccept;
  if (!('minConfidence' in o)) return { ...d, enabled: typeof o.exactSingle === 'boolean' ? o.exactSingle : d.enabled };
  return {
    enabled: typeof o.enabled === 'boolean' ? o.enabled : d.enabled,
    minConfidence: isThreshold(o.minConfidence) ? o.minConfidence : d.minConfidence,
    minLead: isLead(o.minLead) ? o.minLead : d.minLead,
  };
}

function isCompleteAutoAccept(v: unknown): boolean {
  const o = v as Record<string, unknown>;
  return typeof o.enabled === 'boolean' && isThreshold(o.minConfidence) && isLead(o.minLead);
}

function isThreshold(v: unknown): v is number {
  return isFiniteNumber(v) && v >= CONFIDENCE_THRESHOLD_RANGE.min && v <= CONFIDENCE_THRESHOLD_RANGE.max;
}

function isLead(v: unknown): v is number {
  return isFiniteNumber(v) && v >= LEAD_RANGE.min && v <= LEAD_RANGE.max;
}

function isFiniteNumber(v: unknown): v is number {
  return typeof v === 'number' && Number.isFinite(v);
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
