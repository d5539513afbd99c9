// A row of the labeled set as calibration sees it (`npm run calibrate`): the kind of row and every listed
// candidate's raw share, worked out again from the evidence the review shows, since the confidence it shows is
// already calibrated.
import type { RowDetail } from '../../shared/contract';
import { evidenceShares, guardOf, type Levels } from '../../electron/engine/matching/assess-row';
import type { Observation, RowKind } from '../../electron/engine/matching/calibrate';
import type { EvaluationLabel } from '../../electron/simulator/evaluation-set';

const NO_LEVELS: Levels = { name: 'missing', company: 'missing', email: 'missing', profile: 'missing', emailDomain: 'missing', location: 'missing' };

/** Every listed candidate of one row as the calibration sees it: its raw share and whether it is the row's person. */
export function rowObservations(row: RowDetail, label: EvaluationLabel): { kind: RowKind; observations: Observation[] } | null {
  if (row.candidates.length === 0) return null;
  // The evidence shows each field's level and weight; a candidate's weight is the sum of what it shows.
  const judged = row.candidates.map((c) => ({
    rank: c.rank,
    right: c.personId !== null && c.personId === label.truePersonId,
    weight: c.evidence.reduce((sum, e) => sum + e.weight, 0),
    levels: { ...NO_LEVELS, ...Object.fromEntries(c.evidence.map((e) => [e.field, e.level])) } as Levels,
  }));
  const shares = evidenceShares(judged.map((j) => j.weight));
  const ranked = judged.map((j, i) => ({ ...j, share: shares[i]! })).sort((a, b) => b.share - a.share || a.rank - b.rank);
  const guard = guardOf({ nameText: row.input.name, company: row.input.company }, ranked);
  // The same guard the engine found, or the evidence no longer says what the engine weighed.
  if ((guard?.text ?? null) !== row.guard) throw new Error(`Row ${row.rowIndex + 1}: the evidence gives the guard "${guard?.text ?? 'none'}", the engine "${row.guard ?? 'none'}".`);
  return { kind: guard?.kind ?? 'clear', observations: ranked.map((j) => ({ share: j.share, right: j.right })) };
}

