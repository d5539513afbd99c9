// What the model learns from a reviewer's decisions (issue 43): each decision on a row is a labelled pair (the row's
// best candidate right or wrong), counted per reason pattern (reason-pattern.ts). Like Splink's
// estimate_m_from_pairwise_labels, but precision first: a pattern lifts a row above the threshold only when the labels
// support it (enough accepted, none rejected), never for a kind a person must always look at. Pure: no I/O.
import type { RowAssessment } from './assess-row';
import { CONFIDENCE_MODEL } from './confidence-model';
import { learnablePattern, patternWords, reasonPattern } from './reason-pattern';

/** Accepted labels a pattern needs, with none rejected, before it may lift a row: fewer is a reviewer's luck. */
export const MIN_ACCEPTED = 10;

/** Appended to the reason of a row lifted by what was learned, so the reviewer sees why it may now be accepted. */
export const LIFTED_REASON = '; lifted by what you decided on rows like it';

/** A reviewer's verdicts on rows of one pattern. */
export interface PatternLabels {
  accepted: number;
  rejected: number;
}

/** What a project learned: its labels per pattern, and the model version they were counted under. */
export interface LearnedState {
  modelVersion: number;
  patterns: Record<string, PatternLabels>;
}

export function emptyLearnedState(): LearnedState {
  return { modelVersion: CONFIDENCE_MODEL.version, patterns: {} };
}

/** One decision: the pattern of the row as assessed, and whether the reviewer took its best candidate. */
export interface Label {
  pattern: string;
  right: boolean;
}

/** The labels counted into a state (a new object: states are values). */
export function learnFrom(labels: readonly Label[], base: LearnedState = emptyLearnedState()): LearnedState {
  const patterns: Record<string, PatternLabels> = Object.fromEntries(Object.entries(base.patterns).map(([p, l]) => [p, { ...l }]));
  for (const { pattern, right } of labels) {
    const counts = (patterns[pattern] ??= { accepted: 0, rejected: 0 });
    if (right) counts.accepted += 1;
    else counts.rejected += 1;
  }
  return { modelVersion: base.modelVersion, patterns };
}

/**
 * A stored state as the running model may use it: one counted under another model version is dropped (its patterns
 * were another model's verdicts), with a note saying so; never mixed in silently.
 */
export function usableState(stored: LearnedState | null): { state: LearnedState; note: string | null } {
  if (!stored) return { state: emptyLearnedState(), note: null };
  if (stored.modelVersion !== CONFIDENCE_MODEL.version) {
    return {
      state: emptyLearnedState(),
      note: `What was learned under model version ${stored.modelVersion} was dropped: this version of the app assesses rows with model version ${CONFIDENCE_MODEL.version}, and its reviewer decisions will be learned again.`,
    };
  }
  return { state: stored, note: null };
}

/**
 * The probability the labels give a row of a supported pattern, or null when they do not support lifting it:
 * Laplace's rule of succession over the pattern's labels, (accepted + 1) / (accepted + 2), which stays a probability
 * and only reaches 0.95 after 18 accepts without a rejection.
 */
export function supportOf(labels: PatternLabels | undefined): number | null {
  if (!labels || labels.rejected > 0 || labels.accepted < MIN_ACCEPTED) return null;
  return (labels.accepted + 1) / (labels.accepted + 2);
}

/**
 * The row's verdict under what was learned: where its pattern is supported, the guard is lifted and the best
 * candidate's confidence raised to the labels' figure (never lowered); anything else stays as the model said.
 */
export function learnedVerdict(assessment: RowAssessment, state: LearnedState): { confidence: number; runnerUp: number; guard: string | null; pattern: string | null; learned: boolean } {
  const pattern = reasonPattern(assessment);
  const unchanged = { confidence: assessment.confidence, runnerUp: assessment.runnerUp, guard: assessment.guard, pattern, learned: false };
  if (pattern === null || !learnablePattern(pattern)) return unchanged;
  const support = supportOf(state.patterns[pattern]);
  if (support === null || (assessment.guard === null && support <= assessment.confidence)) return unchanged;
  return { confidence: Math.max(support, assessment.confidence), runnerUp: assessment.runnerUp, guard: null, pattern, learned: true };
}

/**
 * What was learned, in sentences a reviewer reads: one per pattern with labels, the most decided first; patterns never
 * lifted that read the same (twins by name and company level) are counted in one sentence.
 */
export function learnedSentences(state: LearnedState): string[] {
  const merged = new Map<string, [string, PatternLabels]>();
  for (const [pattern, labels] of Object.entries(state.patterns)) {
    const key = learnablePattern(pattern) ? pattern : patternWords(pattern);
    const seen = merged.get(key);
    if (seen) merged.set(key, [seen[0], { accepted: seen[1].accepted + labels.accepted, rejected: seen[1].rejected + labels.rejected }]);
    else merged.set(key, [pattern, labels]);
  }
  return [...merged.values()]
    .sort(([, a], [, b]) => b.accepted + b.rejected - (a.accepted + a.rejected))
    .map(([pattern, labels]) => {
      const total = labels.accepted + labels.rejected;
      const what = `You accepted ${labels.accepted} of ${total} row${total === 1 ? '' : 's'} ${patternWords(pattern)}`;
      if (!learnablePattern(pattern)) return `${what}: such rows stay with you whatever is learned.`;
      const support = supportOf(labels);
      if (support !== null) return `${what}: such rows are now ${Math.floor(support * 100)}% confident.`;
      if (labels.rejected > 0) return `${what}: such rows stay with you, as you rejected some.`;
      return `${what}: ${MIN_ACCEPTED - labels.accepted} more accepted without a rejection and such rows are lifted.`;
    });
}
