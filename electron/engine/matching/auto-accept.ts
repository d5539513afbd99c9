import type { AutoAcceptRule } from '../../../shared/model';

// Confidences are floats: 0.95 computed as a sum of shares may come out as 0.9499999999.
const EPSILON = 1e-9;

/** What the rule reads of a row's assessment (matching/assess-row.ts), as stored on the row too. */
export interface Verdict {
  confidence: number;
  runnerUp: number;
  guard: string | null;
}

/** The limits a best candidate must clear; whether the rule is on is the caller's (a bulk accept is asked for). */
export type AcceptLimits = Pick<AutoAcceptRule, 'minConfidence' | 'minLead'>;

/**
 * Whether a row's best candidate is accepted without review: the rule is on, no guard applies, the confidence is
 * at least minConfidence and leads the runner-up's by at least minLead.
 */
export function autoAccepts(verdict: Verdict, rule: AutoAcceptRule): boolean {
  return rule.enabled && clearsLimits(verdict, rule);
}

/** The rule's test of one verdict, whether or not the rule is on; clearsLimitsWhere is the same test in SQL. */
export function clearsLimits(verdict: Verdict, limits: AcceptLimits): boolean {
  return verdict.guard === null && verdict.confidence >= limits.minConfidence - EPSILON && verdict.confidence - verdict.runnerUp >= limits.minLead - EPSILON;
}

/**
 * clearsLimits as an SQL condition on row_status's columns (confidence, runner_up, guard), with its parameters in
 * order: the same limits and epsilon, so a bulk accept and its counts take exactly the rows a run would. A row
 * with no verdict (a NULL confidence or runner-up) gives 0, never NULL, so the condition can be summed.
 */
export function clearsLimitsWhere(limits: AcceptLimits): { sql: string; params: number[] } {
  return {
    sql: '(guard IS NULL AND confidence IS NOT NULL AND runner_up IS NOT NULL AND confidence >= ? AND confidence - runner_up >= ?)',
    params: [limits.minConfidence - EPSILON, limits.minLead - EPSILON],
  };
}
