// Turning what users paste into spreadsheets into values the service accepts (profile slugs, e-mails) and
// into forms we can compare (folded names, accent-free text). Pure functions: nothing here throws on any string.

export type SlugResult =
  | { ok: true; slug: string }
  | { ok: false; reason: 'empty' | 'company_page' | 'other_host' | 'not_a_profile' | 'invalid'; message: string };

export type EmailResult = { ok: true; email: string } | { ok: false; reason: 'empty' | 'invalid'; message: string };

// Invisible characters that sneak in with copy/paste and are not separators: zero-width space, word joiner.
const INVISIBLE = /[\u200B\u2060]/gu;
// \s covers NBSP, the U+2000 spaces, U+202F, U+3000, line/paragraph separators and the BOM.
const WHITESPACE_RUN = /\s+/gu;

export function foldWhitespace(input: string): string {
  const s = String(input ?? '');
  return isFolded(s) ? s : s.replace(INVISIBLE, '').replace(WHITESPACE_RUN, ' ').trim();
}

/**
 * Nearly every cell is already folded: single spaces between words, nothing else that \s or INVISIBLE match.
 * One pass over the char codes says so without the regexes and the copies they make (planning a sheet folds
 * every mapped cell several times). Conservative: any control character or rare space sends it the slow way.
 */
function isFolded(s: string): boolean {
  const last = s.length - 1;
  for (let i = 0; i <= last; i++) {
    const c = s.charCodeAt(i);
    // Nothing from '!' to U+009F is folded: the usual characters, so tested first.
    if (c > 32 && c < 0xa0) continue;
    if (c === 32) {
      if (i === 0 || i === last || s.charCodeAt(i + 1) === 32) return false;
    } else if (c < 32 || c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200b) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x2060 || c === 0x3000 || c === 0xfeff) {
      return false;
    }
  }
  return true;
}

export function fullNameFrom(cells: { fullName?: string; firstName?: string; lastName?: string }): string | null {
  const full = foldWhitespace(cells.fullName ?? '');
  if (full) return full;
  const joined = foldWhitespace(`${cells.firstName ?? ''} ${cells.lastName ?? ''}`);
  return joined || null;
}

// Letters NFKD does not decompose, spelled the way people type them on an ASCII keyboard.
const SPECIAL_LETTERS: Record<string, string> = {
  ł: 'l', ø: 'o', ß: 'ss', æ: 'ae', œ: 'oe', đ: 'd', ð: 'd', þ: 'th', ı: 'i', ħ: 'h', ŧ: 't', ĸ: 'k', ŋ: 'n', ƒ: 'f',
};
const SPECIAL_LETTER = new RegExp(`[${Object.keys(SPECIAL_LETTERS).join('')}]`, 'gu');
// Accents come out of NFKD as nonspacing/enclosing marks; spacing marks (Devanagari vowel signs, ...) carry
// letters of their own and are kept.
const ACCENTS = /[\p{Mn}\p{Me}]/gu;
// Apostrophes join one word ("O'Brien" = "OBrien"); every other non-letter separates words.
const APOSTROPHES = /['\u2019\u02BC\u2018`´]/gu;
const NOT_WORD = /[^\p{L}\p{N}\p{Mc}]+/gu;

// Printable ASCII: NFKD, accents and special letters change nothing there, so comparable() comes down to this.
const ASCII_APOSTROPHES = /['`]/g;
const ASCII_NOT_WORD = /[^a-z0-9]+/g;

export function comparable(text: string): string {
  const s = String(text ?? '');
  // Most names are ASCII letters and digits between single spaces: lower-casing is all there is to do.
  if (isPlainWords(s)) return s.toLowerCase();
  // Most of the rest (companies, accented names) are printable ASCII once their Latin letters are folded, and the
  // confidence model folds several per row of a sheet.
  const latin = latinFolded(s);
  if (latin !== null) return latin.toLowerCase().replace(ASCII_APOSTROPHES, '').replace(ASCII_NOT_WORD, ' ').trim();
  return folded(s).replace(APOSTROPHES, '').replace(NOT_WORD, ' ').trim();
}

/** Accents and case folded away, special letters spelled out: comparable() before words are separated. */
function folded(text: string): string {
  let s = text;
  // Two rounds: lower-casing can produce characters that decompose again (compatibility letters, ligatures).
  for (let round = 0; round < 2; round++) {
    s = s.normalize('NFKD').replace(ACCENTS, '').toLowerCase().replace(SPECIAL_LETTER, (c) => SPECIAL_LETTERS[c] ?? c);
  }
  return s;
}

/**
 * Each Latin letter beyond ASCII (U+00A0-U+024F, U+1E00-U+1EFF) that folded() alone turns into ASCII letters or
 * digits ("é" -> "e", "ß" -> "ss"), by code. Folding a text is folding each of its characters but for the few cased
 * by their neighbours (the Greek final sigma), none of them here: a text of printable ASCII and these letters folds
 * to the text with each replaced, and then needs only the ASCII rules.
 */
const LATIN_RANGES: readonly (readonly [number, number])[] = [[0xa0, 0x24f], [0x1e00, 0x1eff]];
const LATIN_FOLDS = LATIN_RANGES.map(([from, to]) => {
  const folds: (string | undefined)[] = [];
  for (let code = from; code <= to; code++) {
    const fold = folded(String.fromCharCode(code));
    folds.push(/^[a-z0-9]+$/.test(fold) ? fold : undefined);
  }
  return folds;
});

/** The text with its Latin letters folded (LATIN_FOLDS), or null when it holds anything else beyond printable ASCII. */
function latinFolded(s: string): string | null {
  let out = '';
  let from = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x20 && c <= 0x7e) continue;
    const fold = c >= 0xa0 && c <= 0x24f ? LATIN_FOLDS[0]![c - 0xa0] : c >= 0x1e00 && c <= 0x1eff ? LATIN_FOLDS[1]![c - 0x1e00] : undefined;
    if (fold === undefined) return null;
    out += s.slice(from, i) + fold;
    from = i + 1;
  }
  return from === 0 ? s : out + s.slice(from);
}

/** ASCII letters and digits, words separated by one space, none at either end ("Jane Doe", not "Jane  Doe" or "O'Brien"). */
function isPlainWords(s: string): boolean {
  const last = s.length - 1;
  for (let i = 0; i <= last; i++) {
    const c = s.charCodeAt(i);
    if (c === 32) {
      if (i === 0 || i === last || s.charCodeAt(i + 1) === 32) return false;
    } else if (!((c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57))) {
      return false;
    }
  }
  return true;
}

/** Cells people fill in when they have nothing: treated as empty so they never become queries or problems. */
const PLACEHOLDERS = new Set(['', 'n a', 'na', 'none', 'null', 'nil', 'unknown', 'tbd', 'not available', 'keine', 'aucun', 'aucune']);

/** Letters and digits of the placeholders' comparable() forms, by ASCII code; and the most any of them has. */
const PLACEHOLDER_CHAR = new Uint8Array(128);
for (const p of PLACEHOLDERS) for (const c of p.replace(/ /g, '')) PLACEHOLDER_CHAR[c.charCodeAt(0)] = 1;
const MOST_PLACEHOLDER_CHARS = Math.max(...[...PLACEHOLDERS].map((p) => p.replace(/ /g, '').length));

export function isPlaceholder(input: string): boolean {
  const folded = foldWhitespace(input);
  if (folded === '') return true;
  const quick = quickPlaceholder(folded);
  if (quick !== null) return quick;
  if (/^[\p{P}\p{S}]+$/u.test(folded)) return true;
  return PLACEHOLDERS.has(comparable(folded));
}

/**
 * isPlaceholder without comparable() (NFKD twice and five regexes) for nearly every cell. An ASCII letter or
 * digit comes out of comparable() as itself, lower-cased, whatever surrounds it: one that no placeholder has, or
 * more of them than any placeholder has, settles it. Text all ASCII is settled exactly, since comparable()
 * comes down to: lower-case, drop apostrophes, one space for each run of anything but letters and digits,
 * trimmed. null when only comparable() can tell (some letters are not ASCII).
 */
function quickPlaceholder(s: string): boolean | null {
  let key = '';
  let gap = false;
  let ascii = true;
  let count = 0;
  for (let i = 0; i < s.length; i++) {
    let c = s.charCodeAt(i);
    if (c >= 128) {
      ascii = false;
      continue;
    }
    if (c === 39 || c === 96) continue; // ' and ` join a word
    if (c >= 65 && c <= 90) c += 32;
    if ((c >= 97 && c <= 122) || (c >= 48 && c <= 57)) {
      if (PLACEHOLDER_CHAR[c] === 0 || ++count > MOST_PLACEHOLDER_CHARS) return false;
      if (ascii) {
        if (gap && key !== '') key += ' ';
        key += String.fromCharCode(c);
      }
      gap = false;
    } else {
      gap = true;
    }
  }
  return ascii ? PLACEHOLDERS.has(key) : null;
}

// Quotes, angle brackets and whitespace that wrap a value copied from a mail client or a formatted sheet.
// What may wrap a pasted link or address: quotes, brackets, and (at the end only) a stray comma or semicolon.
const LEADING_WRAPPER = /[\s"'`“”‘’«»<>()[\]]/u;
const TRAILING_WRAPPER = /[\s"'`“”‘’«»<>()[\],;]/u;

// Walks in from both ends instead of a /^[...]+|[...]+$/ regex: that one retries the trailing alternative from
// every position of an inner whitespace run, quadratic on a cell of a million spaces.
function unwrap(input: string): string {
  const s = String(input ?? '').replace(INVISIBLE, '');
  // Wrappers are single UTF-16 units: when neither end is one, there is nothing to take off (the usual case).
  if (s === '' || (!LEADING_WRAPPER.test(s[0]!) && !TRAILING_WRAPPER.test(s[s.length - 1]!))) return s;
  const chars = [...s];
  let start = 0;
  let end = chars.length;
  while (start < end && LEADING_WRAPPER.test(chars[start]!)) start++;
  while (end > start && TRAILING_WRAPPER.test(chars[end - 1]!)) end--;
  return start === 0 && end === chars.length ? s : chars.slice(start, end).join('');
}

function shown(input: string): string {
  const s = foldWhitespace(input);
  return s.length > 120 ? `${s.slice(0, 117)}...` : s;
}

// ----- e-mail -----------------------------------------------------------------------------------------------

const LOCAL_PART = /^[\p{L}\p{N}!#$%&'*+/=?^_`{|}~.-]+$/u;
const DOMAIN_LABEL = /^[\p{L}\p{N}](?:[\p{L}\p{N}-]*[\p{L}\p{N}])?$/u;
const TOP_LEVEL = /^(?:\p{L}{2,63}|xn--[a-z0-9-]{1,59})$/u;

export function normalizeEmail(input: string): EmailResult {
  // "Jane Doe <jane@acme.com>" as copied from a mail client.
  const text = String(input ?? '');
  const bracketed = text.includes('<') ? /<([^<>\s]+@[^<>\s]+)>/u.exec(text) : null;
  let s = unwrap(bracketed ? bracketed[1]! : input);
  if (s === '') return { ok: false, reason: 'empty', message: 'no e-mail' };
  s = s.replace(/^mailto:/iu, '').toLowerCase();
  return isEmail(s) ? { ok: true, email: s } : { ok: false, reason: 'invalid', message: `invalid e-mail '${shown(String(input ?? ''))}'` };
}

function isEmail(s: string): boolean {
  if (s.length > 254 || /\s/u.test(s)) return false;
  const at = s.lastIndexOf('@');
  if (at <= 0 || s.indexOf('@') !== at) return false;
  const local = s.slice(0, at);
  const domain = s.slice(at + 1);
  if (local.length > 64 || !LOCAL_PART.test(local) || local.startsWith('.') || local.endsWith('.') || local.includes('..')) return false;
  const labels = domain.split('.');
  if (labels.length < 2) return false;
  if (!labels.every((label) => label.length <= 63 && DOMAIN_LABEL.test(label))) return false;
  return TOP_LEVEL.test(labels[labels.length - 1]!);
}

// ----- profile slug -----------------------------------------------------------------------------------------

// LinkedIn custom URLs are 3-100 letters or digits; generated ones add hyphens, old ones underscores.
const SLUG_CHARS = /^[\p{L}\p{N}\p{M}_-]+$/u;
const HAS_LETTER = /\p{L}/u;
// A Map, not an object: the link's path is the key, and "constructor" must not find Object's own.
const PAGE_KINDS = new Map<string, string>([['company', 'company page'], ['school', 'school page'], ['showcase', 'showcase page'], ['edu', 'school page']]);
// Paths without a host that are still clearly LinkedIn paths ("in/jane", "/company/acme").
const LINKEDIN_PATH = /^\/?(?:in|pub|company|school|showcase)\//iu;

/**
 * The profile slug (the part after `/in/`) of a LinkedIn profile link, or a bare slug as typed.
 *
 * - Country and mobile hosts (`uk.`, `m.`, `www.`) are all LinkedIn; anything after the slug (a language
 *   segment like `/en`, or `/details/experience`) is ignored, as are the query and fragment.
 * - Old public links `/pub/jane-doe/a7/576/b50` are rewritten the way LinkedIn redirects them:
 *   `jane-doe-b50576a7` (segments reversed, the last two padded to three hex digits).
 * - Slugs are percent-decoded, lower-cased (String#toLowerCase is locale-independent) and NFC-normalized, so
 *   the same profile typed two ways gives one slug; non-ASCII letters are kept.
 * - A bare slug must be 3-100 of letters, digits, `_` and `-` with at least one letter, so that a stray
 *   number or a single word with spaces is reported instead of sent. A slug inside an `/in/` link is trusted
 *   with 2-100 characters of the same kind, the path already says it is a profile.
 */
export function profileSlugFromUrl(input: string): SlugResult {
  const raw = String(input ?? '');
  const plain = plainSlug(raw);
  if (plain !== null) return { ok: true, slug: plain };
  const s = unwrap(raw);
  const name = shown(raw);
  if (s === '') return { ok: false, reason: 'empty', message: 'no profile link' };

  const schemeMatch = /^([a-z][a-z0-9+.-]*):\/*/iu.exec(s);
  let rest: string;
  if (schemeMatch) {
    const scheme = schemeMatch[1]!.toLowerCase();
    if (scheme !== 'http' && scheme !== 'https') {
      return s.includes('@') && scheme === 'mailto'
        ? { ok: false, reason: 'invalid', message: `an e-mail address, not a profile link: ${name}` }
        : { ok: false, reason: 'invalid', message: `not a web link: ${name}` };
    }
    rest = s.slice(schemeMatch[0].length);
  } else if (s.startsWith('//')) {
    rest = s.slice(2);
  } else if (LINKEDIN_PATH.test(s)) {
    return fromLinkedinPath(s.replace(/^\/?/u, '/'), name);
  } else if (looksLikeHostFirst(s)) {
    rest = s;
  } else {
    return bareSlug(s, name);
  }

  const hostEnd = rest.search(/[/?#]/u);
  let host = (hostEnd === -1 ? rest : rest.slice(0, hostEnd)).toLowerCase();
  const path = hostEnd === -1 ? '' : rest.slice(hostEnd);
  host = host.replace(/^[^@]*@/u, '').replace(/:\d*$/u, '').replace(/\.$/u, '');
  if (host === '') return { ok: false, reason: 'invalid', message: `not a profile link or slug: ${name}` };
  if (host === 'lnkd.in') {
    return { ok: false, reason: 'not_a_profile', message: `short link, open it and use the full profile link: ${name}` };
  }
  if (host !== 'linkedin.com' && !host.endsWith('.linkedin.com')) {
    return { ok: false, reason: 'other_host', message: `not a LinkedIn link (${host}): ${name}` };
  }
  return fromLinkedinPath(path, name);
}

// Links as LinkedIn itself writes them, and as they are mostly pasted; any other host or case takes the long way.
const PROFILE_LINK_STARTS = ['https://www.linkedin.com/in/', 'www.linkedin.com/in/', 'https://linkedin.com/in/', 'linkedin.com/in/', 'http://www.linkedin.com/in/', 'http://linkedin.com/in/'];

/**
 * The slug of the forms most cells take, read without the regexes and copies of the long way (which gives the same
 * slug for them): a bare slug of ASCII letters, digits, "-" and "_", or one after a link's "/in/" with nothing after
 * it but a "/". null for anything else, and for what the long way refuses, which it then explains.
 */
function plainSlug(s: string): string | null {
  let start = 0;
  for (const link of PROFILE_LINK_STARTS) {
    if (s.startsWith(link)) {
      start = link.length;
      break;
    }
  }
  let end = s.length;
  if (start > 0 && s.charCodeAt(end - 1) === 47) end--;
  let letter = false;
  for (let i = start; i < end; i++) {
    const c = s.charCodeAt(i);
    if ((c >= 97 && c <= 122) || (c >= 65 && c <= 90)) letter = true;
    else if (!((c >= 48 && c <= 57) || c === 45 || c === 95)) return null;
  }
  const length = end - start;
  const usable = start > 0 ? length >= 2 && length <= 100 : length >= 3 && length <= 100 && letter;
  return usable ? s.slice(start, end).toLowerCase() : null;
}

function looksLikeHostFirst(s: string): boolean {
  if (s.includes('@') && !/[/]/u.test(s.slice(0, s.indexOf('@')))) return false;
  const first = s.split(/[/?#]/u, 1)[0]!;
  return /^[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)*\.\p{L}{2,}(?::\d+)?\.?$/u.test(first);
}

function fromLinkedinPath(path: string, name: string): SlugResult {
  const segments = path.split(/[?#]/u, 1)[0]!.split('/').filter((part) => part !== '');
  const kind = (decode(segments[0] ?? '') ?? '').toLowerCase();
  if (kind === 'in') return slugInLink(segments[1], name);
  if (kind === 'pub') {
    const person = segments[1];
    if (person === undefined || person.toLowerCase() === 'dir') {
      return { ok: false, reason: 'not_a_profile', message: `directory page, not a profile: ${name}` };
    }
    const ids = segments.slice(2, 5);
    if (ids.length === 3 && ids.every((id) => /^[0-9a-f]{1,3}$/iu.test(id))) {
      const [a, b, c] = ids as [string, string, string];
      return slugInLink(`${person}-${c.padStart(3, '0')}${b.padStart(3, '0')}${a}`, name);
    }
    return slugInLink(person, name);
  }
  const page = PAGE_KINDS.get(kind);
  if (page) return { ok: false, reason: 'company_page', message: `${page}, not a profile: ${name}` };
  if (kind === 'sales' || kind === 'talent' || kind === 'recruiter') {
    return { ok: false, reason: 'not_a_profile', message: `Sales Navigator or Recruiter link, not a public profile: ${name}` };
  }
  if (kind === 'profile') {
    return { ok: false, reason: 'not_a_profile', message: `old numeric profile link without a slug: ${name}` };
  }
  return { ok: false, reason: 'not_a_profile', message: `LinkedIn link without a profile (/in/...): ${name}` };
}

function decode(part: string): string | null {
  try {
    return decodeURIComponent(part);
  } catch {
    return null;
  }
}

function slugInLink(segment: string | undefined, name: string): SlugResult {
  if (segment === undefined) return { ok: false, reason: 'not_a_profile', message: `LinkedIn link without a profile (/in/...): ${name}` };
  const decoded = decode(segment);
  if (decoded === null) return { ok: false, reason: 'invalid', message: `broken %-encoding in profile link: ${name}` };
  const slug = decoded.toLowerCase().normalize('NFC');
  if (slug.length >= 2 && slug.length <= 100 && SLUG_CHARS.test(slug)) return { ok: true, slug };
  return { ok: false, reason: 'invalid', message: `profile link with an unusable slug: ${name}` };
}

function bareSlug(s: string, name: string): SlugResult {
  const trimmed = s.split(/[?#]/u, 1)[0]!.replace(/\/+$/u, '');
  if (trimmed.includes('@') && normalizeEmail(trimmed).ok) {
    return { ok: false, reason: 'invalid', message: `an e-mail address, not a profile link: ${name}` };
  }
  const decoded = decode(trimmed);
  const slug = (decoded ?? trimmed).toLowerCase().normalize('NFC');
  if (slug.length >= 3 && slug.length <= 100 && SLUG_CHARS.test(slug) && HAS_LETTER.test(slug)) return { ok: true, slug };
  return { ok: false, reason: 'invalid', message: `not a profile link or slug: ${name}` };
}
