// The days a Changes view can start from: the start of the quarter, 30 days ago, the last refresh's day, or any day.
// Days are UTC, as the engine cuts the history (a refresh that began before the day is the baseline).

export type SincePreset = 'quarter' | 'days30' | 'lastRefresh';

export interface SinceChoice {
  preset: SincePreset;
  label: string;
  day: string;
}

const DAY_MS = 86_400_000;

export function isoDayOf(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

export function startOfQuarter(now: number): string {
  const at = new Date(now);
  return isoDayOf(Date.UTC(at.getUTCFullYear(), Math.floor(at.getUTCMonth() / 3) * 3, 1));
}

/** The presets, in the order shown; "since the last refresh" only once there was one. */
export function sinceChoices(now: number, lastRefreshAt: string | null): SinceChoice[] {
  const choices: SinceChoice[] = [
    { preset: 'quarter', label: 'Start of the quarter', day: startOfQuarter(now) },
    { preset: 'days30', label: 'Last 30 days', day: isoDayOf(now - 30 * DAY_MS) },
  ];
  if (lastRefreshAt) choices.push({ preset: 'lastRefresh', label: 'Last refresh', day: lastRefreshAt.slice(0, 10) });
  return choices;
}

/** A day typed or picked, if it is one (YYYY-MM-DD that exists): what the engine accepts. */
export function validDay(text: string): string | null {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return null;
  const at = Date.parse(`${text}T00:00:00Z`);
  return Number.isFinite(at) && isoDayOf(at) === text ? text : null;
}
