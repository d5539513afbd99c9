// The confidence model against the rules of issue 10: what is never accepted alone, what is, and that every
// decision comes with a confidence and a reason a person can read. Candidates are person records as the service
// sends them (no score); rows are sheet cells through the same rowInput the engine uses.
import { describe, expect, it } from 'vitest';
import { CONFIDENCE_MODEL, assessRow, autoAccepts, candidateFacts, rowFacts, rowInput, type RowAssessment } from '../../../electron/engine/matching';
import { calibrated } from '../../../electron/engine/matching/calibrate';
import { DEFAULT_SETTINGS, type PersonJson, type Strategy } from '../../../shared/model';

const mapping = { fullName: 0, company: 1, email: 2, profile: 3, location: 4 };
const job = (company: string, ended: string | null = null, domain?: string) => ({ title: 'Engineer', started_at: '2019-01-01', ended_at: ended, company: { name: company, ...(domain ? { domain } : {}) } });
const person = (name: string, jobs: object[], extra: object = {}): PersonJson => ({ name, jobs, ...extra });

function assess(row: { name?: string; company?: string; email?: string; profile?: string; location?: string }, strategy: Strategy, people: PersonJson[]): RowAssessment {
  const cells = [row.name ?? '', row.company ?? '', row.email ?? '', row.profile ?? '', row.location ?? ''];
  return assessRow(rowFacts(rowInput(cells, mapping)), people.map((p, i) => candidateFacts({ rank: i + 1, score: null, person: p })), strategy);
}
const accepted = (a: RowAssessment) => autoAccepts(a, DEFAULT_SETTINGS.autoAccept);

describe('what is accepted alone', () => {
  it('the one candidate with the exact name who works at the sheet\'s company, among namesakes and a near-name colleague', () => {
    const a = assess({ name: 'Anna Smith', company: 'Globex' }, 'name+company', [
      person('Anna Smith', [job('Hooli')]),
      person('Anna Smith', [job('Globex Inc.')]),
      person('Anne Smith', [job('Globex Inc')]),
      person('Anna Smith', [job('Initech')]),
    ]);
    expect(accepted(a)).toBe(true);
    expect(a.candidates[0]!.rank).toBe(2);
    expect(a.confidence).toBeGreaterThanOrEqual(0.95);
    expect(a.reason).toBe('same name, works at Globex Inc. now; the only candidate with this name who does');
    // The near-name colleague ranks above the namesakes elsewhere.
    expect(a.candidates[1]!.rank).toBe(3);
  });

  it('the one who held the sheet\'s company in the past, saying when they left and where they are now', () => {
    const a = assess({ name: 'Anna Smith', company: 'Globex' }, 'name+company', [person('Anna Smith', [job('Hooli'), job('Globex Inc.', '2023-05-01')]), person('Anna Smith', [job('Initech')])]);
    expect(accepted(a)).toBe(true);
    expect(a.reason).toBe('same name, worked at Globex Inc. until 2023-05-01 (now at Hooli); the only candidate with this name who did');
  });

  it('a company spelled another way: legal form, case, "&" for "and", ü for ue', () => {
    const a = assess({ name: 'Jürgen Müller', company: 'MUELLER AND SOEHNE' }, 'name+company', [person('Juergen Mueller', [job('Müller & Söhne GmbH')]), person('Jürgen Müller', [job('BMW')])]);
    expect(accepted(a)).toBe(true);
  });

  it('a single e-mail hit whose name agrees, or with no name in the sheet', () => {
    const agrees = assess({ name: 'Anna Smith', company: 'Globex', email: 'anna@globex.com' }, 'email', [person('Anna Smith', [job('Globex Inc.', null, 'globex.com')])]);
    expect(accepted(agrees)).toBe(true);
    expect(agrees.reason).toBe("found by this e-mail, same name, works at Globex Inc. now, e-mail domain is the current employer's");
    expect(accepted(assess({ email: 'anna@gmail.com' }, 'email', [person('Anna Smith', [job('Globex Inc.')])]))).toBe(true);
    // Half the name agreeing (a married name) is not a conflict.
    expect(accepted(assess({ name: 'Anna Smith', email: 'anna@gmail.com' }, 'email', [person('Anna Jones', [])]))).toBe(true);
  });

  it('a single profile hit, the record repeating the slug or not', () => {
    expect(accepted(assess({ name: 'Anna Smith', profile: 'https://www.linkedin.com/in/anna-smith-42' }, 'social', [person('Anna Smith', [], { linkedin: 'anna-smith-42' })]))).toBe(true);
    expect(accepted(assess({ profile: 'anna-smith-42' }, 'social', [person('Anna Smith', [])]))).toBe(true);
  });
});

describe('what is never accepted alone', () => {
  it('two candidates with the sheet\'s name who both hold or held the sheet\'s company', () => {
    const a = assess({ name: 'Anna Smith', company: 'Globex' }, 'name+company', [person('Anna Smith', [job('Globex Inc.')]), person('Anna Smith', [job('Hooli'), job('Globex', '2022-01-01')])]);
    expect(accepted(a)).toBe(false);
    expect(a.guard).toBe('2 candidates have this name and hold or held Globex');
    // Not flattened to a cap: about an even chance each, as twins turn out.
    expect(a.kind).toBe('twins');
    expect(a.confidence).toBeGreaterThan(0.3);
    expect(a.confidence).toBeLessThan(0.7);
  });

  it('a name without a company, however few candidates come back', () => {
    const a = assess({ name: 'Anna Smith' }, 'name', [person('Anna Smith', [job('Globex')])]);
    expect(a.guard).toBe('no company in the sheet to tell namesakes apart');
    expect(accepted(a)).toBe(false);
    expect(a.kind).toBe('no_company');
  });

  it('a nickname, a typo or an initial without an e-mail or profile hit, though it ranks first', () => {
    for (const name of ['Bob Smith', 'Robrt Smith', 'R. Smith']) {
      const a = assess({ name, company: 'Globex' }, 'name+company', [person('Robert Smith', [job('Globex Inc.')]), person('Robert Smith', [job('Hooli')])]);
      expect(a.candidates[0]!.rank).toBe(1);
      expect(a.guard).toMatch(/only nearly matches/);
      expect(accepted(a)).toBe(false);
    }
  });

  it('an e-mail or profile hit on someone whose first and last name both differ, shown as such rows turn out: hardly ever the person', () => {
    const email = assess({ name: 'Anna Smith', company: 'Globex', email: 'info@globex.com' }, 'email', [person('Peter Jones', [job('Globex Inc.')])]);
    expect(email.guard).toBe("the e-mail belongs to someone whose first and last name both differ from the sheet's");
    expect(email.confidence).toBeLessThanOrEqual(0.3);
    expect(accepted(email)).toBe(false);
    const profile = assess({ name: 'Anna Smith', profile: 'anna-smith-42' }, 'social', [person('Peter Jones', [], { linkedin: 'anna-smith-42' })]);
    expect(accepted(profile)).toBe(false);
  });

  it('an e-mail hit on someone with the sheet\'s last name but another first name: a family mailbox', () => {
    const a = assess({ name: 'Peter Smith', email: 'smiths@gmail.com' }, 'email', [person('John Smith', [])]);
    expect(a.guard).toBe("the e-mail belongs to someone with the sheet's last name but another first name");
    expect(accepted(a)).toBe(false);
  });

  it('an e-mail that found several people', () => {
    const a = assess({ name: 'Anna Smith', email: 'team@globex.com' }, 'email', [person('Anna Smith', []), person('Anna Smith', [])]);
    expect(a.guard).toBe('the e-mail found 2 people');
    expect(accepted(a)).toBe(false);
  });

  it('nobody with the sheet\'s name at the sheet\'s company: namesakes elsewhere, colleagues with other names', () => {
    const a = assess({ name: 'Anna Smith', company: 'Globex' }, 'name+company', [person('Anna Smith', [job('Hooli')]), person('Peter Jones', [job('Globex')])]);
    expect(accepted(a)).toBe(false);
    expect(a.guard).toBe('no candidate has the sheet\'s name');
    expect(a.confidence).toBeLessThan(0.5);
  });
});

describe('every field counts, for and against', () => {
  it('a city in the sheet lifts the namesake who lives there', () => {
    const people = [person('Anna Smith', [job('Globex')], { location: 'Berlin, Berlin, Germany' }), person('Anna Smith', [job('Globex')], { location: 'Austin, Texas, United States' })];
    const a = assess({ name: 'Anna Smith', company: 'Globex', location: 'Austin' }, 'name+company', people);
    expect(a.candidates[0]!.rank).toBe(2);
    expect(a.candidates[0]!.evidence.find((e) => e.field === 'location')).toMatchObject({ level: 'same_city', note: 'same city' });
    // Still two namesakes at one employer: ranked, not accepted.
    expect(accepted(a)).toBe(false);
  });

  it('a work e-mail at a company the person holds counts even when the e-mail itself found nobody', () => {
    const a = assess({ name: 'Anna Smith', company: 'Globex', email: 'a.smith@globex.com' }, 'name+company', [person('Anna Smith', [job('Globex Inc.', null, 'globex.com')])]);
    expect(a.candidates[0]!.evidence.map((e) => [e.field, e.level])).toEqual([
      ['name', 'exact'],
      ['company', 'current_same'],
      ['emailDomain', 'current_company'],
    ]);
  });

  it('gives each candidate its share: the shares of a row and the chance of nobody add up to one', () => {
    const a = assess({ name: 'Anna Smith', company: 'Globex' }, 'name+company', [person('Anna Smith', [job('Hooli')]), person('Anna Smith', [job('Initech')])]);
    const total = a.candidates.reduce((sum, c) => sum + c.share, 0);
    expect(total).toBeGreaterThan(0);
    expect(total).toBeLessThan(1);
  });
});

describe('the confidence is a probability, and a guard does not flatten it', () => {
  const RULE = DEFAULT_SETTINGS.autoAccept;

  it('each candidate\'s confidence is its share, calibrated for the kind of row', () => {
    const rows = [
      assess({ name: 'Anna Smith', company: 'Globex' }, 'name+company', [person('Anna Smith', [job('Globex Inc.')]), person('Anna Smith', [job('Hooli')])]),
      assess({ name: 'Anna Smith', company: 'Globex' }, 'name+company', [person('Anna Smith', [job('Globex Inc.')]), person('Anna Smith', [job('Globex', '2022-01-01')])]),
      assess({ name: 'Anna Smith' }, 'name', [person('Anna Smith', [job('Globex')]), person('Anna Smith', [job('Hooli')])]),
    ];
    expect(rows.map((a) => a.kind)).toEqual(['clear', 'twins', 'no_company']);
    for (const a of rows) {
      for (const c of a.candidates) expect(c.confidence).toBe(calibrated(CONFIDENCE_MODEL.calibration, a.kind!, c.share));
      expect(a.confidence).toBe(a.candidates[0]!.confidence);
      expect(a.runnerUp).toBe(a.candidates[1]!.confidence);
    }
  });

  it('a one-letter typo at the sheet\'s company, the only candidate: shown as such rows turn out, above the old 0.8 cap, and still never accepted alone', () => {
    const a = assess({ name: 'Robert Smiht', company: 'Globex' }, 'name+company', [person('Robert Smith', [job('Globex Inc.')])]);
    expect(a.kind).toBe('near_name');
    expect(a.guard).toMatch(/only nearly matches/);
    expect(a.confidence).toBeGreaterThan(0.8);
    expect(accepted(a)).toBe(false);
    // A guard blocks the accept whatever the figures say.
    expect(autoAccepts({ confidence: 1, runnerUp: 0, guard: a.guard }, RULE)).toBe(false);
    expect(autoAccepts({ confidence: 1, runnerUp: 0, guard: null }, RULE)).toBe(true);
  });

  it('no guarded kind of row is accepted, however strong its best candidate', () => {
    const guarded = [
      assess({ name: 'Anna Smith', company: 'Globex' }, 'name+company', [person('Anna Smith', [job('Globex Inc.')]), person('Anna Smith', [job('Globex Inc.')])]),
      assess({ name: 'Anna Smith' }, 'name', [person('Anna Smith', [job('Globex')])]),
      assess({ name: 'Bob Smith', company: 'Globex' }, 'name+company', [person('Robert Smith', [job('Globex Inc.')])]),
      assess({ name: 'Anna Smith', company: 'Globex' }, 'name+company', [person('Anna Smith', [job('Hooli')])]),
      assess({ name: 'Anna Smith', company: 'Globex', email: 'info@globex.com' }, 'email', [person('Peter Jones', [job('Globex Inc.')])]),
      assess({ name: 'Peter Smith', email: 'smiths@gmail.com' }, 'email', [person('John Smith', [])]),
      assess({ name: 'Anna Smith', email: 'team@globex.com' }, 'email', [person('Anna Smith', []), person('Anna Smith', [])]),
    ];
    expect(guarded.map((a) => a.kind)).toEqual(['twins', 'no_company', 'near_name', 'not_at_company', 'hit_other_name', 'hit_family_name', 'several_hits']);
    for (const a of guarded) {
      expect(a.guard).not.toBeNull();
      expect(accepted(a)).toBe(false);
      expect(accepted({ ...a, confidence: 1, runnerUp: 0 })).toBe(false);
    }
  });

  it('says what a person checks for a best candidate whose employer is only close to the sheet\'s, or unknown there', () => {
    const guardFor = (jobs: object[]) => assess({ name: 'Anna Smith', company: 'Meridianbridge' }, 'name+company', [person('Anna Smith', jobs)]).guard;
    expect(guardFor([job('Meridianbridge Data AB')])).toBe('works at a company whose name is only close to Meridianbridge');
    expect(guardFor([job('Hooli'), job('Meridianbridge Data AB', '2023-01-01')])).toBe('worked at a company whose name is only close to Meridianbridge');
    expect(guardFor([job('Hooli')])).toBe('not known to work or have worked at Meridianbridge');
    expect(guardFor([])).toBe('not known to work or have worked at Meridianbridge');
  });

  it('never words a guarded row as certain', () => {
    const twins = assess({ name: 'Anna Smith', company: 'Globex' }, 'name+company', [person('Anna Smith', [job('Globex Inc.')]), person('Anna Smith', [job('Globex Inc.')])]);
    expect(twins.reason).toBe('same name, works at Globex Inc. now; 2 candidates have this name and hold or held Globex');
    expect(twins.reason).not.toMatch(/certain|sure|the only candidate/);
  });
});

describe('odd records', () => {
  it('a record with no name, no jobs, jobs without a company or odd dates gets a lower confidence and a reason, never a throw', () => {
    const odd: PersonJson[] = [
      {},
      { jobs: 'several' },
      { name: 42, jobs: [{ company: null, ended_at: 'sometime' }, { company: { name: ['x'] } }, null] },
      { name: 'Anna Smith', jobs: [{ company: 'Globex', started_at: 20190101, ended_at: 'March 2023' }] },
      { first_name: 'Anna', last_name: 'Smith', position: { title: 'CTO', company: { name: 'Globex' } } },
    ];
    const a = assess({ name: 'Anna Smith', company: 'Globex' }, 'name+company', odd);
    expect(a.candidates).toHaveLength(5);
    for (const c of a.candidates) {
      expect(c.reason.length).toBeGreaterThan(0);
      expect(Number.isFinite(c.confidence)).toBe(true);
    }
    expect(a.candidates.find((c) => c.rank === 1)!.reason).toBe('the record has no name, the record lists no jobs');
    expect(a.candidates.find((c) => c.rank === 4)!.evidence.find((e) => e.field === 'company')!.note).toBe('worked at Globex until 2023-03');
    // The position of a record without a job list counts as its current job.
    expect(a.candidates.find((c) => c.rank === 5)!.levels.company).toBe('current_same');
    expect(accepted(a)).toBe(false);
  });

  it('no candidates at all', () => {
    expect(assess({ name: 'Anna Smith', company: 'Globex' }, 'name+company', [])).toMatchObject({ candidates: [], confidence: 0, reason: 'The service found nobody for this row.' });
  });
});

describe("cells that name an object's own properties", () => {
  it.each(['Constructor', 'toString', '__proto__', 'hasOwnProperty'])('a location and a profile link of "%s" read as any unknown text would', (text) => {
    const a = assess({ name: 'Anna Smith', company: 'Globex', location: text, profile: `https://www.linkedin.com/${text}/x` }, 'name+company', [
      person('Anna Smith', [job('Globex Inc.')], { location: 'Berlin, Germany' }),
    ]);
    expect(a.candidates[0]!.evidence.find((e) => e.field === 'location')).toMatchObject({ level: 'differs', mark: 'differs' });
  });
});
