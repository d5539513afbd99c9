// The evaluation set's labels checked against the dataset itself, by brute force: what each label claims about
// the people (one of that name at that company, two, nobody, a mailbox of someone else) must be so.
import { describe, expect, it } from 'vitest';
import { buildDataset, type Company, type Person } from '../../electron/simulator';
import { EVALUATION_CATEGORIES, EVALUATION_HEADERS, buildEvaluationSet, companySpellings, jobChangeTruth, type EvaluationLabel } from '../../electron/simulator/evaluation-set';
import { foldText } from '../../electron/simulator/scoring';

const PER_CATEGORY = 120;
const dataset = buildDataset(20_000, 2);
const people = dataset.people;
const set = buildEvaluationSet(dataset, { seed: 2, rowsPerCategory: PER_CATEGORY });

const byId = new Map(people.map((p) => [p.id, p]));
const byEmail = new Map(people.map((p) => [p.email_address, p]));
const folded = new Map(people.map((p) => [p, foldText(p.name)]));
const holds = (p: Person, company: Company) => p.jobs.some((j) => j.company.id === company.id);
/** Everyone with this folded name (who holds or held the company), from every person of the dataset. */
const byName = new Map<string, Person[]>();
for (const p of people) byName.set(folded.get(p)!, [...(byName.get(folded.get(p)!) ?? []), p]);
const named = (name: string) => byName.get(foldText(name)) ?? [];
const holders = (name: string, company: Company) => named(name).filter((p) => holds(p, company));
const current = (p: Person) => (p.jobs[0]?.ended_at === null ? p.jobs[0].company : null);

/**
 * The company a sheet's spelling means, found independently of the simulator's matcher: the spelling and the
 * company's name agree once case, accents, umlaut spellings (ue/ü), "&"/"and", "The", legal forms and spaces go.
 */
function companyKey(name: string): string {
  return companyWords(name).join('');
}

function companyWords(name: string): string[] {
  return name
    .toLowerCase()
    .replace(/ä|ae/g, 'a').replace(/ö|oe/g, 'o').replace(/ü|ue/g, 'u').replace(/ß/g, 'ss')
    .normalize('NFKD').replace(/\p{M}/gu, '')
    .replace(/&/g, ' and ')
    .replace(/[^a-z0-9łø ]+/g, ' ')
    .split(/\s+/)
    .filter((w) => w && !['the', 'and', 'company', 'co', 'inc', 'llc', 'ltd', 'gmbh', 'sa', 'ag', 'bv', 'plc', 'corp', 'aps', 'ab'].includes(w));
}

/** The keys of the words a name begins with: "Blue Harbor Labs" begins "blue", "blueharbor" and "blueharborlabs". */
function beginnings(name: string): string[] {
  const words = companyWords(name);
  return words.map((_, n) => words.slice(0, n + 1).join(''));
}
const companyKeys = dataset.companies.map((c) => [c, companyKey(c.name)] as const);

function companyMeant(written: string): Company[] {
  const wanted = companyKey(written);
  return companyKeys.filter(([, key]) => key === wanted).map(([c]) => c);
}

function rowsOf(category: string): { cells: string[]; label: EvaluationLabel }[] {
  return set.labels.flatMap((label, i) => (label.category === category ? [{ cells: set.rows[i]!, label }] : []));
}

const cell = (cells: string[], header: (typeof EVALUATION_HEADERS)[number]) => cells[EVALUATION_HEADERS.indexOf(header)]!;
const nameCell = (cells: string[]) => cell(cells, 'Full Name').trim().replace(/\s+/g, ' ');

describe('evaluation set', () => {
  it('is the same for the same dataset and seed, and another for another seed', () => {
    expect(JSON.stringify(buildEvaluationSet(dataset, { seed: 2, rowsPerCategory: PER_CATEGORY }))).toBe(JSON.stringify(set));
    expect(JSON.stringify(buildEvaluationSet(dataset, { seed: 3, rowsPerCategory: PER_CATEGORY }))).not.toBe(JSON.stringify(set));
  });

  it('has every category, each at the size asked for, one label per CSV-ready row', () => {
    expect(set.headers).toEqual([...EVALUATION_HEADERS]);
    expect(set.labels).toHaveLength(set.rows.length);
    for (const category of EVALUATION_CATEGORIES) expect(rowsOf(category).length, category).toBe(PER_CATEGORY);
    expect(set.rows.every((r) => r.length === EVALUATION_HEADERS.length && r.every((c) => typeof c === 'string'))).toBe(true);
    expect(set.rows.some((r) => cell(r, 'Location') !== '')).toBe(true);
    // Mixed, not in category blocks.
    expect(set.labels.slice(0, 50).map((l) => l.category)).not.toEqual(Array(50).fill(set.labels[0]!.category));
  });

  it('names a person in the dataset wherever it names one, and nobody twice', () => {
    const ids = set.labels.map((l) => l.truePersonId).filter((id): id is string => id !== null);
    for (const id of ids) expect(byId.has(id), id).toBe(true);
    const twinsIds = rowsOf('twins').map((r) => r.label.truePersonId);
    expect(new Set(ids).size).toBe(ids.length);
    expect(twinsIds.every((id) => id !== null)).toBe(true);
  });

  it('e-mail and profile rows: the address or link is the true person\'s and the row\'s name, if any, is theirs', () => {
    for (const category of ['email', 'email_only', 'profile'] as const) {
      for (const { cells, label } of rowsOf(category)) {
        const p = byId.get(label.truePersonId!)!;
        expect(label.acceptAlone).toBe(true);
        if (category === 'profile') {
          const link = cell(cells, 'Profile URL');
          const slug = decodeURIComponent(link.includes('/in/') ? link.split('/in/')[1]!.split(/[/?]/)[0]! : link);
          expect(slug).toBe(p.linkedin);
        } else {
          expect(byEmail.get(cell(cells, 'Work Email').trim().toLowerCase())).toBe(p);
        }
        if (category === 'email_only') expect(cell(cells, 'Full Name')).toBe('');
        else expect(foldText(nameCell(cells))).toBe(folded.get(p));
      }
    }
  });

  it('name + company rows: accepted alone exactly when one person of that name holds or held the company', () => {
    let alone = 0;
    for (const category of ['name_company_current', 'name_company_past', 'company_variant'] as const) {
      for (const { cells, label } of rowsOf(category)) {
        const p = byId.get(label.truePersonId!)!;
        const written = cell(cells, 'Company');
        const meant = companyMeant(written);
        expect(meant, `"${written}"`).toHaveLength(1);
        const company = meant[0]!;
        expect(cell(cells, 'Work Email') + cell(cells, 'Profile URL')).toBe('');
        expect(foldText(nameCell(cells))).toBe(folded.get(p));
        if (category === 'name_company_current') expect(current(p)?.id).toBe(company.id);
        if (category === 'name_company_past') expect(p.jobs.some((j) => j.company.id === company.id && j.ended_at !== null) && current(p)?.id !== company.id).toBe(true);
        if (category === 'company_variant') {
          expect(current(p)?.id).toBe(company.id);
          expect(written).not.toBe(company.name);
        }
        const same = holders(p.name, company);
        expect(same).toContain(p);
        expect(label.acceptAlone, `${p.name} at ${company.name}: ${same.length}`).toBe(same.length === 1);
        if (label.acceptAlone) alone++;
      }
    }
    // Most such rows are clear; the rest have a namesake at the same company.
    expect(alone).toBeGreaterThan(3 * PER_CATEGORY * 0.85);
    expect(alone).toBeLessThan(3 * PER_CATEGORY);
  });

  it('twins rows: two or more people of that name hold or held the company', () => {
    for (const { cells, label } of rowsOf('twins')) {
      const [company] = companyMeant(cell(cells, 'Company'));
      const same = holders(nameCell(cells), company!);
      expect(same.length).toBeGreaterThanOrEqual(2);
      expect(same.map((p) => p.id)).toContain(label.truePersonId);
      expect(label.acceptAlone).toBe(false);
      expect(cell(cells, 'Location')).toBe('');
    }
  });

  it('absent rows: nobody of that name holds or held the company, though the name is a real one', () => {
    for (const { cells, label } of rowsOf('absent')) {
      const [company] = companyMeant(cell(cells, 'Company'));
      expect(holders(nameCell(cells), company!)).toEqual([]);
      expect(named(nameCell(cells)).length).toBeGreaterThan(0);
      expect(label).toMatchObject({ truePersonId: null, acceptAlone: false });
    }
  });

  it('conflicting rows: the mailbox belongs to someone whose first and last names both differ, and nobody has the row\'s name', () => {
    for (const { cells, label } of rowsOf('conflicting_name')) {
      const owner = byEmail.get(cell(cells, 'Work Email').trim().toLowerCase())!;
      expect(owner).toBeDefined();
      const written = foldText(nameCell(cells)).split(' ');
      const [first, last] = [foldText(owner.first_name), foldText(owner.last_name)];
      expect(written).not.toContain(first.split(' ')[0]);
      expect(written.join(' ').endsWith(last)).toBe(false);
      expect(named(written.join(' '))).toEqual([]);
      expect(label).toMatchObject({ truePersonId: null, acceptAlone: false });
    }
  });

  it('family-mailbox rows: the mailbox belongs to someone with the row\'s last name and another first name, and nobody has the row\'s name', () => {
    for (const { cells, label } of rowsOf('family_mailbox')) {
      const owner = byEmail.get(cell(cells, 'Work Email').trim().toLowerCase())!;
      expect(owner).toBeDefined();
      const written = nameCell(cells);
      expect(foldText(written).endsWith(` ${foldText(owner.last_name)}`)).toBe(true);
      expect(foldText(written).startsWith(`${foldText(owner.first_name)} `)).toBe(false);
      expect(named(written)).toEqual([]);
      expect(cell(cells, 'Company')).toBe('');
      expect(label).toMatchObject({ truePersonId: null, acceptAlone: false });
    }
  });

  it('near-name rows: the true person works there under another form of the name, and nobody there has the row\'s exact name', () => {
    const kinds = new Set<string>();
    for (const { cells, label } of rowsOf('near_name')) {
      const p = byId.get(label.truePersonId!)!;
      const [company] = companyMeant(cell(cells, 'Company'));
      expect(current(p)?.id).toBe(company!.id);
      const written = nameCell(cells);
      expect(foldText(written)).not.toBe(folded.get(p));
      expect(holders(written, company!)).toEqual([]);
      expect(label.acceptAlone).toBe(false);
      const [first, ...rest] = written.split(' ');
      if (/^\p{Lu}\.$/u.test(first!)) kinds.add('initial');
      else if (first === p.first_name) kinds.add('typo');
      else if (rest.join(' ') === p.last_name) kinds.add('nickname');
    }
    expect([...kinds].sort()).toEqual(['initial', 'nickname', 'typo']);
  });

  it('name-only rows: a name and nothing else, held by at most five people', () => {
    for (const { cells, label } of rowsOf('name_only')) {
      expect(cells.slice(1).every((c) => c === '')).toBe(true);
      const same = named(nameCell(cells));
      expect(same.map((p) => p.id)).toContain(label.truePersonId);
      expect(same.length).toBeLessThanOrEqual(5);
      expect(label.acceptAlone).toBe(false);
    }
  });

  it('close-form rows: a company the person holds or held, a descriptive word more or less, that no other company\'s name begins like', () => {
    const forms = new Set<string>();
    for (const { cells, label } of rowsOf('company_close_form')) {
      const p = byId.get(label.truePersonId!)!;
      const company = dataset.companies.find((c) => c.id === label.companyId)!;
      expect(p.jobs.some((j) => j.company.id === company.id)).toBe(true);
      expect(foldText(nameCell(cells))).toBe(folded.get(p));
      const written = cell(cells, 'Company');
      const [long, short] = [companyKey(company.name), companyKey(written)];
      // The written form is the name with its last word dropped, or with words added: never another company's key.
      expect(companyMeant(written)).toEqual([]);
      const [base, extra] = long.startsWith(short) ? [short, long.slice(short.length)] : [long, short.slice(long.length)];
      expect(long.startsWith(short) || short.startsWith(long), `"${written}" for ${company.name}`).toBe(true);
      expect(dataset.companies.filter((c) => beginnings(c.name).includes(base)).map((c) => c.id), `"${written}"`).toEqual([company.id]);
      forms.add(long.startsWith(short) ? (written === written.toUpperCase() ? 'short, capitals' : 'short') : extra.endsWith('partners') ? 'partners' : 'word added');
      expect(label.acceptAlone).toBe(false);
    }
    expect([...forms].sort()).toEqual(['partners', 'short', 'short, capitals', 'word added']);
  });

  it('shared-word rows: a stale company sharing a word with an employer, neither name the other with words added', () => {
    for (const { cells, label } of rowsOf('shared_word_company')) {
      const p = byId.get(label.truePersonId!)!;
      const written = cell(cells, 'Company');
      const [company] = companyMeant(written);
      expect(holders(nameCell(cells), company!)).toEqual([]);
      expect(named(nameCell(cells)).length).toBeLessThanOrEqual(5);
      const words = new Set(foldText(written).split(' '));
      const sharing = p.jobs.map((j) => j.company).filter((c) => foldText(c.name).split(' ').some((w) => words.has(w)));
      expect(sharing.length, `"${written}" and ${p.jobs.map((j) => j.company.name).join(', ')}`).toBeGreaterThan(0);
      for (const held of p.jobs.map((j) => j.company)) {
        const [a, b] = [companyKey(held.name), companyKey(written)];
        expect(beginnings(held.name).includes(b) || beginnings(written).includes(a), `"${written}" and ${held.name}`).toBe(false);
      }
      expect(label.acceptAlone).toBe(false);
    }
  });

  it('sister-company rows: nobody of that name holds or held the company, but a namesake holds or held one whose name begins it or is begun by it', () => {
    for (const { cells, label } of rowsOf('sister_company')) {
      const [company] = companyMeant(cell(cells, 'Company'));
      expect(label).toMatchObject({ truePersonId: null, acceptAlone: false, companyId: company!.id });
      expect(holders(nameCell(cells), company!)).toEqual([]);
      const key = companyKey(company!.name);
      const sisters = named(nameCell(cells)).flatMap((p) => p.jobs.map((j) => j.company)).filter((c) => c.id !== company!.id && (beginnings(c.name).includes(key) || beginnings(company!.name).includes(companyKey(c.name))));
      expect(sisters.length, `${nameCell(cells)} at ${company!.name}`).toBeGreaterThan(0);
    }
  });

  it('unknown-company rows: the person\'s name, held by at most five people, with a company nobody of that name holds or held', () => {
    for (const { cells, label } of rowsOf('unknown_company')) {
      const p = byId.get(label.truePersonId!)!;
      expect(foldText(nameCell(cells))).toBe(folded.get(p));
      expect(named(nameCell(cells)).length).toBeLessThanOrEqual(5);
      const [company] = companyMeant(cell(cells, 'Company'));
      expect(holders(nameCell(cells), company!)).toEqual([]);
      expect(cell(cells, 'Work Email') + cell(cells, 'Profile URL')).toBe('');
      expect(label.acceptAlone).toBe(false);
    }
  });
});

describe('the company a row names, and the job change it should carry', () => {
  it('names the company the Company cell means, however it is spelled, and none when the cell is empty', () => {
    set.labels.forEach((label, i) => {
      const written = cell(set.rows[i]!, 'Company');
      if (written === '') expect(label.companyId, `row ${i}`).toBeNull();
      // A close form is checked above: the one company whose name begins like it.
      else if (label.category !== 'company_close_form') expect(companyMeant(written).map((c) => c.id), `row ${i}: ${written}`).toEqual([label.companyId]);
    });
    expect(set.labels.filter((l) => l.companyId !== null).length).toBeGreaterThan(PER_CATEGORY * 5);
  });

  it('says where the person is now against that company, from the jobs alone', () => {
    const [a, b] = dataset.companies as [Company, Company];
    const job = (company: Company, ended_at: string | null) => ({ ...people[0]!.jobs[0]!, company, ended_at });
    const person = (...jobs: ReturnType<typeof job>[]): Person => ({ ...people[0]!, jobs });
    expect(jobChangeTruth(person(job(a, null)), a.id)).toBe('no_change');
    // Came back to the company: still there.
    expect(jobChangeTruth(person(job(a, null), job(b, '2024-01-05'), job(a, '2020-02-01')), a.id)).toBe('no_change');
    expect(jobChangeTruth(person(job(b, null), job(a, '2025-03-02')), a.id)).toBe('moved');
    expect(jobChangeTruth(person(job(a, '2025-03-02'), job(b, '2020-01-01')), a.id)).toBe('left');
    // Never held it (a stale or mistaken company), no company in the row, or an end the record does not date.
    expect(jobChangeTruth(person(job(b, null)), a.id)).toBe('unknown');
    expect(jobChangeTruth(person(job(a, null)), null)).toBe('unknown');
    expect(jobChangeTruth(person(job(b, null), job(a, 'sometime in 2025')), a.id)).toBe('unknown');
    expect(jobChangeTruth(person(job(a, '2025-03-02'), job(b, 'sometime in 2024')), a.id)).toBe('unknown');
  });
});

describe('company spellings', () => {
  it('spell the same company another way, as sheets do', () => {
    expect(companySpellings('Globex Inc.')).toEqual(expect.arrayContaining(['Globex', 'GLOBEX', 'The Globex Company', 'Globex, Inc.']));
    expect(companySpellings('Müller & Söhne GmbH')).toContain('Mueller and Soehne');
    expect(companySpellings('Blueharbor Labs')).toContain('Blue Harbor Labs');
    expect(companySpellings('Blue Harbor Labs')).toContain('Blueharbor Labs');
    for (const company of dataset.companies) {
      for (const spelling of companySpellings(company.name)) expect(companyMeant(spelling), `"${spelling}" for ${company.name}`).toEqual([company]);
    }
  });
});
