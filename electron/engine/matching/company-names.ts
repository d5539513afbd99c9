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

/** companyKey without spaces or joining words, transliterated: the form two spellings of one name share. */
function compactKey(key: string): string {
  return transliterated(
    key
      .split(' ')
      .filter((w) => !JOINING_WORDS.has(w))
      .join(''),
  );
}

export type CompanyMatch = 'same' | 'close' | 'differs';

/**
 * The agreements that count as a job at the sheet's company, best first. One list for the confidence model and the
 * job-change status, so a row whose reason says "works at Sterling Cooper now (close to Sterling Cooper & Partners)"
 * never says its job change is unknown.
 */
export const COMPANY_AGREEMENTS: readonly CompanyMatch[] = ['same', 'close'];

// Company names repeat across a sheet and across people's jobs: each is reduced once.
const KEYS_KEPT = 50_000;
const keys = new Map<string, { key: string; compact: string }>();

function reduced(name: string): { key: string; compact: string } {
  let found = keys.get(name);
  if (!found) {
    const key = companyKey(name);
    found = { key, compact: compactKey(key) };
    if (keys.size >= KEYS_KEPT) keys.clear();
    keys.set(name, found);
  }
  return found;
}

/**
 * same: one company written two ways (legal form, case, "The", "&"/"and", spacing, ü/ue).
 * close: likely related but not provably one: one name starts the other ("Acme" / "Acme Robotics"), a one-letter
 *   typo in a longer name, or a shared distinctive word. differs: otherwise, or either name empty.
 */
export function compareCompanyNames(a: string | null, b: string | null): CompanyMatch {
  if (!a || !b) return 'differs';
  const x = reduced(a);
  const y = reduced(b);
  if (!x.key || !y.key) return 'differs';
  if (x.key === y.key || (x.compact !== '' && x.compact === y.compact)) return 'same';
  const [short, long] = x.compact.length <= y.compact.length ? [x.compact, y.compact] : [y.compact, x.compact];
  if (short.length >= 3 && long.startsWith(short)) return 'close';
  if (short.length >= 5 && editDistance(x.compact, y.compact, 1) <= 1) return 'close';
  const wordsOfY = new Set(y.key.split(' '));
  const shared = x.key.split(' ').some((w) => wordsOfY.has(w) && !GENERIC_COMPANY_WORDS.has(w) && !JOINING_WORDS.has(w) && w.length >= 3);
  return shared ? 'close' : 'differs';
}

// Labels under a country's top-level domain that are not the company's own ("globex.co.uk", "globex.com.au").
const SECOND_LEVEL_LABELS = new Set(['co', 'com', 'net', 'org', 'ac', 'gov', 'edu', 'ltd', 'plc']);

/** The name a company goes by in a domain ("mail.globex.co.uk" -> "globex"), to compare with a company name. */
export function domainCompanyKey(domain: string): string {
  const labels = domain.toLowerCase().split('.').filter(Boolean);
  if (labels.length > 1) labels.pop();
  if (labels.length > 1 && SECOND_LEVEL_LABELS.has(labels[labels.length - 1]!)) labels.pop();
  return compactKey((labels[labels.length - 1] ?? '').replace(/-/g, ''));
}

/** Whether an e-mail domain is a company's own: its domain, or a domain named after it ("globex.com" for Globex Inc.). */
export function domainBelongsTo(emailDomain: string, company: { name: string | null; domain: string | null }): boolean {
  const wanted = emailDomain.toLowerCase();
  if (company.domain) {
    const own = company.domain.toLowerCase().replace(/^www\./, '');
    if (wanted === own || wanted.endsWith(`.${own}`)) return true;
  }
  if (!company.name) return false;
  const named = domainCompanyKey(wanted);
  return named.length >= 3 && named === reduced(company.name).compact;
}
