// The scorer's arithmetic on hand-made rows, where every figure can be counted by eye.
import { describe, expect, it } from 'vitest';
import type { EvaluationCategory, EvaluationLabel } from '../../electron/simulator/evaluation-set';
import { qualityChecks } from '../../bench/quality/quality-targets';
import { scoreEvaluation, type RowOutcome } from '../../bench/quality/score-evaluation';

const label = (category: EvaluationCategory, truePersonId: string | null, acceptAlone: boolean): EvaluationLabel => ({ category, truePersonId, acceptAlone, reason: 'hand-made', companyId: null });
const outcome = (state: string, chosenPersonId: string | null, ...candidatePersonIds: string[]): RowOutcome => ({ state, chosenPersonId, candidatePersonIds });

describe('scoreEvaluation', () => {
  const rows: [EvaluationLabel, RowOutcome][] = [
    // e-mail: 3 rows to accept alone; 2 accepted right, 1 left for review with the person among its candidates.
    [label('email', 'p1', true), outcome('auto', 'p1', 'p1')],
    [label('email', 'p2', true), outcome('auto', 'p2', 'p2')],
    [label('email', 'p3', true), outcome('to_review', null, 'p3')],
    // name + company: one accepted right, one accepted wrongly (a namesake), one left without the person.
    [label('name_company_current', 'p4', true), outcome('auto', 'p4', 'p4', 'p9')],
    [label('name_company_current', 'p5', true), outcome('auto', 'p8', 'p8', 'p5')],
    [label('name_company_current', 'p6', false), outcome('no_candidates', null)],
    // twins: one wrong accept is wrong whoever it picks... unless it is the true person, which still is an accept.
    [label('twins', 'p7', false), outcome('auto', 'p7', 'p7', 'p17')],
    [label('twins', 'p10', false), outcome('to_review', null, 'p17', 'p10')],
    // absent: any accept is wrong; rows without a true person never count for "true person among candidates".
    [label('absent', null, false), outcome('auto', 'p11', 'p11')],
    [label('absent', null, false), outcome('to_review', null, 'p12')],
    // a choice made by hand is not an automatic accept.
    [label('near_name', 'p13', false), outcome('accepted', 'p13', 'p13')],
  ];
  const score = scoreEvaluation(rows.map(([l]) => l), rows.map(([, o]) => o));

  it('counts per category', () => {
    expect(score.byCategory.email).toEqual({
      rows: 3, automatic: 2, wrongAutomatic: 0, precision: 1, wrongShare: 0, acceptAloneRows: 3, acceptAloneAccepted: 2, coverage: 2 / 3,
      reviewRowsWithTruth: 1, truthAmongCandidates: 1, truthAmongCandidatesShare: 1,
    });
    expect(score.byCategory.name_company_current).toEqual({
      rows: 3, automatic: 2, wrongAutomatic: 1, precision: 0.5, wrongShare: 0.5, acceptAloneRows: 2, acceptAloneAccepted: 1, coverage: 0.5,
      reviewRowsWithTruth: 1, truthAmongCandidates: 0, truthAmongCandidatesShare: 0,
    });
    expect(score.byCategory.twins).toMatchObject({ automatic: 1, wrongAutomatic: 0, acceptAloneRows: 0, coverage: null, reviewRowsWithTruth: 1, truthAmongCandidates: 1 });
    expect(score.byCategory.absent).toMatchObject({ automatic: 1, wrongAutomatic: 1, precision: 0, reviewRowsWithTruth: 0, truthAmongCandidatesShare: null });
    expect(score.byCategory.near_name).toMatchObject({ rows: 1, automatic: 0, precision: null, wrongShare: null, reviewRowsWithTruth: 1, truthAmongCandidates: 1 });
    expect(score.byCategory.profile).toEqual({
      rows: 0, automatic: 0, wrongAutomatic: 0, precision: null, wrongShare: null, acceptAloneRows: 0, acceptAloneAccepted: 0, coverage: null,
      reviewRowsWithTruth: 0, truthAmongCandidates: 0, truthAmongCandidatesShare: null,
    });
  });

  it('sums the categories into the overall figures', () => {
    expect(score.overall).toEqual({
      rows: 11, automatic: 6, wrongAutomatic: 2, precision: 4 / 6, wrongShare: 2 / 6, acceptAloneRows: 5, acceptAloneAccepted: 3, coverage: 3 / 5,
      reviewRowsWithTruth: 4, truthAmongCandidates: 3, truthAmongCandidatesShare: 3 / 4,
    });
  });

  it('refuses labels and outcomes of different lengths', () => {
    expect(() => scoreEvaluation([label('email', 'p1', true)], [])).toThrow(/1 labels but 0 outcomes/);
  });
});

describe('qualityChecks', () => {
  it('measures the targets of issue 10 and says which are met', () => {
    const perfect: [EvaluationLabel, RowOutcome][] = [
      [label('email', 'p1', true), outcome('auto', 'p1', 'p1')],
      [label('twins', 'p2', false), outcome('to_review', null, 'p2', 'p3')],
      [label('conflicting_name', null, false), outcome('to_review', null, 'p4')],
    ];
    const good = qualityChecks(scoreEvaluation(perfect.map(([l]) => l), perfect.map(([, o]) => o)));
    expect(good.map((c) => [c.id, c.value, c.pass])).toEqual([
      ['quality_wrong_automatic', 0, true],
      ['quality_coverage', 100, true],
      ['quality_auto_twins', 0, true],
      ['quality_auto_absent', 0, true],
      ['quality_auto_conflicting', 0, true],
      ['quality_truth_in_review', 100, true],
    ]);
    const bad = qualityChecks(scoreEvaluation([...perfect.map(([l]) => l), label('conflicting_name', null, false)], [...perfect.map(([, o]) => o), outcome('auto', 'p5', 'p5')]));
    expect(bad.find((c) => c.id === 'quality_wrong_automatic')).toMatchObject({ value: 50, pass: false });
    expect(bad.find((c) => c.id === 'quality_auto_conflicting')).toMatchObject({ value: 1, pass: false });
  });
});
