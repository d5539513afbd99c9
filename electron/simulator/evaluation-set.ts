// A labeled evaluation sheet made from the simulator's own people: every row's true person is known, so the
// engine's decisions on it can be scored. Pure and seeded: the same dataset, seed and size give the same rows.
//
// Columns: Full Name, Work Email, Profile URL, Company, Location (the last filled on some rows only).
// Each row has a category, the id of the person it is about (null when that person is not in the dataset), and
// `acceptAlone`: whether a careful human matcher, seeing the service's candidates, would accept without looking
// further. Labels come from the dataset's ground truth, never from any matching logic. "Same name" means the
// same accent- and case-folded full name (foldText), however the row types it (shouted, lower-case, extra spaces,
// accents dropped); "holds or held C" means a current or past job at C. No person is the true person of two rows.
//
// email                 the owner's e-mail and name, sometimes company and location     -> the owner, acceptAlone
// email_only            the owner's e-mail, no name                                      -> the owner, acceptAlone
// profile               the owner's profile link, in a form people paste, and the name  -> the owner, acceptAlone
// name_company_current  a name and the person's current company as the service spells it -> the person, rule (1)
// name_company_past     a name and a company the person has left                          -> the person, rule (1)
// company_variant       a name and the current company spelled another way (2)            -> the person, rule (1)
// twins                 a name and a company that two or more people of that name hold or held
//                                                                      -> the one the row was drawn for, not alone
// absent                a real name (it has namesakes elsewhere) and a company where nobody whose surname is the
//                       row's, give or take one letter, holds or held a job                -> null, not alone
// conflicting_name      an e-mail whose owner's first and last names both differ from the row's (not a nickname,
//                       spelling variant or one letter apart); nobody in the dataset has the row's name
//                                                                                          -> null, not alone
// family_mailbox        an e-mail whose owner has the row's last name but another first name (not a nickname,
//                       spelling variant or one letter apart); nobody in the dataset has the row's name
//                                                                                          -> null, not alone
// near_name             a nickname (Bob for Robert), a one-letter typo in the surname or an initial ("R. Smith"),
//                       with the current company; nobody there has the row's exact name -> the person, not alone
// name_only             a name only, of someone with at most 5 namesakes (find returns 5)  -> the person, not alone
// unknown_company       a clear name (at most 5 namesakes) with a company the sheet has and the record does not:
//                       nobody of that name holds or held it (a stale or mistaken company) -> the person, not alone
// company_close_form    a name and a company the person holds or held, written with a descriptive word more or
//                       less (3)                                                          -> the person, not alone
// shared_word_company   a clear name (at most 5 namesakes) with a stale company that shares a word with one of the
//                       person's employers ("Stone Analytics" for someone at Blue Stone Capital), neither name
//                       being the other with words added; nobody of that name holds or held it
//                                                                                          -> the person, not alone
// sister_company        a real name and a company nobody of that name holds or held, whose name begins the name of
//                       a company a namesake holds or held, or is begun by it (Acme Inc. for a namesake at Acme
//                       Robotics): a reader takes them for one company, so the namesake looks right -> null, not alone
//
// (1) acceptAlone only when exactly one person in the WHOLE dataset has the row's name and holds or held the
//     row's company; with two, nothing in the row tells them apart.
// (2) "Globex" / "GLOBEX" / "Globex, Inc." / "The Globex Company" for "Globex Inc.", "Mueller and Soehne" for
//     "Müller & Söhne", "Blue Harbor Labs" for "Blueharbor Labs": always the same company key (companyKey), which
//     the dataset keeps unique per company, so the spelling can mean no other company.
// (3) "CYBERDYNE" for "Cyberdyne Systems" (the last word, one of the dataset's COMPANY_NOUNS, left out), "Smith,
//     Jones & Partners" for "Smith & Jones", "Globex Research" for "Globex Inc." (a word added): only where no
//     other company's name begins with the words kept, so the spelling can mean no other company. Not alone: the
//     name is not the company's, and a careful human looks before taking it for it.
// Location is written only where it cannot change the answer: rows accepted alone anyway, and absent rows (a
// random city). On twins, near names and names alone a matching city would tempt a careful human to accept.
import { COMPANY_NOUNS, type Company, type Dataset, type Person } from './dataset';
import { NICKNAMES, nicknamesOf, oneLetterVariant, spellingVariantsOf } from './name-variants';
import { deriveSeed, seededRandom, type Random } from './random';
import { companyKey, companyTokens, foldText, withinOneEdit } from './scoring';

export const EVALUATION_CATEGORIES = [
  'email', 'email_only', 'profile', 'name_company_current', 'name_company_past', 'company_variant', 'twins', 'absent',
  'conflicting_name', 'family_mailbox', 'near_name', 'name_only', 'unknown_company', 'company_close_form',
  'shared_word_company', 'sister_company',
] as const;
export type EvaluationCategory = (typeof EVALUATION_CATEGORIES)[number];

export const EVALUATION_HEADERS = ['Full Name', 'Work Email', 'Profile URL', 'Company', 'Location'] as const;

export interface EvaluationLabel {
  category: EvaluationCategory;
  /** The dataset person the row is about; null when nobody in the dataset is. */
  truePersonId: string | null;
  /** Whether a careful human, seeing the service's candidates, would accept without looking further. */
  acceptAlone: boolean;
  /** The ground truth behind the label, in words. */
  reason: string;
  /** The dataset company the row's Company cell names, however it is spelled; null when the cell is empty. */
  companyId: string | null;
}

export interface EvaluationSet {
  headers: string[];
  /** CSV-ready cells, in EVALUATION_HEADERS order; rows[i] is labeled by labels[i]. */
  rows: string[][];
  labels: EvaluationLabel[];
}

export interface EvaluationOptions {
  seed?: number;
  /** Rows per category; a category the dataset cannot fill that often gets fewer. Default 300. */
  rowsPerCategory?: number;
}

/** At most this many namesakes for a name-only row: the service returns five people per query. */
const MAX_NAMESAKES_FOR_NAME_ONLY = 5;
/** Tries per wanted row before a category settles for fewer rows. */
const TRIES_PER_ROW = 40;

/** Who holds or held what, by folded name: the ground truth every label is computed from. */
class GroundTruth {
  readonly byName = new Map<string, number[]>();
  /** Company id -> everyone who holds or held it. */
  readonly staff = new Map<string, number[]>();
  private readonly folded: string[];
  readonly foldedSurnames: string[];

  constructor(readonly people: readonly Person[]) {
    const cache = new Map<string, string>();
    const fold = (text: string) => {
      let f = cache.get(text);
      if (f === undefined) cache.set(text, (f = foldText(text)));
      return f;
    };
    this.folded = people.map((p) => fold(p.name));
    this.foldedSurnames = people.map((p) => fold(p.last_name));
    this.folded.forEach((name, i) => {
      push(this.byName, name, i);
      for (const id of new Set(people[i]!.jobs.map((j) => j.company.id))) push(this.staff, id, i);
    });
  }

  foldedName(person: number): string {
    return this.folded[person]!;
  }

  /** Every company and name that two or more people hold or held together, in dataset order. */
  twinGroups(companies: readonly Company[]): { company: Company; members: number[] }[] {
    const groups: { company: Company; members: number[] }[] = [];
    for (const company of companies) {
      const byName = new Map<string, number[]>();
      for (const i of this.staff.get(company.id) ?? []) push(byName, this.folded[i]!, i);
      for (const members of byName.values()) if (members.length >= 2) groups.push({ company, members });
    }
    return groups;
  }

  /** People with this folded name who hold or held the company. */
  holders(foldedName: string, company: Company): number[] {
    return (this.byName.get(foldedName) ?? []).filter((i) => this.people[i]!.jobs.some((j) => j.company.id === company.id));
  }
}

function push<K>(map: Map<K, number[]>, key: K, value: number): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/**
 * Companies by the words their names begin with and hold (companyTokens: no legal form, case, accents or umlaut
 * spelling): whether a short form of a name can mean one company only, and which companies share a word.
 */
class CompanyWords {
  /** The words a name begins with, joined as companyKey joins them -> how many companies' names begin so. */
  private readonly beginnings = new Map<string, number>();
  private readonly byWord = new Map<string, Company[]>();
  private readonly byKey = new Map<string, Company>();
  /** The words a name begins with, but not the whole name -> the companies whose names begin so. */
  private readonly longer = new Map<string, Company[]>();

  constructor(companies: readonly Company[]) {
    for (const company of companies) {
      const words = companyTokens(company.name);
      this.byKey.set(words.join(''), company);
      const seen = new Set<string>();
      for (let n = 1; n <= words.length; n++) seen.add(words.slice(0, n).join(''));
      for (const start of seen) this.beginnings.set(start, (this.beginnings.get(start) ?? 0) + 1);
      for (let n = 1; n < words.length; n++) {
        const start = words.slice(0, n).join('');
        const list = this.longer.get(start);
        if (list) list.push(company);
        else this.longer.set(start, [company]);
      }
      for (const word of new Set(words)) {
        const list = this.byWord.get(word);
        if (list) list.push(company);
        else this.byWord.set(word, [company]);
      }
    }
  }

  /** Whether exactly one company's name begins with these words (however they are spaced). */
  beginsOne(written: string): boolean {
    return this.beginnings.get(companyKey(written)) === 1;
  }

  withWord(word: string): readonly Company[] {
    return this.byWord.get(word) ?? [];
  }

  /** Other companies whose whole name begins this one's, or whose name this one's begins: Acme Inc. and Acme Robotics. */
  sistersOf(company: Company): Company[] {
    const words = companyTokens(company.name);
    const shorter = words.slice(0, -1).flatMap((_, n) => this.byKey.get(words.slice(0, n + 1).join('')) ?? []);
    return [...shorter, ...(this.longer.get(words.join('')) ?? [])].filter((c) => c.id !== company.id);
  }
}

/** Whether one name is the other with words added at its end ("Acme" and "Acme Robotics"): one company to a reader. */
function wordsAdded(a: Company, b: Company): boolean {
  const [x, y] = [companyTokens(a.name), companyTokens(b.name)];
  const [short, long] = x.join('').length <= y.join('').length ? [x, y] : [y, x];
  const key = short.join('');
  for (let n = 1; n <= long.length; n++) if (long.slice(0, n).join('') === key) return true;
  return false;
}

const ADDED_WORDS = ['Research', 'International', 'Group'];
const FAMILY_FIRM = / & (Söhne|Sons|Partners|Töchter|Brothers)$/;

/**
 * The company as a sheet may write it with a descriptive word more or less: "CYBERDYNE" for Cyberdyne Systems,
 * "Smith, Jones & Partners" for Smith & Jones, "Globex Research" for Globex Inc. Null when every such form could
 * mean another company too (another company's name begins with the words kept).
 */
function closeCompanyForm(company: Company, words: CompanyWords, rng: Random): string | null {
  const suffix = LEGAL_SUFFIX.exec(company.name)?.[1] ?? null;
  const base = suffix ? company.name.slice(0, -suffix.length - 1) : company.name;
  const forms: string[] = [];
  const parts = base.split(' ');
  const last = parts[parts.length - 1]!;
  if (parts.length >= 2 && (COMPANY_NOUNS as readonly string[]).includes(last)) {
    const short = parts.slice(0, -1).join(' ');
    if (words.beginsOne(short)) forms.push(rng.chance(0.5) ? short.toUpperCase() : short);
  }
  if (words.beginsOne(base)) {
    const pair = / & /.test(base) && !FAMILY_FIRM.test(base) ? base.split(' & ') : null;
    if (pair?.length === 2) forms.push(`${pair[0]}, ${pair[1]} & Partners`);
    else forms.push(`${base} ${rng.pick(ADDED_WORDS.filter((w) => !parts.includes(w)))}`);
  }
  return forms.length === 0 ? null : forms[rng.int(forms.length)]!;
}

/** Given names a reader would take for one another: equal, a letter apart, spelling variants, or sharing a nickname. */
function relatedFirstNames(a: string, b: string): boolean {
  const [fa, fb] = [foldText(a), foldText(b)];
  if (fa === fb || withinOneEdit(fa, fb) || spellingVariantsOf(a).includes(b)) return true;
  const na = NICKNAMES.get(fa) ?? [];
  const nb = NICKNAMES.get(fb) ?? [];
  return na.includes(fb) || na.some((n) => nb.includes(n));
}

function currentCompany(person: Person): Company | null {
  return person.jobs[0]?.ended_at === null ? person.jobs[0].company : null;
}

function pastCompanies(person: Person): Company[] {
  const now = currentCompany(person);
  return person.jobs.filter((j) => j.ended_at !== null && j.company.id !== now?.id).map((j) => j.company);
}

/** The name as people type it: mostly as is, sometimes shouted, lower-cased, spaced out or without accents. */
function nameAsTyped(name: string, rng: Random): string {
  switch (rng.int(10)) {
    case 0: return name.toUpperCase();
    case 1: return name.toLowerCase();
    case 2: return ` ${name.replace(' ', '  ')} `;
    case 3: return name.normalize('NFKD').replace(/\p{M}+/gu, '');
    default: return name;
  }
}

function emailAsTyped(email: string, rng: Random): string {
  switch (rng.int(8)) {
    case 0: return email.toUpperCase();
    case 1: return ` ${email} `;
    default: return email;
  }
}

/** A profile link in a form people paste (the slug alone is one of them). */
function profileLink(slug: string, rng: Random): string {
  const encoded = encodeURIComponent(slug);
  switch (rng.int(6)) {
    case 0: return `https://www.linkedin.com/in/${encoded}/`;
    case 1: return `linkedin.com/in/${encoded}?trk=public_profile`;
    case 2: return `https://uk.linkedin.com/in/${encoded}/en`;
    case 3: return slug;
    case 4: return `http://linkedin.com/in/${encoded}`;
    default: return `www.linkedin.com/in/${encoded}/`;
  }
}

function locationOf(person: Person, rng: Random): string {
  const { locality, country } = person.location_details;
  return rng.chance(0.5) ? locality : `${locality}, ${country}`;
}

const LEGAL_SUFFIX = / (Inc\.?|LLC|Ltd|GmbH|SA|AG|BV|plc|Corp|ApS|AB)$/;
const UMLAUTS: Record<string, string> = { ä: 'ae', ö: 'oe', ü: 'ue', Ä: 'Ae', Ö: 'Oe', Ü: 'Ue', ß: 'ss' };
/** Second words the dataset writes joined to the first ("Blueharbor") or apart ("Blue Harbor"). */
const JOINABLE = ['Harbor', 'Peak', 'Wave', 'Stone', 'Bridge', 'Field', 'Point', 'Ridge', 'Gate', 'Line', 'Path'];

/**
 * Other spellings of a company's name that a sheet would use, the telling ones first: transliterated umlauts and
 * "and" for "&", spacing, "The ... Company", ", Inc.", then the bare name and case. Each keeps the company key.
 */
export function companySpellings(canonical: string): string[] {
  const suffix = LEGAL_SUFFIX.exec(canonical)?.[1] ?? null;
  const base = suffix ? canonical.slice(0, -suffix.length - 1) : canonical;
  const telling: string[] = [];
  const plain = base.replace(/[äöüÄÖÜß]/g, (c) => UMLAUTS[c]!).replace(/ & /g, ' and ');
  if (plain !== base) telling.push(plain);
  for (const word of JOINABLE) {
    const apart = new RegExp(`(\\p{L}) ${word}\\b`, 'u');
    const joined = new RegExp(`(\\p{L})${word.toLowerCase()}\\b`, 'u');
    if (apart.test(base)) telling.push(base.replace(apart, `$1${word.toLowerCase()}`));
    else if (joined.test(base)) telling.push(base.replace(joined, `$1 ${word}`));
  }
  telling.push(`The ${base} Company`, `${base}, ${suffix && suffix !== 'Inc' ? suffix : 'Inc.'}`);
  const simple = [base, canonical.toUpperCase(), base.toUpperCase(), base.toLowerCase()];
  const key = companyKey(canonical);
  return [...new Set([...telling, ...simple])].filter((s) => s !== canonical && companyKey(s) === key);
}

type Cells = [name: string, email: string, profile: string, company: string, location: string];
/** `person`: the dataset index the row is about, so no other row is about them too. */
type Made = { cells: Cells; label: EvaluationLabel; person: number | null };

/** Builds the labeled sheet. See the table at the top of this file for what each category holds. */
export function buildEvaluationSet(dataset: Dataset, options: EvaluationOptions = {}): EvaluationSet {
  const seed = options.seed ?? 1;
  const perCategory = options.rowsPerCategory ?? 300;
  const rng = seededRandom(deriveSeed(seed, 'evaluation-set'));
  const people = dataset.people;
  if (people.length === 0) throw new RangeError('The dataset holds no people to build an evaluation set from.');
  const truth = new GroundTruth(people);
  const randomPerson = () => rng.int(people.length);
  const used = new Set<number>();
  /** A person not used by another row yet: rows about one person twice would count one decision twice. */
  const freshPerson = (): number | null => {
    const i = randomPerson();
    return used.has(i) ? null : i;
  };

  /** Name + company with acceptAlone from rule (1). */
  const nameAndCompany = (category: EvaluationCategory, i: number, company: Company, written: string): Made => {
    const p = people[i]!;
    const holders = truth.holders(truth.foldedName(i), company).length;
    const alone = holders === 1;
    return {
      person: i,
      cells: [nameAsTyped(p.name, rng), '', '', written, alone && rng.chance(0.4) ? locationOf(p, rng) : ''],
      label: {
        category,
        truePersonId: p.id,
        acceptAlone: alone,
        reason: alone ? `the only ${p.name} who holds or held ${company.name}` : `${holders} people named ${p.name} hold or held ${company.name}`,
        companyId: company.id,
      },
    };
  };

  let words: CompanyWords | null = null;
  const companyWords = () => (words ??= new CompanyWords(dataset.companies));

  // Twins are too rare to find by drawing people at random: drawn from the list of them instead.
  const twinGroups = truth.twinGroups(dataset.companies);
  const nextTwinGroup = () => (twinGroups.length === 0 ? null : twinGroups.splice(rng.int(twinGroups.length), 1)[0]!);

  const makers: Record<EvaluationCategory, () => Made | null> = {
    email: () => {
      const i = freshPerson();
      if (i === null) return null;
      const p = people[i]!;
      const company = currentCompany(p);
      // Drawn in the order the cells are written, so the stream (and every row after) stays as it was.
      const name = nameAsTyped(p.name, rng);
      const email = emailAsTyped(p.email_address, rng);
      const at = company && rng.chance(0.5) ? company : null;
      return {
        person: i,
        cells: [name, email, '', at?.name ?? '', rng.chance(0.3) ? locationOf(p, rng) : ''],
        label: { category: 'email', truePersonId: p.id, acceptAlone: true, reason: `the mailbox is ${p.name}'s and the row says ${p.name}`, companyId: at?.id ?? null },
      };
    },
    email_only: () => {
      const i = freshPerson();
      if (i === null) return null;
      const p = people[i]!;
      const company = currentCompany(p);
      const email = emailAsTyped(p.email_address, rng);
      const at = company && rng.chance(0.3) ? company : null;
      return {
        person: i,
        cells: ['', email, '', at?.name ?? '', rng.chance(0.3) ? locationOf(p, rng) : ''],
        label: { category: 'email_only', truePersonId: p.id, acceptAlone: true, reason: `the mailbox is ${p.name}'s; the row names nobody`, companyId: at?.id ?? null },
      };
    },
    profile: () => {
      const i = freshPerson();
      if (i === null) return null;
      const p = people[i]!;
      const company = currentCompany(p);
      const name = nameAsTyped(p.name, rng);
      const link = profileLink(p.linkedin, rng);
      const at = company && rng.chance(0.4) ? company : null;
      return {
        person: i,
        cells: [name, '', link, at?.name ?? '', rng.chance(0.3) ? locationOf(p, rng) : ''],
        label: { category: 'profile', truePersonId: p.id, acceptAlone: true, reason: `the profile is ${p.name}'s and the row says ${p.name}`, companyId: at?.id ?? null },
      };
    },
    name_company_current: () => {
      const i = freshPerson();
      const company = i === null ? null : currentCompany(people[i]!);
      return i === null || !company ? null : nameAndCompany('name_company_current', i, company, company.name);
    },
    name_company_past: () => {
      const i = freshPerson();
      const past = i === null ? [] : pastCompanies(people[i]!);
      if (i === null || past.length === 0) return null;
      const company = past[rng.int(past.length)]!;
      return nameAndCompany('name_company_past', i, company, company.name);
    },
    company_variant: () => {
      const i = freshPerson();
      const company = i === null ? null : currentCompany(people[i]!);
      if (i === null || !company) return null;
      const spellings = companySpellings(company.name);
      if (spellings.length === 0) return null;
      // Mostly the telling spellings (listed first), sometimes only the bare name or its case.
      const written = rng.chance(0.7) ? spellings[0]! : spellings[rng.int(spellings.length)]!;
      return nameAndCompany('company_variant', i, company, written);
    },
    twins: () => {
      const group = nextTwinGroup();
      const members = group?.members.filter((m) => !used.has(m)) ?? [];
      if (!group || members.length === 0) return null;
      const i = members[rng.int(members.length)]!;
      const p = people[i]!;
      group.members.forEach((m) => used.add(m));
      return {
        person: i,
        cells: [nameAsTyped(p.name, rng), '', '', group.company.name, ''],
        label: { category: 'twins', truePersonId: p.id, acceptAlone: false, reason: `${group.members.length} people named ${p.name} hold or held ${group.company.name}`, companyId: group.company.id },
      };
    },
    absent: () => {
      const model = randomPerson();
      const p = people[model]!;
      const company = dataset.companies[rng.int(dataset.companies.length)]!;
      const surname = truth.foldedSurnames[model]!;
      // Nobody of that surname there, give or take a letter: such a person could be the row's, mistyped.
      const near = (truth.staff.get(company.id) ?? []).some((q) => withinOneEdit(truth.foldedSurnames[q]!, surname));
      if (near) return null;
      const name = truth.foldedName(model);
      const elsewhere = truth.byName.get(name)?.length ?? 0;
      return {
        person: null,
        cells: [nameAsTyped(p.name, rng), '', '', company.name, rng.chance(0.3) ? locationOf(people[randomPerson()]!, rng) : ''],
        label: { category: 'absent', truePersonId: null, acceptAlone: false, reason: `nobody named ${p.name} (${elsewhere} elsewhere) holds or held ${company.name}`, companyId: company.id },
      };
    },
    conflicting_name: () => {
      const i = freshPerson();
      if (i === null) return null;
      const owner = people[i]!;
      const first = people[randomPerson()]!.first_name;
      const last = people[randomPerson()]!.last_name;
      const name = `${first} ${last}`;
      if (relatedFirstNames(first, owner.first_name) || withinOneEdit(foldText(last), truth.foldedSurnames[i]!)) return null;
      if (truth.byName.has(foldText(name))) return null;
      return {
        person: i,
        cells: [nameAsTyped(name, rng), emailAsTyped(owner.email_address, rng), '', '', ''],
        label: { category: 'conflicting_name', truePersonId: null, acceptAlone: false, reason: `the mailbox is ${owner.name}'s; nobody is named ${name}`, companyId: null },
      };
    },
    family_mailbox: () => {
      const i = freshPerson();
      if (i === null) return null;
      const owner = people[i]!;
      const first = people[randomPerson()]!.first_name;
      const name = `${first} ${owner.last_name}`;
      if (relatedFirstNames(first, owner.first_name) || truth.byName.has(foldText(name))) return null;
      return {
        person: i,
        cells: [nameAsTyped(name, rng), emailAsTyped(owner.email_address, rng), '', '', ''],
        label: { category: 'family_mailbox', truePersonId: null, acceptAlone: false, reason: `the mailbox is ${owner.name}'s; nobody is named ${name}`, companyId: null },
      };
    },
    near_name: () => {
      const i = freshPerson();
      const company = i === null ? null : currentCompany(people[i]!);
      if (i === null || !company) return null;
      const p = people[i]!;
      const nicknames = nicknamesOf(p.first_name);
      const roll = rng.next();
      let written: string | null = null;
      let how = '';
      if (roll < 0.45 && nicknames.length > 0) {
        written = `${rng.pick(nicknames)} ${p.last_name}`;
        how = 'a nickname';
      } else if (roll < 0.75 && /^[A-Za-z]{5,}$/.test(p.last_name)) {
        written = `${p.first_name} ${oneLetterVariant(p.last_name, rng.next())}`;
        how = 'a typo in the surname';
      } else if (/^\p{Lu}/u.test(p.first_name)) {
        written = `${p.first_name[0]}. ${p.last_name}`;
        how = 'an initial';
      }
      if (!written || truth.holders(foldText(written), company).length > 0) return null;
      return {
        person: i,
        cells: [written, '', '', company.name, ''],
        label: { category: 'near_name', truePersonId: p.id, acceptAlone: false, reason: `${how} for ${p.name} at ${company.name}`, companyId: company.id },
      };
    },
    name_only: () => {
      const i = freshPerson();
      if (i === null) return null;
      const p = people[i]!;
      const namesakes = truth.byName.get(truth.foldedName(i))!.length;
      if (namesakes > MAX_NAMESAKES_FOR_NAME_ONLY) return null;
      return {
        person: i,
        cells: [nameAsTyped(p.name, rng), '', '', '', ''],
        label: { category: 'name_only', truePersonId: p.id, acceptAlone: false, reason: `a name alone; ${namesakes} ${namesakes === 1 ? 'person has' : 'people have'} it`, companyId: null },
      };
    },
    unknown_company: () => {
      const i = freshPerson();
      if (i === null) return null;
      const p = people[i]!;
      const name = truth.foldedName(i);
      const namesakes = truth.byName.get(name)!.length;
      const company = dataset.companies[rng.int(dataset.companies.length)]!;
      if (namesakes > MAX_NAMESAKES_FOR_NAME_ONLY || truth.holders(name, company).length > 0) return null;
      return {
        person: i,
        cells: [nameAsTyped(p.name, rng), '', '', company.name, ''],
        label: { category: 'unknown_company', truePersonId: p.id, acceptAlone: false, reason: `${p.name} never held ${company.name}; ${namesakes} ${namesakes === 1 ? 'person has' : 'people have'} the name`, companyId: company.id },
      };
    },
    company_close_form: () => {
      const i = freshPerson();
      if (i === null || people[i]!.jobs.length === 0) return null;
      const p = people[i]!;
      const company = p.jobs[rng.int(p.jobs.length)]!.company;
      const written = closeCompanyForm(company, companyWords(), rng);
      if (!written) return null;
      return {
        person: i,
        cells: [nameAsTyped(p.name, rng), '', '', written, ''],
        label: { category: 'company_close_form', truePersonId: p.id, acceptAlone: false, reason: `"${written}" for ${company.name}, which ${p.name} ${currentCompany(p)?.id === company.id ? 'holds' : 'held'}`, companyId: company.id },
      };
    },
    shared_word_company: () => {
      const i = freshPerson();
      if (i === null || people[i]!.jobs.length === 0) return null;
      const p = people[i]!;
      const name = truth.foldedName(i);
      const namesakes = truth.byName.get(name)!.length;
      if (namesakes > MAX_NAMESAKES_FOR_NAME_ONLY) return null;
      const employer = p.jobs[rng.int(p.jobs.length)]!.company;
      const words = companyTokens(employer.name);
      const word = words[rng.int(words.length)]!;
      const held = p.jobs.map((j) => j.company);
      const sharing = companyWords()
        .withWord(word)
        .filter((c) => held.every((h) => h.id !== c.id && !wordsAdded(c, h)));
      if (sharing.length === 0) return null;
      const company = sharing[rng.int(sharing.length)]!;
      if (truth.holders(name, company).length > 0) return null;
      return {
        person: i,
        cells: [nameAsTyped(p.name, rng), '', '', company.name, ''],
        label: {
          category: 'shared_word_company',
          truePersonId: p.id,
          acceptAlone: false,
          reason: `${p.name} never held ${company.name}, which shares "${word}" with ${employer.name}; ${namesakes} ${namesakes === 1 ? 'person has' : 'people have'} the name`,
          companyId: company.id,
        },
      };
    },
    sister_company: () => {
      const model = randomPerson();
      const p = people[model]!;
      if (p.jobs.length === 0) return null;
      const theirs = p.jobs[rng.int(p.jobs.length)]!.company;
      const sisters = companyWords().sistersOf(theirs);
      if (sisters.length === 0) return null;
      const company = sisters[rng.int(sisters.length)]!;
      // Nobody of that surname there, give or take a letter, as for absent rows.
      const surname = truth.foldedSurnames[model]!;
      if ((truth.staff.get(company.id) ?? []).some((q) => withinOneEdit(truth.foldedSurnames[q]!, surname))) return null;
      return {
        person: null,
        cells: [nameAsTyped(p.name, rng), '', '', company.name, ''],
        label: { category: 'sister_company', truePersonId: null, acceptAlone: false, reason: `nobody named ${p.name} holds or held ${company.name}; one holds or held ${theirs.name}`, companyId: company.id },
      };
    },
  };

  const made: Made[] = [];
  for (const category of EVALUATION_CATEGORIES) {
    let rows = 0;
    for (let tries = 0; rows < perCategory && tries < perCategory * TRIES_PER_ROW; tries++) {
      const row = makers[category]();
      if (!row) continue;
      if (row.person !== null) used.add(row.person);
      made.push(row);
      rows++;
    }
  }
  // Categories mixed the way a real sheet mixes them.
  for (let i = made.length - 1; i > 0; i--) {
    const j = rng.int(i + 1);
    [made[i], made[j]] = [made[j]!, made[i]!];
  }
  return { headers: [...EVALUATION_HEADERS], rows: made.map((m) => [...m.cells]), labels: made.map((m) => m.label) };
}

/** Where a person is now against a row's company, in the engine's words (shared/model.ts JOB_CHANGES). */
export type JobChangeTruth = 'no_change' | 'moved' | 'left' | 'unknown';

const READABLE_DATE = /^\d{4}(-\d{2}(-\d{2})?)?$/;

/**
 * The job change a matched row should carry, from the world as it is: the person's jobs at the company the row's
 * Company cell names (by id, however the sheet spells it). Unknown when the row names no company, the person never
 * held it (a stale or mistaken company), or an end that matters cannot be read: what the record cannot tell.
 */
export function jobChangeTruth(person: Person, companyId: string | null): JobChangeTruth {
  if (companyId === null) return 'unknown';
  const there = person.jobs.filter((j) => j.company.id === companyId);
  if (there.length === 0) return 'unknown';
  if (there.some((j) => j.ended_at === null)) return 'no_change';
  // Most recent first: the last time the person was there.
  if (!READABLE_DATE.test(there[0]!.ended_at!)) return 'unknown';
  if (person.jobs.some((j) => j.ended_at === null)) return 'moved';
  return person.jobs.every((j) => READABLE_DATE.test(j.ended_at!)) ? 'left' : 'unknown';
}
