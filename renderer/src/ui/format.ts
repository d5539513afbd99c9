// Numbers and durations in the user's words; one place so every screen says them the same way.

/** Whole percent (the command line shows the same: shared/progress.ts). */
export { percent } from '../../../shared/progress';
export { formatBytes } from '../../../shared/sizes';

const integer = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

export function formatCount(value: number): string {
  return integer.format(value);
}

/** "1 row", "2,400 rows". */
export function plural(count: number, one: string, many = `${one}s`): string {
  return `${formatCount(count)} ${count === 1 ? one : many}`;
}

/** A rough duration for estimates: exact seconds would promise a precision nobody has. */
export function formatDuration(seconds: number | null): string {
  if (seconds === null || !Number.isFinite(seconds) || seconds < 0) return 'unknown';
  if (seconds < 1) return 'under a second';
  if (seconds < 60) return `${Math.round(seconds)} s`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  return rest === 0 ? `${hours} h` : `${hours} h ${rest} min`;
}

/** A preview's estimated time: what a run or refresh of a few seconds takes is not worth a figure. */
export function formatEstimate(seconds: number): string {
  return seconds < 5 ? 'a few seconds' : `about ${formatDuration(seconds)}`;
}

export function formatRate(perSecond: number): string {
  if (!Number.isFinite(perSecond) || perSecond <= 0) return '0/s';
  if (perSecond < 10) return `${perSecond.toFixed(1)}/s`;
  return `${formatCount(perSecond)}/s`;
}

/** Scores from the service are 0..1 in the simulator; other scales are shown as sent. */
export function formatScore(score: number | null): string {
  if (score === null || !Number.isFinite(score)) return 'rank only';
  return score <= 1 && score >= 0 ? score.toFixed(2) : String(Math.round(score * 100) / 100);
}

/** The model's confidence (0..1) as people read it: "97%", never 100% unless it is certain. */
export function formatConfidence(confidence: number | null): string {
  if (confidence === null || !Number.isFinite(confidence)) return '';
  const value = Math.floor(Math.max(0, Math.min(1, confidence)) * 100);
  return `${confidence >= 1 ? 100 : Math.min(99, value)}%`;
}

/** A threshold the user set, as exactly as they set it: 0.95 -> "95%", 0.9999 -> "99.99%". */
export function formatThreshold(threshold: number): string {
  return `${Math.round(threshold * 10_000) / 100}%`;
}

export function formatDateTime(iso: string | null): string {
  if (!iso) return '';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return date.toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short' });
}

/** Spreadsheet column letters: 0 -> A, 26 -> AA. */
export function columnLetter(index: number): string {
  let n = index + 1;
  let letters = '';
  while (n > 0) {
    const rest = (n - 1) % 26;
    letters = String.fromCharCode(65 + rest) + letters;
    n = Math.floor((n - 1) / 26);
  }
  return letters;
}
