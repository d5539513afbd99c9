// What a run may cost against the service's credits, in the same words on the preview screen and the command line.
import type { RunPreview } from './contract';

const count = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

/**
 * "up to 1,240 of 9,870 remaining", or null when the service never said how many remain (no cap, or no reply from it
 * yet). "Up to": the bound is 5 people a query, each billed once; a run's later rounds can add to it.
 */
export function creditsText(preview: Pick<RunPreview, 'creditsRemaining' | 'creditsUpTo'>): string | null {
  if (preview.creditsRemaining === null) return null;
  return `up to ${count.format(preview.creditsUpTo)} of ${count.format(preview.creditsRemaining)} remaining`;
}

/** Whether the bound passes what remains: the run may stop part-way when the credits run out. */
export function mayRunOut(preview: Pick<RunPreview, 'creditsRemaining' | 'creditsUpTo'>): boolean {
  return preview.creditsRemaining !== null && preview.creditsUpTo > preview.creditsRemaining;
}
