import type { Evidence, EvidenceMark, PersonJson } from '../../../shared/model';
import { companyKey, GENERIC_COMPANY_WORDS } from './company-names';
import { editDistance } from './edit-distance';
import { comparable, normalizeEmail } from './normalize';
import { companyNameOf, isObject, jobsOf, personName, personSlug, text } from './person';
import type { RowInput } from './queries';

/** How each input field of a row compares with one candidate person: computed locally, no call. */
export function evidenceFor(input: RowInput, person: PersonJson): Evidence {
  return {
    email: emailEvidence(input, person),
    social: socialEvidence(input, person),
    name: nameMark(input.name, personName(person)),
    company: companyMark(input.company, companyNamesOf(person)),
  };
}

// ----- e-mail ------------------------------------------------------------------------------------------------

function personEmails(person: PersonJson): string[] {
  if (!isObject(person)) return [];
  const raw: unknown[] = [person.email_address, person.email];
  for (const list of [person.emails, person.email_addresses]) {
    if (!Array.isArray(list)) continue;
    for (const item of list) raw.push(isObject(item) ? (item.email ?? item.address ?? item.value) : item);
  }
  const emails: string[] = [];
  for (const value of raw) {
    const candidate = text(value);
    const result = candidate ? normalizeEmail(candidate) : null;
    if (result?.ok) emails.push(result.email);
  }
  return emails;
}

/** One mailbox written two ways: "+tag" suffixes, and dots in Gmail addresses. */
function mailbox(email: string): string {
  const at = email.lastIndexOf('@');
  let local = email.slice(0, at).replace(/\+.*$/u, '');
  let domain = email.slice(at + 1);
  if (domain === 'googlemail.com') domain = 'gmail.com';
  if (domain === 'gmail.com') local = local.replaceAll('.', '');
  return `${local}@${domain}`;
}

function emailEvidence(input: RowInput, person: PersonJson): EvidenceMark {
  if (!input.email?.ok) return 'missing';
  const emails = personEmails(person);
  if (emails.length === 0) return 'missing';
  const wanted = input.email.email;
  if (emails.includes(wanted)) return 'same';
  return emails.some((e) => mailbox(e) === mailbox(wanted)) ? 'close' : 'differs';
}

// ----- profile slug ------------------------------------------------------------------------------------------

function socialEvidence(input: RowInput, person: PersonJson): EvidenceMark {
  if (!input.profile?.ok) return 'missing';
  const theirs = personSlug(person);
  if (!theirs) return 'missing';
  return theirs.normalize('NFC') === input.profile.slug ? 'same' : 'differs';
}

// ----- name --------------------------------------------------------------------------------------------------

type TokenMatch = 'exact' | 'typo' | 'initial' | null;

/** Typos allowed grow with the word: none in short words, where one letter makes another name (Jan/Jen). */
function typoBudget(a: string, b: string): number {
  const shorter = Math.min([...a].length, [...b].length);
  return shorter >= 8 ? 2 : shorter >= 4 ? 1 : 0;
}

function tokenMatch(a: string, b: string): TokenMatch {
  if (a === b) return 'exact';
  if ([...a].length === 1 || [...b].length === 1) return [...a][0] === [...b][0] ? 'initial' : null;
  const budget = typoBudget(a, b);
  return budget > 0 && editDistance(a, b, budget) <= budget ? 'typo' : null;
}

const MATCH_ORDER: TokenMatch[] = ['exact', 'typo', 'initial'];

/** Pairs each token of `shorter` with a distinct token of `longer`, best kind of match first. */
function pairTokens(shorter: string[], longer: string[]): TokenMatch[] {
  const used = new Set<number>();
  const result: TokenMatch[] = shorter.map(() => null);
  for (const kind of MATCH_ORDER) {
    shorter.forEach((token, i) => {
      if (result[i] !== null) return;
      const j = longer.findIndex((other, k) => !used.has(k) && tokenMatch(token, other) === kind);
      if (j === -1) return;
      used.add(j);
      result[i] = kind;
    });
  }
  return result;
}

// Particles shared by unrelated names ("Maria de Souza" / "Pedro de Lima") say nothing on their own.
const NAME_PARTICLES = new Set([
  'de', 'da', 'di', 'do', 'dos', 'das', 'del', 'della', 'der', 'den', 'van', 'von', 'la', 'le', 'du', 'des', 'bin',
  'bint', 'al', 'el', 'y', 'e', 'ben', 'st',
]);

/**
 * same: equal, or the same words in another order ("Doe, Jane").
 * close: written together they agree ("Mary Ann" / "Maryann"); or every word of the shorter name pairs with
 *   a word of the longer one, counting typos and initials ("J. Doe", "J. D." / "Jane Doe"); or the two share
 *   at least one real word, exactly or with a typo: a partial overlap, which is also how a changed surname or
 *   a nickname looks ("Jane Smith" / "Jane Doe", "Bob Smith" / "Robert Smith").
 * differs: nothing in common beyond initials or particles (de, van, ...).
 */
export function nameMark(rowName: string | null, personName: string | null): EvidenceMark {
  const a = comparable(rowName ?? '');
  const b = comparable(personName ?? '');
  if (!a || !b) return 'missing';
  if (a === b) return 'same';
  const ta = a.split(' ');
  const tb = b.split(' ');
  if ([...ta].sort().join(' ') === [...tb].sort().join(' ')) return 'same';
  if (ta.join('') === tb.join('')) return 'close';
  const [shorter, longer] = ta.length <= tb.length ? [ta, tb] : [tb, ta];
  if (pairTokens(shorter, longer).every((p) => p !== null)) return 'close';
  const meaningful = (t: string) => !NAME_PARTICLES.has(t) && [...t].length > 1;
  const overlap = pairTokens(shorter.filter(meaningful), longer.filter(meaningful));
  return overlap.some((p) => p === 'exact' || p === 'typo') ? 'close' : 'differs';
}

// ----- company -----------------------------------------------------------------------------------------------

/** Every company the person is known at: all jobs (current and past), the position, a top-level company. */
function companyNamesOf(person: PersonJson): string[] {
  if (!isObject(person)) return [];
  const names: (string | null)[] = jobsOf(person).map(companyNameOf);
  if (isObject(person.position)) names.push(companyNameOf(person.position));
  names.push(isObject(person.company) ? text(person.company.name) : text(person.company));
  return names.filter((n): n is string => n !== null);
}

function companyPairMark(a: string, b: string): EvidenceMark {
  if (a === b) return 'same';
  const compactA = a.replaceAll(' ', '');
  const compactB = b.replaceAll(' ', '');
  if (compactA === compactB) return 'same';
  const [short, long] = compactA.length <= compactB.length ? [compactA, compactB] : [compactB, compactA];
  if ([...short].length >= 3 && long.startsWith(short)) return 'close';
  if ([...short].length >= 5 && editDistance(compactA, compactB, 1) <= 1) return 'close';
  const wordsB = new Set(b.split(' '));
  const shared = a.split(' ').filter((w) => wordsB.has(w) && !GENERIC_COMPANY_WORDS.has(w) && [...w].length >= 2);
  return shared.length > 0 ? 'close' : 'differs';
}

/**
 * Compared after dropping legal forms (Inc, Ltd, GmbH, ...). A spreadsheet is often older than the
 * person's last move, so the row's company equal to ANY of the person's jobs, current or past, is `same`:
 * it says "this person worked there", which is what identifies them. `close` on a shared distinctive word
 * or a prefix ("Acme" / "Acme Robotics"), or a one-letter typo in a longer name; `differs` otherwise.
 */
export function companyMark(rowCompany: string | null, personCompanies: string[]): EvidenceMark {
  const wanted = companyKey(rowCompany ?? '');
  const known = personCompanies.map(companyKey).filter(Boolean);
  if (!wanted || known.length === 0) return 'missing';
  const marks = known.map((k) => companyPairMark(wanted, k));
  if (marks.includes('same')) return 'same';
  return marks.includes('close') ? 'close' : 'differs';
}
