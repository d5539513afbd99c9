// A watch in the user's words: its schedule ("Weekly on Monday"), and the projects list's line about it
// ("next Mon 3 Dec · last: 4 moved, 1 left"). Schedules are in UTC days, as the engine keeps them.
import type { WatchSummary } from '../../../../shared/contract';

export const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'] as const;
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const;

export function scheduleWords(watch: Pick<WatchSummary, 'everyDays' | 'weekday'>): string {
  if (watch.everyDays === 1) return 'Every day';
  if (watch.everyDays !== null) return `Every ${watch.everyDays} days`;
  return `Weekly on ${WEEKDAYS[watch.weekday ?? 1]}`;
}

/** "Mon 3 Dec" (UTC), and the year too when it is not `thisYear`'s. */
export function shortDay(iso: string, now = Date.now()): string {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return iso;
  const day = `${WEEKDAYS[at.getUTCDay()]!.slice(0, 3)} ${at.getUTCDate()} ${MONTHS[at.getUTCMonth()]}`;
  return at.getUTCFullYear() === new Date(now).getUTCFullYear() ? day : `${day} ${at.getUTCFullYear()}`;
}

const REFRESH_RESULT = /(\d+) moved, (\d+) left, (\d+) changed title/;

/**
 * What the watch's last due run did, short: "4 moved, 1 left" (only what happened), "no change", "refreshing"; any
 * other outcome (stopped, paused, nobody to ask) in the engine's own words.
 */
export function lastResultWords(lastResult: string | null): string | null {
  if (lastResult === null) return null;
  if (lastResult === 'refreshing') return 'refreshing now';
  const found = REFRESH_RESULT.exec(lastResult);
  if (!found) return lastResult;
  const [moved, left, title] = [Number(found[1]), Number(found[2]), Number(found[3])];
  const parts = [moved > 0 && `${moved} moved`, left > 0 && `${left} left`, title > 0 && `${title} changed title`].filter((part): part is string => typeof part === 'string');
  return parts.length > 0 ? parts.join(', ') : 'no change';
}

/** "next Mon 3 Dec · last: 4 moved, 1 left", or "due now" when its refresh waits to be run. */
export function watchLine(watch: Pick<WatchSummary, 'nextRefreshAt' | 'due' | 'lastResult'>, now = Date.now()): string {
  const next = watch.due ? 'due now' : `next ${shortDay(watch.nextRefreshAt, now)}`;
  const last = lastResultWords(watch.lastResult);
  return last === null ? next : `${next} · last: ${last}`;
}
