// Learning from a reviewer's decisions, per reason pattern (matching/learned-model.ts, reason-pattern.ts): precision
// first, twins and conflicting names never lifted, a state from another model version never mixed in.
import { describe, expect, it } from 'vitest';
import { CONFIDENCE_MODEL, assessRow, autoAccepts, candidateFacts, rowFacts, rowInput, type RowAssessment } from '../../../electron/engine/matching';
import { emptyLearnedState, learnFrom, learnedSentences, learnedVerdict, supportOf, usableState, MIN_ACCEPTED } from '../../../electron/engine/matching/learned-model';
import { patternWords, reasonPattern } from '../../../electron/engine/matching/reason-pattern';
import { DEFAULT_SETTINGS, type PersonJson } from '../../../shared/model';

const mapping = { fullName: 0, company: 1, email: 2 };
const job = (company: string, ended: string | null = null) => ({ title: 'Engineer', started_at: '2019-01-01', ended_at: ended, company: { name: company } });
const person = (name: string, jobs: object[], extra: object = {}): PersonJson => ({ name, jobs, ...extra });
function assess(row: { name?: string; company?: string; email?: string }, people: PersonJson[]): RowAssessment {
  return assessRow(rowFacts(rowInput([row.name ?? '', row.company ?? '', row.email ?? ''], mapping)), people.map((p, i) => candidateFacts({ rank: i + 1, score: null, person: p })), row.email ? 'email' : 'name+company');
}
const accepted = (v: { confidence: number; runnerUp: number; guard: string | null }) => autoAccepts(v, DEFAULT_SETTINGS.autoAccept);

const nearName = assess({ name: 'Anne Smith', company: 'Globex' }, [person('Anna Smith', [job('Globex Inc.')]), person('Anne Smith', [job('Hooli')])]);
const twins = assess({ name: 'Anna Smith', company: 'Globex' }, [person('Anna Smith', [job('Globex Inc.')]), person('Anna Smith', [job('Globex Inc')])]);
const noCompany = assess({ name: 'Anna Smith' }, [person('Anna Smith', [job('Globex Inc.')])]);
const familyMailbox = assess({ name: 'Anna Smith', email: 'smiths@gmail.com' }, [person('Bob Smith', [job('Globex Inc.')])]);
const nearNameWithRival = assess({ name: 'Anne Smith', company: 'Globex' }, [person('Anna Smith', [job('Globex Inc.')]), person('Annie Smith', [job('Globex')])]);
const label = (a: RowAssessment, right: boolean, times: number) => Array.from({ length: times }, () => ({ pattern: reasonPattern(a)!, right }));

describe('reason patterns', () => {
  it('name the kind of row and how its best candidate compares, in words a reviewer reads', () => {
    expect(reasonPattern(nearName)).toBe('near_name|typo|current_same|none|alone');
    expect(patternWords(reasonPattern(nearName)!)).toBe('with a near name at the same company');
    expect(reasonPattern(twins)!.startsWith('twins|')).toBe(true);
    expect(patternWords(reasonPattern(twins)!)).toBe('with namesakes at the company');
    expect(reasonPattern(nearNameWithRival)!.endsWith('|rival')).toBe(true);
  });
});

describe('learning from decisions', () => {
  it('lifts a near name at the same company once MIN_ACCEPTED such rows were accepted without a rejection, and not before', () => {
    expect(accepted(nearName)).toBe(false);
    const few = learnFrom(label(nearName, true, MIN_ACCEPTED - 1));
    expect(learnedVerdict(nearName, few).learned).toBe(false);
    expect(learnedSentences(few)).toEqual(['You accepted 9 of 9 rows with a near name at the same company: 1 more accepted without a rejection and such rows are lifted.']);
    const enough = learnFrom(label(nearName, true, 18));
    const verdict = learnedVerdict(nearName, enough);
    expect(verdict).toMatchObject({ learned: true, guard: null, confidence: Math.max(19 / 20, nearName.confidence) });
    expect(accepted(verdict)).toBe(true);
    expect(learnedSentences(enough)).toEqual(['You accepted 18 of 18 rows with a near name at the same company: such rows are now at least 95% confident.']);
  });

  it('does not lift a pattern the reviewer rejected even once', () => {
    const state = learnFrom([...label(nearName, true, 40), ...label(nearName, false, 1)]);
    expect(supportOf(state.patterns[reasonPattern(nearName)!])).toBeNull();
    expect(learnedVerdict(nearName, state)).toMatchObject({ learned: false, confidence: nearName.confidence, guard: nearName.guard });
    expect(learnedSentences(state)[0]).toBe('You accepted 40 of 41 rows with a near name at the same company: such rows stay with you, as you rejected some.');
  });

  it('never lifts twins, a name without a company, a family mailbox or a near name beside a rival, however many were accepted', () => {
    for (const row of [twins, noCompany, familyMailbox, nearNameWithRival]) {
      const state = learnFrom(label(row, true, 200));
      const verdict = learnedVerdict(row, state);
      expect(verdict.learned).toBe(false);
      expect(accepted(verdict)).toBe(false);
      expect(learnedSentences(state)[0]).toMatch(/such rows stay with you whatever is learned\.$/u);
    }
  });

  it('says in one sentence what it learned of patterns that are never lifted and read the same', () => {
    const otherTwins = assess({ name: 'Anna Smith', company: 'Globex' }, [person('Anna Smith', [job('Hooli'), job('Globex Inc.', '2021-01-01')]), person('Anna Smith', [job('Initech'), job('Globex', '2020-01-01')])]);
    expect(reasonPattern(otherTwins)).not.toBe(reasonPattern(twins));
    expect(learnedSentences(learnFrom([...label(twins, true, 2), ...label(otherTwins, false, 1)]))).toEqual([
      'You accepted 2 of 3 rows with namesakes at the company: such rows stay with you whatever is learned.',
    ]);
  });

  it('never lowers a confidence, and keeps it a probability below 1', () => {
    const clear = assess({ name: 'Anna Smith', company: 'Globex' }, [person('Anna Smith', [job('Globex Inc.')]), person('Anna Smith', [job('Hooli')])]);
    const state = learnFrom(label(clear, true, 30));
    expect(learnedVerdict(clear, state).confidence).toBe(clear.confidence);
    expect(supportOf({ accepted: 1000, rejected: 0 })!).toBeLessThan(1);
  });

  it('drops, with a note, what was learned under another model version', () => {
    const old = { ...learnFrom(label(nearName, true, 20)), modelVersion: CONFIDENCE_MODEL.version - 1 };
    const { state, note } = usableState(old);
    expect(state).toEqual(emptyLearnedState());
    expect(note).toContain(`model version ${CONFIDENCE_MODEL.version - 1} was dropped`);
    expect(usableState(learnFrom(label(nearName, true, 20))).note).toBeNull();
  });
});
