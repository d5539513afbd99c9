// What the model learns from a reviewer's decisions (issue 43): each decision on a row is a labelled pair (the row's
// best candidate right or wrong), counted per reason pattern (reason-pattern.ts), and the model's m figures are
// estimated again from the sheet's own comparisons with those labels (sheet-weights.ts). Precision first: what the
// sheet says may lower a row's confidence anywhere, but a row rises, and its guard is lifted, only where its pattern's
// labels support it (enough accepted, none rejected), never for a kind a person must always look at. Pure: no I/O.
import type { RowAssessment } from './assess-row';
import { calibrated } from './calibrate';
import { CONFIDENCE_MODEL } from './confidence-model';
import { learnablePattern, levelWords, patternWords, reasonPattern } from './reason-pattern';
import { sheetShares, type SheetWeights } from './sheet-weights';

/** Accepted labels a pattern needs, with none rejected, before it may lift a row: fewer is a reviewer's luck. */
export const MIN_ACCEPTED = 10;

/** Appended to the reason of a row lifted by what was learned, so the reviewer sees why it may now be accepted. */
export const LIFTED_REASON = '; lifted by what you decided on rows like it';

/** A reviewer's verdicts on rows of one pattern. */
export interface PatternLabels {
  accepted: number;
  rejected: number;
}

/**
 * What a project learned: its labels per pattern, the model's figures its sheet gives (null before it learned, or
 * for a state another project started from: a sheet's figures are its own), and the model version of both.
 */
export interface LearnedState {
  modelVersion: number;
  patterns: Record<string, PatternLabels>;
  weights?: SheetWeights | null;
}

export function emptyLearnedState(): LearnedState {
  return { modelVersion: CONFIDENCE_MODEL.version, patterns: {} };
}

/** Whether a state changes any verdict: labels counted, or the sheet's figures estimated. */
export function hasLearned(state: LearnedState): boolean {
  return Object.keys(state.patterns).length > 0 || Boolean(state.weights);
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
 * The best candidate's confidence under the sheet's figures: its share of the evidence there, calibrated for the
 * row's kind as the app's share is; the app's confidence when nothing was estimated.
 */
export function sheetConfidence(assessment: RowAssessment, weights: SheetWeights | null | undefined): number {
  if (!weights || assessment.candidates.length === 0) return assessment.confidence;
  const shares = sheetShares(assessment.candidates.map((c) => c.levels), weights);
  return calibrated(CONFIDENCE_MODEL.calibration, assessment.kind ?? 'clear', shares[0]!);
}

/** What a row's verdict is under what was learned (learnedVerdict). */
export interface LearnedVerdict {
  confidence: number;
  runnerUp: number;
  guard: string | null;
  pattern: string | null;
  /** Lifted: the labels of its pattern raised it or lifted its guard (its reason says so). */
  learned: boolean;
}

/**
 * The row's verdict under what was learned. Where its pattern is supported, the guard is lifted and the best
 * candidate's confidence raised to the labels' figure or the sheet's, whichever is higher; anywhere else the sheet's
 * figures may lower the confidence, never raise it, and the guard stays.
 */
export function learnedVerdict(assessment: RowAssessment, state: LearnedState): LearnedVerdict {
  const pattern = reasonPattern(assessment);
  const sheet = sheetConfidence(assessment, state.weights);
  const unchanged = { confidence: Math.min(sheet, assessment.confidence), runnerUp: assessment.runnerUp, guard: assessment.guard, pattern, learned: false };
  if (pattern === null || !learnablePattern(pattern)) return unchanged;
  const support = supportOf(state.patterns[pattern]);
  if (support === null) return unchanged;
  const confidence = Math.max(support, sheet);
  if (assessment.guard === null && confidence <= assessment.confidence) return unchanged;
  return { confidence, runnerUp: assessment.runnerUp, guard: null, pattern, learned: true };
}

/**
 * What was learned, in sentences a reviewer reads: one per pattern with labels, the most decided first; patterns never
 * lifted that read the same (twins by name and company level) are counted in one sentence; last, what the sheet's own
 * comparisons changed in the model's figures.
 */
export function learnedSentences(state: LearnedState): string[] {
  const merged = new Map<string, [string, PatternLabels]>();
  for (const [pattern, labels] of Object.entries(state.patterns)) {
    const key = learnablePattern(pattern) ? pattern : patternWords(pattern);
    const seen = merged.get(key);
    if (seen) merged.set(key, [seen[0], { accepted: seen[1].accepted + labels.accepted, rejected: seen[1].rejected + labels.rejected }]);
    else merged.set(key, [pattern, labels]);
  }
  const sentences = [...merged.values()]
    .sort(([, a], [, b]) => b.accepted + b.rejected - (a.accepted + a.rejected))
    .map(([pattern, labels]) => {
      const total = labels.accepted + labels.rejected;
      const what = `You accepted ${labels.accepted} of ${total} row${total === 1 ? '' : 's'} ${patternWords(pattern)}`;
      if (!learnablePattern(pattern)) return `${what}: such rows stay with you whatever is learned.`;
      const support = supportOf(labels);
      if (support !== null) return `${what}: such rows are now at least ${Math.floor(support * 100)}% confident.`;
      if (labels.rejected > 0) return `${what}: such rows stay with you, as you rejected some.`;
      return `${what}: ${MIN_ACCEPTED - labels.accepted} more accepted without a rejection and such rows are lifted.`;
    });
  return state.weights ? [...sentences, weightsSentence(state.weights)] : sentences;
}

/** Bits a level's weight must move by on the sheet to be named among what changed. */
const TELLING_CHANGE = 0.5;

/** What the sheet's figures changed, the largest moves first: "The model weighed its evidence again on 2,452 of this sheet's rows ...". */
function weightsSentence(weights: SheetWeights): string {
  const moves: { text: string; by: number }[] = [];
  for (const [comparison, { levels }] of Object.entries(weights.comparisons)) {
    const base = CONFIDENCE_MODEL.comparisons[comparison as keyof typeof CONFIDENCE_MODEL.comparisons].levels as Record<string, { m: number; u: number }>;
    for (const [level, l] of Object.entries(levels)) {
      const was = Math.log2(base[level]!.m / base[level]!.u);
      const now = Math.log2(l.m / l.u);
      if (Math.abs(now - was) >= TELLING_CHANGE) moves.push({ text: `${levelWords(comparison, level)} ${bits(now)} (was ${bits(was)})`, by: Math.abs(now - was) });
    }
  }
  const { rows, labels } = weights.estimatedFrom;
  const what = `The model weighed its evidence again on ${rows.toLocaleString('en-US')} of this sheet's rows and your ${labels} decision${labels === 1 ? '' : 's'}`;
  if (moves.length === 0) return `${what}: its figures hold here.`;
  const named = moves.sort((a, b) => b.by - a.by).slice(0, 3).map((m) => m.text);
  return `${what} (a confidence rises only where your decisions back it): ${named.join(', ')}.`;
}

function bits(weight: number): string {
  return `${weight >= 0 ? '+' : ''}${weight.toFixed(1)} bits`;
}
