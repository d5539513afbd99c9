// How the sheet's name compares with a person's name, as one level of agreement. Pure: the confidence model
// (confidence-model.ts) gives each level its weight, the review screen and the export show it in words.
import { editDistance } from './edit-distance';
import { isNickname, isSpellingVariant } from './nicknames';
import { comparable } from './normalize';

/**
 * exact: the same words after folding accents and case, in any order ("Doe, Jane" / "Jane Doe"), written
 *   together or apart ("Maryann" / "Mary Ann"), or transliterated (Müller / Mueller).
 * first_last: same first and last name; a middle name or initial on one side only ("Mary Ann Smith" / "Mary Smith").
 * nickname: same last name, the first is a short form or variant of the other (Bob / Robert).
 * typo: same last (or first) name, the other one a typo or a spelling variant away (Anna / Anne, Jonh / John,
 *   Steven / Stephen): usually another person when the exact name is also there.
 * initial: same last name, one first name is the other's initial ("J. Smith" / "John Smith").
 * last_only, first_only: one of the two agrees, the other is another name.
 * differs: nothing in common. missing: one side has no name.
 */
export const NAME_LEVELS = ['exact', 'first_last', 'nickname', 'typo', 'initial', 'last_only', 'first_only', 'differs', 'missing'] as const;
export type NameLevel = (typeof NAME_LEVELS)[number];

/** A name folded for comparison, with its first and last name. */
export interface NameParts {
  tokens: string[];
  first: string;
  last: string;
}

// Particles shared by unrelated names ("Maria de Souza" / "Pedro de Lima") are not a last name of their own.
const NAME_PARTICLES = new Set(['de', 'da', 'di', 'do', 'dos', 'das', 'del', 'della', 'der', 'den', 'van', 'von', 'la', 'le', 'du', 'des', 'bin', 'al', 'el', 'ben', 'st']);

/**
 * The parts of a name: "Last, First Middle" when it holds a comma, else first word first and last word last.
 * `first`/`last` given separately (a person record's first_name/last_name) win over splitting the full name.
 */
export function nameParts(full: string | null, first: string | null = null, last: string | null = null): NameParts | null {
  const raw = full ?? [first, last].filter(Boolean).join(' ');
  const comma = raw.indexOf(',');
  const ordered = comma > 0 ? `${raw.slice(comma + 1)} ${raw.slice(0, comma)}` : raw;
  const tokens = wordsOf(comparable(ordered));
  if (tokens.length === 0) return null;
  const givenFirst = first ? firstWordOf(comparable(first)) : undefined;
  const givenLast = last ? comparable(last) : undefined;
  return {
    tokens,
    first: givenFirst || tokens[0]!,
    last: givenLast ? lastNameWord(givenLast.split(' ')) ?? givenLast : lastWord(tokens),
  };
}

/** The text's words between spaces, none empty; the list split() gives is kept unless it holds an empty one. */
function wordsOf(text: string): string[] {
  const words = text.split(' ');
  return words.includes('') ? words.filter(Boolean) : words;
}

/** What `text.split(' ')[0]` gives, without the list. */
function firstWordOf(text: string): string {
  const space = text.indexOf(' ');
  return space === -1 ? text : text.slice(0, space);
}

/** The last of the words that is not a particle (an empty one counts as a word), or undefined when all are. */
function lastNameWord(words: readonly string[]): string | undefined {
  for (let i = words.length - 1; i >= 0; i--) if (!NAME_PARTICLES.has(words[i]!)) return words[i];
  return undefined;
}

function lastWord(tokens: string[]): string {
  for (let i = tokens.length - 1; i > 0; i--) if (!NAME_PARTICLES.has(tokens[i]!)) return tokens[i]!;
  return tokens[tokens.length - 1]!;
}

/** German and Nordic transliteration (ü = ue, ö = oe, ä = ae, å = aa), applied to already folded text. */
export function transliterated(folded: string): string {
  // Replacing can only make a pair from one that was there: text without any is left as it is, unread by the regexes.
  if (!hasTransliteration(folded)) return folded;
  return folded.replace(/ue/g, 'u').replace(/oe/g, 'o').replace(/ae/g, 'a').replace(/aa/g, 'a');
}

/** Whether the text holds "ue", "oe", "ae" or "aa". */
function hasTransliteration(s: string): boolean {
  for (let i = 1; i < s.length; i++) {
    const c = s.charCodeAt(i);
    const before = s.charCodeAt(i - 1);
    // e after u, o or a; a after a.
    if ((c === 101 && (before === 117 || before === 111 || before === 97)) || (c === 97 && before === 97)) return true;
  }
  return false;
}

function sameWord(a: string, b: string): boolean {
  return a === b || transliterated(a) === transliterated(b);
}

/** Typos allowed grow with the word: none in short words, where one letter makes another name (Jan / Jen). */
function isTypo(a: string, b: string): boolean {
  if (a === b) return false;
  const shorter = Math.min(a.length, b.length);
  const budget = shorter >= 8 ? 2 : shorter >= 4 ? 1 : 0;
  return budget > 0 && editDistance(a, b, budget) <= budget;
}

function isInitial(a: string, b: string): boolean {
  return (a.length === 1 || b.length === 1) && a[0] === b[0];
}

/** A name with the forms compareNames reads of it, made once for comparing one sheet's name with candidate after candidate. */
export interface ComparedName {
  parts: NameParts;
  /** The tokens sorted and joined by spaces, and joined without them; each also transliterated. */
  sorted: string;
  joined: string;
  sortedTransliterated: string;
  joinedTransliterated: string;
}

export function comparedName(parts: NameParts): ComparedName {
  const sorted = sortedWords(parts.tokens);
  const joined = parts.tokens.join('');
  return { parts, sorted, joined, sortedTransliterated: transliterated(sorted), joinedTransliterated: transliterated(joined) };
}

/**
 * The words in the order sort() gives (by UTF-16 code units), joined by spaces. A name has a few words, ordered here
 * by insertion in a copy: sort() sets up working arrays many times a name's size, and this runs once a row and again
 * for each of its candidates.
 */
export function sortedWords(words: readonly string[]): string {
  const ordered = words.slice();
  for (let i = 1; i < ordered.length; i++) {
    const word = ordered[i]!;
    let j = i - 1;
    for (; j >= 0 && ordered[j]! > word; j--) ordered[j + 1] = ordered[j]!;
    ordered[j + 1] = word;
  }
  return ordered.join(' ');
}

/** The level of agreement between the sheet's name and a person's name. */
export function compareNames(sheet: NameParts | null, person: NameParts | null): NameLevel {
  if (!sheet || !person) return 'missing';
  return compareName(comparedName(sheet), person);
}

/** compareNames with the sheet's name made ready (comparedName). */
export function compareName(sheetName: ComparedName, person: NameParts): NameLevel {
  const sheet = sheetName.parts;
  const a = sheet.tokens;
  const b = person.tokens;
  const sameCount = a.length === b.length;
  const sorted = sameCount ? sortedWords(b) : '';
  if (sameCount && sheetName.sorted === sorted) return 'exact';
  const joined = b.join('');
  if (sheetName.joined === joined || sheetName.joinedTransliterated === transliterated(joined)) return 'exact';
  if (sameCount && sheetName.sortedTransliterated === transliterated(sorted)) return 'exact';

  // A compound last name on one side only ("García López" / "García") still agrees on the last name.
  const lastSame = sameWord(sheet.last, person.last) || (a.length > 2 && a.indexOf(person.last, 1) !== -1) || (b.length > 2 && b.indexOf(sheet.last, 1) !== -1);
  const firstSame = sameWord(sheet.first, person.first);
  if (firstSame && lastSame) return 'first_last';
  if (lastSame && isSpellingVariant(sheet.first, person.first)) return 'typo';
  if (lastSame && isNickname(sheet.first, person.first)) return 'nickname';
  if (lastSame && isInitial(sheet.first, person.first)) return 'initial';
  if ((lastSame && isTypo(sheet.first, person.first)) || (firstSame && isTypo(sheet.last, person.last))) return 'typo';
  if (lastSame) return 'last_only';
  if (firstSame) return 'first_only';
  return 'differs';
}

/** Whether a level is the sheet's name itself (accent-folded), the only kind that can accept a row on name + company. */
export function isExactName(level: NameLevel): boolean {
  return level === 'exact';
}

/** Whether first and last name both differ: what an e-mail or profile hit must never be accepted with. */
export function isConflictingName(level: NameLevel): boolean {
  return level === 'differs';
}
