// Scores what the engine decided on the labeled evaluation set (electron/simulator/evaluation-set.ts): how many
// automatic accepts, how many of them wrong, how many of the rows a careful human would accept alone were
// accepted correctly, and whether the rows left for review still hold the true person among their candidates.
import { EVALUATION_CATEGORIES, type EvaluationCategory, type EvaluationLabel } from '../../electron/simulator/evaluation-set';

/** What the engine did with one row: its state, the person it chose (if any) and the people it offered. */
export interface RowOutcome {
  /** The row state as the engine reports it: 'auto' is an automatic accept; anything else is not. */
  state: string;
  chosenPersonId: string | null;
  candidatePersonIds: readonly string[];
}

export interface QualityFigures {
  rows: number;
  automatic: number;
  /** Automatic accepts of anyone but the row's true person (every one, when the row has none). */
  wrongAutomatic: number;
  /** Right automatic accepts / automatic accepts; null when there were none. */
  precision: number | null;
  /** Wrong automatic accepts / automatic accepts; null when there were none. */
  wrongShare: number | null;
  acceptAloneRows: number;
  /** Right automatic accepts on rows a careful human would accept alone. */
  acceptAloneAccepted: number;
  /** acceptAloneAccepted / acceptAloneRows; null when the category has no such row. */
  coverage: number | null;
  /** Rows not accepted automatically whose true person is known. */
  reviewRowsWithTruth: number;
  /** Of those, rows whose candidates include the true person. */
  truthAmongCandidates: number;
  /** truthAmongCandidates / reviewRowsWithTruth; null when there is no such row. */
  truthAmongCandidatesShare: number | null;
}

export interface QualityScore {
  overall: QualityFigures;
  byCategory: Record<EvaluationCategory, QualityFigures>;
}

const ratio = (part: number, whole: number): number | null => (whole === 0 ? null : part / whole);

function figuresOf(pairs: readonly { label: EvaluationLabel; outcome: RowOutcome }[]): QualityFigures {
  let automatic = 0;
  let wrongAutomatic = 0;
  let acceptAloneRows = 0;
  let acceptAloneAccepted = 0;
  let reviewRowsWithTruth = 0;
  let truthAmongCandidates = 0;
  for (const { label, outcome } of pairs) {
    const auto = outcome.state === 'auto';
    const right = auto && label.truePersonId !== null && outcome.chosenPersonId === label.truePersonId;
    if (auto) automatic++;
    if (auto && !right) wrongAutomatic++;
    if (label.acceptAlone) acceptAloneRows++;
    if (label.acceptAlone && right) acceptAloneAccepted++;
    if (!auto && label.truePersonId !== null) {
      reviewRowsWithTruth++;
      if (outcome.candidatePersonIds.includes(label.truePersonId)) truthAmongCandidates++;
    }
  }
  return {
    rows: pairs.length,
    automatic,
    wrongAutomatic,
    precision: ratio(automatic - wrongAutomatic, automatic),
    wrongShare: ratio(wrongAutomatic, automatic),
    acceptAloneRows,
    acceptAloneAccepted,
    coverage: ratio(acceptAloneAccepted, acceptAloneRows),
    reviewRowsWithTruth,
    truthAmongCandidates,
    truthAmongCandidatesShare: ratio(truthAmongCandidates, reviewRowsWithTruth),
  };
}

/** Per category and overall; `outcomes[i]` is what the engine did with the row labeled `labels[i]`. */
export function scoreEvaluation(labels: readonly EvaluationLabel[], outcomes: readonly RowOutcome[]): QualityScore {
  if (labels.length !== outcomes.length) throw new RangeError(`${labels.length} labels but ${outcomes.length} outcomes: every row needs one of each.`);
  const pairs = labels.map((label, i) => ({ label, outcome: outcomes[i]! }));
  const byCategory = Object.fromEntries(
    EVALUATION_CATEGORIES.map((category) => [category, figuresOf(pairs.filter((p) => p.label.category === category))]),
  ) as Record<EvaluationCategory, QualityFigures>;
  return { overall: figuresOf(pairs), byCategory };
}
