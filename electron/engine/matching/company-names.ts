// Whether two company names name one company, as a person reading a CRM sheet would judge it: "Globex" and
// "Globex, Inc.", "The Globex Company", "GLOBEX" are one; "Müller & Söhne" and "Mueller and Soehne" are one;
// "Blue Harbor" and "Blueharbor" are one. Pure; used by the confidence model, the job-change status, review and
// export alike, so they never disagree about a company.
import { editDistance } from './edit-distance';
import { transliterated } from './name-comparison';
import { comparable } from './normalize';

// Legal-form words: "Acme Inc." and "ACME, LLC" are the same company to a reviewer.
export const LEGAL_FORMS = new Set([
  'inc', 'incorporated', 'ltd', 'limited', 'llc', 'llp', 'lp', 'plc', 'corp', 'corporation', 'co', 'company',
  'gmbh', 'mbh', 'ag', 'kg', 'ohg', 'ug', 'se', 'sa', 'sas', 'sarl', 'srl', 'spa', 'sl', 'bv', 'nv', 'oy', 'ab',
  'as', 'asa', 'aps', 'pty', 'pvt', 'pte', 'kk', 'sdn', 'bhd', 'cv', 'de', 'and',
]);

// Words so common in company names that sharing one says nothing about being the same company.
export const GENERIC_COMPANY_WORDS = new Set([
  'group', 'international', 'global', 'holding', 'holdings', 'technologies', 'technology', 'tech', 'solutions',
  'services', 'systems', 'consulting', 'partners', 'labs', 'software', 'digital', 'bank', 'university', 'institute',
  'capital', 'management', 'media', 'health', 'healthcare', 'industries', 'enterprises', 'associates', 'agency',
  'studio', 'studios', 'ventures', 'networks', 'of', 'for', 'in', 'at', 'america', 'europe', 'usa', 'uk',
]);

// Words a company's name may carry or drop after its own name, saying what it does or what it is rather than which
// company it is: "Cyberdyne" / "Cyberdyne Systems", "Black Mesa" / "Black Mesa Research", "Sterling Cooper" /
// "Sterling Cooper & Partners" are one company to a reader. A shared word of this kind alone says nothing.
export const DESCRIPTIVE_COMPANY_WORDS = new Set([
  ...GENERIC_COMPANY_WORDS,
  'research', 'analytics', 'dynamics', 'energy', 'power', 'logistics', 'logistik', 'foods', 'food',
  'robotics', 'bio', 'biotech', 'pharma', 'pharmaceuticals', 'therapeutics', 'sciences', 'science', 'medical',
  'motors', 'automotive', 'works', 'cloud', 'data', 'security', 'devices', 'electronics', 'insurance', 'retail',
  'mobility', 'learning', 'education', 'payments', 'finance', 'financial', 'investments', 'advisors', 'advisory',
  'games', 'entertainment', 'materials', 'textiles', 'brewing', 'engineering', 'design', 'marketing', 'communications',
  'telecom', 'foundation', 'trust', 'fund', 'products', 'manufacturing', 'construction', 'properties', 'realty',
  'aerospace', 'chemicals', 'sons', 'brothers',
]);

// "&" and "and" (and "und", "et", "y") join the same names: "Müller & Söhne" = "Mueller and Soehne".
const JOINING_WORDS = new Set(['and', 'und', 'et', 'y', 'e']);

/**
 * A company name reduced for comparison: comparable() text without legal forms at the end and "the" at the start
 * ("The Acme Co., Ltd." -> "acme"). A name made only of such words is kept whole.
 */
export function companyKey(name: string): string {
  const tokens = comparable(name).split(' ').filter(Boolean);
  let start = 0;
  let end = tokens.length;
  while (end > start + 1 && LEGAL_FORMS.has(tokens[end - 1]!)) end--;
  while (end > start + 1 && tokens[start] === 'the') start++;
  // "The Company": nothing but such words, so nothing to reduce it to.
  if (end - start === 1 && tokens[start] === 'the') return tokens.join(' ');
  return tokens.slice(start, end).join(' ');
}

/** Words joined without spaces, transliterated: the form two spellings of one name share ("Blue Harbor" = "Blueharbor"). */
function compactOf(words: readonly string[]): string {
  return transliterated(words.join(''));
}

export type CompanyMatch = 'same' | 'close' | 'differs';

/** A name as the comparison reads it, worked out once per name. */
interface Reduced {
  key: string;
  /** The key's words without joining words, joined and transliterated. */
  compact: string;
  /**
   * The compact forms of the name with some of its descriptive words dropped (never its first word nor any other),
   * each with the fewest words dropped to reach it: "Black Mesa Research" -> "blackmesa" (1). Empty when the name
   * has no word of its own to keep.
   */
  shortened: ReadonlyMap<string, number>;
  /** The compact forms of the words the name begins with, each with the words left after it: "Pereira & Karlsson" -> "pereira" (1). */
  beginnings: ReadonlyMap<string, number>;
  /** Whether the name is one distinctive word, which may stand for a name it begins ("Pereira", "Cyberdyne"). */
  oneWord: boolean;
  /** The name as an acronym, when it is written as one: one word of 2 to 6 capitals ("IBM"); else null. */
  acronym: string | null;
  /** The initials of a name of two words or more, with and without its small words ("of", "for"). */
  initials: readonly string[];
}

// Words an acronym may skip: "Bank of America" is BA as well as BOA.
const SMALL_WORDS = new Set(['of', 'for', 'in', 'at']);
// A first word standing for the whole name has at least this many letters: "Acme" does, "Red" or "AB" does not.
const MIN_FIRST_WORD = 4;
// At most this many descriptive words are tried dropped in one name: real names have one or two.
const MOST_DROPPED = 4;

function reduce(name: string): Reduced {
  const key = companyKey(name);
  const words = key.split(' ').filter((w) => w !== '' && !JOINING_WORDS.has(w));
  const compact = compactOf(words);
  const shortened = new Map<string, number>();
  const droppable = words.map((w, i) => i > 0 && DESCRIPTIVE_COMPANY_WORDS.has(w));
  const own = words.some((w, i) => !droppable[i] && !DESCRIPTIVE_COMPANY_WORDS.has(w));
  const positions = droppable.flatMap((d, i) => (d ? [i] : []));
  if (own && positions.length > 0 && positions.length <= MOST_DROPPED) {
    for (let mask = 1; mask < 1 << positions.length; mask++) {
      const dropped = new Set(positions.filter((_, bit) => mask & (1 << bit)));
      const form = compactOf(words.filter((_, i) => !dropped.has(i)));
      shortened.set(form, Math.min(dropped.size, shortened.get(form) ?? Infinity));
    }
  }
  const beginnings = new Map<string, number>();
  for (let n = 1; n < words.length; n++) beginnings.set(compactOf(words.slice(0, n)), words.length - n);
  const oneWord = words.length === 1 && compact.length >= MIN_FIRST_WORD && !DESCRIPTIVE_COMPANY_WORDS.has(words[0]!);
  // Capitals in the name as written, legal forms aside: "IBM Corp." is an acronym, "Ibm" and "Acme" are not.
  const written = name.replace(/[^\p{L}\p{N}]+/gu, ' ').trim().split(' ').filter((w) => !LEGAL_FORMS.has(w.toLowerCase()));
  const acronym = words.length === 1 && written.length === 1 && /^[\p{Lu}\p{N}]{2,6}$/u.test(written[0]!) ? compact : null;
  const initials = words.length < 2 ? [] : [...new Set([words, words.filter((w) => !SMALL_WORDS.has(w))].map((ws) => ws.map((w) => w[0]).join('')))];
  return { key, compact, shortened, beginnings, oneWord, acronym, initials };
}

// Company names repeat across a sheet and across people's jobs: each is reduced once.
const KEYS_KEPT = 50_000;
const keys = new Map<string, Reduced>();

function reduced(name: string): Reduced {
  let found = keys.get(name);
  if (!found) {
    found = reduce(name);
    if (keys.size >= KEYS_KEPT) keys.clear();
    keys.set(name, found);
  }
  return found;
}

/** How two company names agree, and how far apart they are when close. */
export interface CompanyAgreement {
  match: CompanyMatch;
  /** Words one name has beyond the other (a typo or an acronym counts one); 0 unless close. */
  apart: number;
}

const SAME: CompanyAgreement = { match: 'same', apart: 0 };
const DIFFERS: CompanyAgreement = { match: 'differs', apart: 0 };

/**
 * same: one company written two ways (legal form, case, "The", "&"/"and", spacing, ü/ue).
 * close: one company as far as a reader can tell, but not written the same: one name is the other with
 *   descriptive words more ("CYBERDYNE" / "Cyberdyne Systems", "Sterling Cooper & Partners" / "Sterling Cooper",
 *   "Black Mesa Research" / "Black Mesa"), one distinctive word the other begins with ("Pereira" / "Pereira &
 *   Karlsson"), a one-letter typo in a longer name, or an acronym written in capitals ("IBM" / "International
 *   Business Machines").
 * differs: otherwise, or either name empty. Sharing a word is not enough ("Stone Analytics" / "Blue Stone Capital",
 *   "Nova Analytics" / "Nova Robotics"): that is how sister companies and strangers are named alike.
 */
export function companyAgreement(a: string | null, b: string | null): CompanyAgreement {
  if (!a || !b) return DIFFERS;
  return agreementOf(reduced(a), reduced(b));
}

function agreementOf(x: Reduced, y: Reduced): CompanyAgreement {
  if (!x.key || !y.key) return DIFFERS;
  if (x.key === y.key || (x.compact !== '' && x.compact === y.compact)) return SAME;
  const dropped = Math.min(
    x.compact.length >= 3 ? (y.shortened.get(x.compact) ?? Infinity) : Infinity,
    y.compact.length >= 3 ? (x.shortened.get(y.compact) ?? Infinity) : Infinity,
    x.oneWord ? (y.beginnings.get(x.compact) ?? Infinity) : Infinity,
    y.oneWord ? (x.beginnings.get(y.compact) ?? Infinity) : Infinity,
  );
  if (dropped !== Infinity) return { match: 'close', apart: dropped };
  if (Math.min(x.compact.length, y.compact.length) >= 5 && editDistance(x.compact, y.compact, 1) <= 1) return { match: 'close', apart: 1 };
  if ((x.acronym !== null && y.initials.includes(x.acronym)) || (y.acronym !== null && x.initials.includes(y.acronym))) return { match: 'close', apart: 1 };
  return DIFFERS;
}

export function compareCompanyNames(a: string | null, b: string | null): CompanyMatch {
  return companyAgreement(a, b).match;
}

/**
 * The items (jobs) at a company: those that agree with it best, the same name before a close one and, among close
 * ones, the fewest words apart ("Granite Group International" is Granite Group before Granite Inc.); none when
 * nothing comes close. One rule for the confidence model's evidence and the job-change status, so a row whose
 * reason says "works at Sterling Cooper now (close to Sterling Cooper & Partners)" never says its job change is
 * unknown, nor names another job.
 */
export function atCompany<T>(company: string, items: readonly T[], nameOf: (item: T) => string | null): { match: CompanyMatch; items: T[] } {
  let best = DIFFERS;
  let found: T[] = [];
  if (!company) return { match: best.match, items: found };
  // The sheet's company is looked up once, not once a job.
  const x = reduced(company);
  for (const item of items) {
    const name = nameOf(item);
    const agreement = name ? agreementOf(x, reduced(name)) : DIFFERS;
    if (agreement.match === 'differs') continue;
    const order = better(agreement, best);
    if (order > 0) {
      best = agreement;
      found = [item];
    } else if (order === 0) found.push(item);
  }
  return { match: best.match, items: found };
}

/** > 0 when `a` is the better agreement, 0 when they are as good. */
function better(a: CompanyAgreement, b: CompanyAgreement): number {
  return matchRank(a) - matchRank(b) || b.apart - a.apart;
}

function matchRank(x: CompanyAgreement): number {
  return x.match === 'same' ? 2 : x.match === 'close' ? 1 : 0;
}

// Labels under a country's top-level domain that are not the company's own ("globex.co.uk", "globex.com.au").
const SECOND_LEVEL_LABELS = new Set(['co', 'com', 'net', 'org', 'ac', 'gov', 'edu', 'ltd', 'plc']);

/** The name a company goes by in a domain ("mail.globex.co.uk" -> "globex"), to compare with a company name. */
export function domainCompanyKey(domain: string): string {
  const labels = domain.toLowerCase().split('.').filter(Boolean);
  if (labels.length > 1) labels.pop();
  if (labels.length > 1 && SECOND_LEVEL_LABELS.has(labels[labels.length - 1]!)) labels.pop();
  return compactOf([(labels[labels.length - 1] ?? '').replace(/-/g, '')]);
}

/** An e-mail domain as domainBelongsTo compares it, made once for comparing with job after job. */
export interface EmailDomain {
  /** Lower-cased. */
  domain: string;
  /** The name the company goes by in it (domainCompanyKey). */
  named: string;
}

export function emailDomain(domain: string): EmailDomain {
  const lower = domain.toLowerCase();
  return { domain: lower, named: domainCompanyKey(lower) };
}

/** Whether an e-mail domain is a company's own: its domain, or a domain named after it ("globex.com" for Globex Inc.). */
export function domainBelongsTo(emailDomainText: string, company: { name: string | null; domain: string | null }): boolean {
  return domainOwnedBy(emailDomain(emailDomainText), company.name, company.domain);
}

/** domainBelongsTo for a domain made ready by emailDomain. */
export function domainOwnedBy(wanted: EmailDomain, name: string | null, domain: string | null): boolean {
  if (domain) {
    const own = domain.toLowerCase().replace(/^www\./, '');
    if (wanted.domain === own || wanted.domain.endsWith(`.${own}`)) return true;
  }
  if (!name) return false;
  return wanted.named.length >= 3 && wanted.named === reduced(name).compact;
}
