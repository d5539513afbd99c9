// The benchmark's sheet: rows as users bring them, built from the simulator's people of the same seed, so most
// rows have somebody to find and the service's answers are real.
import type { Mapping } from '../shared/model';
import { deriveSeed, seededRandom, type Random } from '../electron/simulator/random';
import type { Person } from '../electron/simulator/dataset';

export const SHEET_HEADERS = ['Full name', 'Email', 'LinkedIn', 'Company', 'Title', 'Notes'];
/** What the import should detect from SHEET_HEADERS. */
export const SHEET_MAPPING: Mapping = { fullName: 0, email: 1, profile: 2, company: 3 };

export interface SheetStats {
  rows: number;
  email: number;
  profile: number;
  nameCompany: number;
  duplicates: number;
  junk: number;
  /** Rows made up for people the dataset does not hold. */
  nobody: number;
  /** Rows of real people whose e-mail or profile link is out of date: found only by name + company, a round later. */
  stale: number;
}

export interface GeneratedSheet {
  headers: string[];
  rows: string[][];
  stats: SheetStats;
}

const JUNK_RATE = 0.02;
const DUPLICATE_RATE = 0.1;
/** Of the rows that are neither junk nor duplicates. */
const KIND_WEIGHTS = { email: 0.4, profile: 0.3, nameCompany: 0.3 } as const;
const NOBODY_RATE = 0.12;
/** Of the e-mail and profile rows of real people. */
const STALE_RATE = 0.1;

const NOTES = ['', '', '', '', 'Met at the conference, 2024', 'Follow up in Q3', 'said "call me next week"', 'Intro via Dana', 'Lead; warm', 'VIP'];
const NOBODY_FIRST = ['Qwyx', 'Zorbel', 'Vrennick', 'Pelloquin', 'Thrask', 'Oumbra', 'Yzelda', 'Kvorn'];
const NOBODY_LAST = ['Zanderquist', 'Mbolowitz', 'Quarnstrom', 'Ekkelsby', 'Drovnikar', 'Plimsworth', 'Ysgarrond', 'Tuvvelin'];
const NOBODY_COMPANY = ['Nonesuch Holdings', 'Imaginary Widgets Ltd', 'Phantom Freight Co', 'Nowhere Analytics'];

/** Cells people fill in with nothing or rubbish: none gives a usable query. */
const JUNK_ROWS: string[][] = [
  ['', '', '', '', '', ''],
  ['n/a', 'n/a', 'n/a', 'n/a', '', ''],
  ['-', '-', '-', '-', '-', '-'],
  ['#N/A', 'unknown', 'none', 'TBD', '', ''],
  ['%$#@!', 'not-an-email', 'https://lnkd.in/xY12ab', '', '', 'garbage'],
  ['', 'jane@', 'https://www.linkedin.com/company/acme-corp', '', '', ''],
  ['ßßß', '@@@', '12', '', '', '?'],
  ['', '', '', 'Acme Inc', 'Engineer', 'company only'],
];

/** Assorted forms of the same profile link, as pasted from browsers, apps and old exports. */
function profileLink(slug: string, rng: Random): string {
  const encoded = encodeURIComponent(slug);
  const capitalized = slug.charAt(0).toUpperCase() + slug.slice(1);
  switch (rng.int(8)) {
    case 0:
      return `https://www.linkedin.com/in/${encoded}/`;
    case 1:
      return `linkedin.com/in/${encodeURIComponent(capitalized)}?trk=public_profile_browsemap`;
    case 2:
      return `https://uk.linkedin.com/in/${encoded}/en`;
    case 3:
      return slug;
    case 4:
      return `http://linkedin.com/in/${encoded}`;
    case 5:
      return `www.linkedin.com/in/${encoded}/`;
    case 6:
      return `https://www.linkedin.com/in/${encoded}?utm_source=share&utm_medium=member_ios`;
    default:
      return ` https://de.linkedin.com/in/${encoded}/ `;
  }
}

function emailAsTyped(email: string, name: string, rng: Random): string {
  switch (rng.int(10)) {
    case 0:
      return email.toUpperCase();
    case 1:
      return `${name} <${email}>`;
    case 2:
      return `  ${email} `;
    default:
      return email;
  }
}

function nameAsTyped(name: string, rng: Random): string {
  switch (rng.int(12)) {
    case 0:
      return name.toUpperCase();
    case 1:
      return name.toLowerCase();
    case 2:
      return ` ${name.replace(' ', '  ')} `;
    default:
      return name;
  }
}

const LEGAL_SUFFIX = / (Inc\.?|LLC|Ltd|GmbH|SA|AG|BV|plc|Corp|ApS|AB)$/;

function companyOf(person: Person, rng: Random): string {
  const jobs = person.jobs;
  if (jobs.length === 0) return '';
  // Mostly the current (latest) employer; sometimes an earlier one, as in an old CRM export.
  const job = jobs.length > 1 && rng.chance(0.15) ? jobs[1 + rng.int(jobs.length - 1)]! : jobs[0]!;
  const name = job.company.name;
  return rng.chance(0.3) ? name.replace(LEGAL_SUFFIX, '') : name;
}

function titleOf(person: Person): string {
  return person.jobs[0]?.title ?? '';
}

/**
 * `rows` rows: about 40% with an e-mail, 30% with a profile link, 30% with a name and company (of the rows that
 * are neither duplicates nor junk), 10% duplicates of earlier rows, 2% junk. About one row in eight asks for
 * somebody the dataset does not hold, and one e-mail or profile row in ten has an out-of-date value. Same people, rows and seed give the same sheet.
 */
export function generateSheet(people: readonly Person[], rows: number, seed: number): GeneratedSheet {
  if (people.length === 0) throw new RangeError('The dataset holds no people to build a sheet from.');
  const rng = seededRandom(deriveSeed(seed, 'bench-sheet'));
  const stats: SheetStats = { rows, email: 0, profile: 0, nameCompany: 0, duplicates: 0, junk: 0, nobody: 0, stale: 0 };
  const out: string[][] = [];
  for (let i = 0; i < rows; i++) {
    const roll = rng.next();
    if (roll < JUNK_RATE) {
      stats.junk++;
      out.push([...rng.pick(JUNK_ROWS)]);
      continue;
    }
    if (roll < JUNK_RATE + DUPLICATE_RATE && out.length > 0) {
      stats.duplicates++;
      out.push([...out[rng.int(out.length)]!]);
      continue;
    }
    const nobody = rng.chance(NOBODY_RATE);
    if (nobody) stats.nobody++;
    const person = people[rng.int(people.length)]!;
    const name = nobody ? `${rng.pick(NOBODY_FIRST)} ${rng.pick(NOBODY_LAST)}` : person.name;
    const email = nobody ? `${name.toLowerCase().replace(' ', '.')}.${i}@nobody-here.example` : person.email_address;
    const slug = nobody ? `${name.toLowerCase().replace(' ', '-')}-${i.toString(36)}` : person.linkedin;
    const company = nobody ? rng.pick(NOBODY_COMPANY) : companyOf(person, rng);
    const title = nobody ? 'Consultant' : titleOf(person);
    const note = rng.pick(NOTES);

    const kind = rng.next();
    // A stale e-mail or link (an old employer's address, a renamed profile) with the right name and company:
    // the first query finds nobody and the row falls through to name + company in the next round.
    const stale = !nobody && kind < KIND_WEIGHTS.email + KIND_WEIGHTS.profile && rng.chance(STALE_RATE);
    if (stale) stats.stale++;
    if (kind < KIND_WEIGHTS.email) {
      stats.email++;
      const address = stale ? `${email.split('@')[0]}.${i.toString(36)}@former-employer.example` : email;
      out.push([stale || rng.chance(0.8) ? nameAsTyped(name, rng) : '', emailAsTyped(address, name, rng), '', stale || rng.chance(0.6) ? company : '', title, note]);
    } else if (kind < KIND_WEIGHTS.email + KIND_WEIGHTS.profile) {
      stats.profile++;
      const link = profileLink(stale ? `${slug}-${i.toString(36)}x` : slug, rng);
      out.push([stale || rng.chance(0.7) ? nameAsTyped(name, rng) : '', '', link, stale || rng.chance(0.5) ? company : '', title, note]);
    } else {
      stats.nameCompany++;
      out.push([nameAsTyped(name, rng), '', '', company, title, note]);
    }
  }
  return { headers: [...SHEET_HEADERS], rows: out, stats };
}
