import type { AutoAcceptRule, Candidate, Strategy } from '../../../shared/model';

// Scores are floats: 0.9 - 0.8 is 0.0999..., which must still count as a lead of 0.1.
const EPSILON = 1e-9;

/**
 * Whether a row's candidates can be accepted without review.
 * - exactSingle: exactly one person found by exact e-mail or profile slug.
 * - minScore: the top score (when the service sent one) is at least minScore and leads the second by at least
 *   minLead; a second candidate without a score, or no second, counts as a lead of the whole score.
 */
export function autoAcceptable(strategy: Strategy, candidates: Candidate[], rule: AutoAcceptRule): boolean {
  if (candidates.length === 0) return false;
  if (rule.exactSingle && (strategy === 'email' || strategy === 'social') && candidates.length === 1) return true;
  if (rule.minScore === null || rule.minScore === undefined) return false;
  const ranked = [...candidates].sort((a, b) => a.rank - b.rank);
  const top = ranked[0]!.score;
  if (typeof top !== 'number' || !Number.isFinite(top) || top < rule.minScore - EPSILON) return false;
  const second = ranked[1]?.score;
  const lead = typeof second === 'number' && Number.isFinite(second) ? top - second : top;
  return lead >= rule.minLead - EPSILON;
}
