import type { AutoAcceptRule } from '../../../shared/model';

// Confidences are floats: 0.95 computed as a sum of shares may come out as 0.9499999999.
const EPSILON = 1e-9;

/** What the rule reads of a row's assessment (matching/assess-row.ts), as stored on the row too. */
export interface Verdict {
  confidence: number;
  runnerUp: number;
  guard: string | null;
}

/**
 * Whether a row's best candidate is accepted without review: the rule is on, no guard applies, the confidence is
 * at least minConfidence and leads the runner-up's by at least minLead.
 */
export function autoAccepts(verdict: Verdict, rule: AutoAcceptRule): boolean {
  return (
    rule.enabled &&
    verdict.guard === null &&
    verdict.confidence >= rule.minConfidence - EPSILON &&
    verdict.confidence - verdict.runnerUp >= rule.minLead - EPSILON
  );
}
