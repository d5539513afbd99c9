// The model's m figures estimated again from a sheet's own candidate pairs and its reviewer's labels (EM,
// matching/sheet-weights.ts), and what they may do to a verdict (learned-model.ts): lower a confidence anywhere, raise
// one only where the labels support the row's pattern; twins and conflicting names stay with the reviewer.
import { describe, expect, it } from 'vitest';
import { CONFIDENCE_MODEL, assessRow, autoAccepts, candidateFacts, rowFacts, rowInput, type RowAssessment } from '../../../electron/engine/matching';
import { evidenceShares, type Levels } from '../../../electron/engine/matching/assess-row';
import { weightOf as appWeight } from '../../../electron/engine/matching/confidence-model';
import { learnFrom, learnedSentences, learnedVerdict, sheetConfidence, type LearnedState } from '../../../electron/engine/matching/learned-model';
import { reasonPattern } from '../../../electron/engine/matching/reason-pattern';
import { MIN_PAIRS, estimateSheetWeights, sheetShares, type SheetRow } from '../../../electron/engine/matching/sheet-weights';
import { DEFAULT_SETTINGS, type PersonJson } from '../../../shared/model';

const NONE: Levels = { name: 'missing', company: 'missing', email: 'missing', profile: 'missing', emailDomain: 'missing', location: 'missing' };
const pair = (levels: Partial<Levels>): Levels => ({ ...NONE, ...levels });
const times = <T>(n: number, make: () => T): T[] => Array.from({ length: n }, make);

/**
 * A sheet whose people go by initials: the person is an initial at the sheet's company, beside a namesake elsewhere;
 * and rows of the exact name at the company, beside someone of another name.
 */
function initialsSheet(): SheetRow[] {
  return [
    ...times(300, () => ({ levels: [pair({ name: 'initial', company: 'current_same' }), pair({ name: 'exact', company: 'differs' })] })),
    ...times(300, () => ({ levels: [pair({ name: 'exact', company: 'current_same' }), pair({ name: 'differs', company: 'differs' })] })),
  ];
}

const weightOf = (w: { m: number; u: number }) => Math.log2(w.m / w.u);

describe('the model estimated again from the sheet (EM)', () => {
  it('raises the m of a level the sheet\'s people show, keeps u and the levels it seldom shows as the app has them', async () => {
    const weights = await estimateSheetWeights(initialsSheet());
    const name = weights.comparisons.name.levels;
    const app = CONFIDENCE_MODEL.comparisons.name.levels;
    expect(name.initial.m).toBeGreaterThan(app.initial.m * 2);
    expect(weightOf(name.initial)).toBeGreaterThan(weightOf(app.initial));
    for (const [level, l] of Object.entries(name)) expect(l.u, level).toBe((app as Record<string, { u: number }>)[level]!.u);
    // Seen on no pair, or fewer than MIN_PAIRS: the app's figures, saying why.
    expect(name.typo).toMatchObject({ m: app.typo.m, u: app.typo.u, pairs: 0 });
    expect(name.typo.why).toContain('too few to tell');
    expect(name.initial.why).toMatch(/^m 0\.02 -> [\d.]+, from the 300 pairs of this sheet that had it; u the app's\.$/u);
    expect(weights.comparisons.email.levels.found_by.m).toBe(CONFIDENCE_MODEL.comparisons.email.levels.found_by.m);
    expect(weights.estimatedFrom).toMatchObject({ rows: 600, pairs: 1200, labels: 0 });
    expect(weights.estimatedFrom.iterations).toBeGreaterThan(1);
    // Readable as data: the whole object survives JSON, as the project stores it.
    expect(JSON.parse(JSON.stringify(weights))).toEqual(weights);
  });

  it('holds a decided row at what the reviewer said, and leaves out an unlabelled row an e-mail or profile hit decides', async () => {
    // Near names elsewhere: the app's figures say such a candidate is hardly ever the person; the reviewer said it was.
    const typos = (label?: number) => times(MIN_PAIRS, (): SheetRow => ({ levels: [pair({ name: 'typo', company: 'differs' })], ...(label === undefined ? {} : { label }) }));
    const fromLabels = await estimateSheetWeights([...initialsSheet(), ...typos(0)]);
    const unlabelled = await estimateSheetWeights([...initialsSheet(), ...typos()]);
    expect(fromLabels.comparisons.name.levels.typo.m).toBeGreaterThan(unlabelled.comparisons.name.levels.typo.m * 2);
    expect(fromLabels.estimatedFrom.labels).toBe(MIN_PAIRS);

    const hits = times(200, (): SheetRow => ({ levels: [pair({ name: 'differs', email: 'found_by' })] }));
    const withHits = await estimateSheetWeights([...initialsSheet(), ...hits]);
    const alone = await estimateSheetWeights(initialsSheet());
    expect(withHits.estimatedFrom.rows).toBe(600);
    expect(withHits.comparisons.name.levels.differs).toEqual(alone.comparisons.name.levels.differs);
  });

  it('hears a cancel between iterations', async () => {
    const stop = new Error('cancelled');
    await expect(estimateSheetWeights(initialsSheet(), async () => Promise.reject(stop))).rejects.toBe(stop);
  });

  it('gives the app\'s shares back on a sheet with nothing to estimate from', async () => {
    const weights = await estimateSheetWeights([]);
    const levels = [pair({ name: 'exact', company: 'current_same' }), pair({ name: 'typo', company: 'differs' })];
    const app = evidenceShares(levels.map((l) => appWeight('name', l.name) + appWeight('company', l.company)));
    const shares = sheetShares(levels, weights);
    expect(shares[0]).toBeCloseTo(app[0]!, 10);
    expect(shares[1]).toBeCloseTo(app[1]!, 10);
  });
});

const mapping = { fullName: 0, company: 1, email: 2 };
const job = (company: string) => ({ title: 'Engineer', started_at: '2019-01-01', ended_at: null, company: { name: company } });
const person = (name: string, company: string): PersonJson => ({ name, jobs: [job(company)] });
function assess(row: { name: string; company: string }, people: PersonJson[]): RowAssessment {
  return assessRow(rowFacts(rowInput([row.name, row.company, ''], mapping)), people.map((p, i) => candidateFacts({ rank: i + 1, score: null, person: p })), 'name+company');
}
/** An initial at another company: a near name, alone, which the labels of its pattern may lift. */
const initialElsewhere = assess({ name: 'J. Smith', company: 'Globex' }, [person('John Smith', 'Hooli')]);
/** The exact name, not at the sheet's company: a row the sheet's figures may find less likely than the app does. */
const exactElsewhere = assess({ name: 'Anna Smith', company: 'Globex' }, [person('Anna Smith', 'Hooli')]);
const twins = assess({ name: 'Anna Smith', company: 'Globex' }, [person('Anna Smith', 'Globex Inc.'), person('Anna Smith', 'Globex')]);
const accepted = (v: { confidence: number; runnerUp: number; guard: string | null }) => autoAccepts(v, DEFAULT_SETTINGS.autoAccept);
const labelsOf = (a: RowAssessment, n: number) => Array.from({ length: n }, () => ({ pattern: reasonPattern(a)!, right: true }));

describe('a verdict under the sheet\'s figures', () => {
  it('may raise a row only where its pattern\'s labels support it', async () => {
    const weights = await estimateSheetWeights(initialsSheet());
    expect(reasonPattern(initialElsewhere)).toBe('near_name|initial|differs|none|alone');
    const sheet = sheetConfidence(initialElsewhere, weights);
    expect(sheet).toBeGreaterThan(initialElsewhere.confidence);
    // Without labels the sheet's higher figure is not taken: the row stays with the reviewer, as the app said.
    const unlabelled: LearnedState = { ...learnFrom([]), weights };
    expect(learnedVerdict(initialElsewhere, unlabelled)).toMatchObject({ learned: false, confidence: initialElsewhere.confidence, guard: initialElsewhere.guard });
    // Labels that support the pattern lift it, to the higher of their figure and the sheet's.
    expect(learnedVerdict(initialElsewhere, { ...learnFrom(labelsOf(initialElsewhere, 30)), weights })).toMatchObject({ learned: true, guard: null, confidence: Math.max(31 / 32, sheet) });
  });

  it('lowers a confidence the sheet says is lower, keeping the guard; twins stay with the reviewer however many were accepted', async () => {
    // A sheet whose people go by nicknames, where the exact name elsewhere is never the person.
    const rows: SheetRow[] = [
      ...times(300, () => ({ levels: [pair({ name: 'nickname', company: 'current_same' })], label: 0 })),
      ...times(300, () => ({ levels: [pair({ name: 'exact', company: 'differs' })], label: null })),
    ];
    const weights = await estimateSheetWeights(rows);
    expect(weights.comparisons.name.levels.exact.m).toBeLessThan(CONFIDENCE_MODEL.comparisons.name.levels.exact.m);
    const lowered = learnedVerdict(exactElsewhere, { ...learnFrom([]), weights });
    expect(lowered).toMatchObject({ learned: false, guard: exactElsewhere.guard });
    expect(lowered.confidence).toBeLessThan(exactElsewhere.confidence);

    const verdict = learnedVerdict(twins, { ...learnFrom(labelsOf(twins, 200)), weights });
    expect(verdict).toMatchObject({ learned: false, guard: twins.guard });
    expect(verdict.confidence).toBeLessThanOrEqual(twins.confidence);
    expect(accepted(verdict)).toBe(false);
  });

  it('says in a sentence what the sheet changed, after what the labels taught', async () => {
    const weights = await estimateSheetWeights(initialsSheet());
    const sentences = learnedSentences({ ...learnFrom([]), weights });
    expect(sentences).toHaveLength(1);
    expect(sentences[0]).toMatch(/^The model weighed its evidence again on 600 of this sheet's rows and your 0 decisions \(a confidence rises only where your decisions back it\): only an initial \+[\d.]+ bits \(was -1\.0 bits\)/u);
  });
});
