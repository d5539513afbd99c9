// A run settles its rows under what the project learned (runs/row-verdict.ts with a learned state), on the engine's
// thread and on the verdict worker's alike: a near name at the sheet's company is lifted by enough accepted labels of
// its pattern, accepted alone when its figure clears the rule, and left with its guard without them.
import { describe, expect, it } from 'vitest';
import { assessRow, rankedFacts, rowFacts, rowInput, storedFacts } from '../../../electron/engine/matching';
import { LIFTED_REASON, MIN_ACCEPTED, learnFrom } from '../../../electron/engine/matching/learned-model';
import { reasonPattern } from '../../../electron/engine/matching/reason-pattern';
import { rowVerdict, type VerdictContext } from '../../../electron/engine/runs/row-verdict';
import { VerdictThread } from '../../../electron/engine/runs/verdict-thread';
import { DEFAULT_SETTINGS, type Candidate } from '../../../shared/model';

const answer: Candidate[] = [{ rank: 1, score: null, person: { name: 'Anna Smith', jobs: [{ company: { name: 'Globex Inc.' }, title: 'Engineer', started_at: '2020-01-01', ended_at: null }] } }];
const facts = rankedFacts(answer);
const mapping = { fullName: 0, company: 1 };
const cells = JSON.stringify(['Anne Smith', 'Globex']);
const assessed = assessRow(rowFacts(rowInput(['Anne Smith', 'Globex'], mapping)), facts, 'name+company');
const pattern = reasonPattern(assessed)!;
const context = (accepted: number): VerdictContext => ({
  mapping,
  rule: DEFAULT_SETTINGS.autoAccept,
  learned: accepted === 0 ? null : learnFrom(Array.from({ length: accepted }, () => ({ pattern, right: true }))),
  at: '2026-01-02T03:04:05.000Z',
});
/** [state, candidate count, chosen rank, chosen, source, decided at, job change, confidence, runner-up, best rank, reason, guard]. */
const verdictOf = (values: unknown[]) => ({ state: values[0], confidence: values[13] as number, reason: values[16] as string, guard: values[17] });

describe('rows a run settles under what the project learned', () => {
  it('keeps a near name for review with its guard until its pattern\'s labels support it, then accepts it alone at their figure', () => {
    expect(pattern).toBe('near_name|typo|current_same|none|alone');
    for (const accepted of [0, MIN_ACCEPTED - 1]) {
      const before = verdictOf(rowVerdict(cells, 'name+company', facts, context(accepted)));
      expect(before).toMatchObject({ state: 'to_review', confidence: assessed.confidence, guard: 'the name only nearly matches (a nickname, typo or initial)' });
      expect(before.reason.endsWith(LIFTED_REASON)).toBe(false);
    }
    const values = rowVerdict(cells, 'name+company', facts, context(MIN_ACCEPTED));
    const lifted = verdictOf(values);
    const confidence = Math.max((MIN_ACCEPTED + 1) / (MIN_ACCEPTED + 2), assessed.confidence);
    expect(confidence).toBeGreaterThanOrEqual(DEFAULT_SETTINGS.autoAccept.minConfidence);
    expect(lifted).toMatchObject({ state: 'auto', guard: null, confidence });
    expect(lifted.reason.endsWith(LIFTED_REASON)).toBe(true);
    expect(JSON.parse(values[3] as string)).toMatchObject({ rank: 1, confidence, reason: lifted.reason });
    // Stored as numbers, the decision keeps the same confidence, and no reason of its own: the row's is the same.
    expect(values.slice(4, 8)).toEqual([0, null, confidence, null]);
    // A rule above the figure leaves the lifted row for review, its guard lifted: the accept of confident rows takes it.
    const strict = verdictOf(rowVerdict(cells, 'name+company', facts, { ...context(MIN_ACCEPTED), rule: { ...DEFAULT_SETTINGS.autoAccept, minConfidence: 0.999 } }));
    expect(strict).toMatchObject({ state: 'to_review', guard: null, confidence, reason: lifted.reason });
  });

  it('works out the same on the verdict worker thread', async () => {
    const thread = VerdictThread.start()!;
    try {
      for (const accepted of [0, MIN_ACCEPTED - 1, MIN_ACCEPTED]) {
        const [values] = await thread.verdicts([{ strategy: 'name+company', facts: storedFacts(facts), cells: [cells] }], context(accepted));
        expect(values).toEqual([rowVerdict(cells, 'name+company', facts, context(accepted))]);
      }
    } finally {
      await thread.close();
    }
  });
});
