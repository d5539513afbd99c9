import { describe, expect, it } from 'vitest';
import { compareNames, nameParts, sortedWords, type NameLevel } from '../../../electron/engine/matching/name-comparison';
import { isNickname, isSpellingVariant } from '../../../electron/engine/matching/nicknames';

const level = (sheet: string, person: string, first: string | null = null, last: string | null = null): NameLevel =>
  compareNames(nameParts(sheet), nameParts(person, first, last));

describe('compareNames', () => {
  it.each([
    ['Jane Doe', 'jane doe'],
    ['Doe, Jane', 'Jane Doe'],
    ['José Müller', 'Jose Muller'],
    ['Jürgen Müller', 'Juergen Mueller'],
    ['Maryann Smith', 'Mary Ann Smith'],
    ["Sean O'Brien", 'Sean OBrien'],
    ['Łukasz Nowak', 'Lukasz Nowak'],
  ])('%s and %s are the same name', (a, b) => {
    expect(level(a, b)).toBe('exact');
  });

  it.each<[string, string, NameLevel]>([
    ['Mary Smith', 'Mary Ann Smith', 'first_last'],
    ['John A. Smith', 'John Smith', 'first_last'],
    ['Bob Smith', 'Robert Smith', 'nickname'],
    ['Bill Gates', 'William Gates', 'nickname'],
    ['Anna Smith', 'Anne Smith', 'typo'],
    ['Jonh Smith', 'John Smith', 'typo'],
    ['Jane Smiht', 'Jane Smith', 'typo'],
    ['J. Smith', 'John Smith', 'initial'],
    ['Peter Smith', 'John Smith', 'last_only'],
    ['Jane Smith', 'Jane Doe', 'first_only'],
    ['Jane Doe', 'Peter Jones', 'differs'],
    ['Maria de Souza', 'Pedro de Lima', 'differs'],
  ])('%s against %s: %s', (a, b, expected) => {
    expect(level(a, b)).toBe(expected);
  });

  it('reads the record\'s first and last name fields over splitting its full name', () => {
    expect(level('Ana García', 'Ana María García López', 'Ana María', 'García López')).toBe('first_last');
    expect(level('Pedro van der Berg', 'Pedro van der Berg', 'Pedro', 'van der Berg')).toBe('exact');
  });

  it('needs a long enough name before one letter counts as a typo: Jan and Jen are two names', () => {
    expect(level('Jan Smith', 'Jen Smith')).toBe('last_only');
  });

  it('says missing when either side has no name', () => {
    expect(compareNames(nameParts(''), nameParts('Jane Doe'))).toBe('missing');
    expect(compareNames(nameParts('Jane Doe'), null)).toBe('missing');
    expect(nameParts('  ,  ')).toBeNull();
  });
});

describe('isNickname', () => {
  it('pairs short forms with formal names both ways, and nothing else', () => {
    expect(isNickname('bob', 'robert')).toBe(true);
    expect(isNickname('robert', 'bob')).toBe(true);
    expect(isNickname('jon', 'jonathan')).toBe(true);
    expect(isNickname('jon', 'john')).toBe(false);
    expect(isNickname('robert', 'robert')).toBe(false);
    expect(isNickname('bob', 'william')).toBe(false);
    expect(isNickname('anna', 'anne')).toBe(false);
  });

  it('tells spelling variants (two names) from nicknames (one name), and compares them as a typo', () => {
    expect(isSpellingVariant('steven', 'stephen')).toBe(true);
    expect(isSpellingVariant('jon', 'john')).toBe(true);
    expect(isSpellingVariant('bob', 'robert')).toBe(false);
    expect(level('Steven Pérez', 'Stephen Pérez')).toBe('typo');
    expect(level('Steve Pérez', 'Stephen Pérez')).toBe('nickname');
  });
});

describe('sortedWords', () => {
  it('orders words as sort() does, by UTF-16 code units, and leaves its input as it was', () => {
    const lists = [[], ['jane'], ['doe', 'jane'], ['jane', 'doe'], ['b', 'a', 'b', 'a'], ['zoë', 'zoe', 'Zoe', 'ßa', 'ss', '😀x', 'ａ'], ['van', 'der', 'berg', 'anna', 'maria']];
    for (const words of lists) {
      const before = [...words];
      expect(sortedWords(words)).toBe([...words].sort().join(' '));
      expect(words).toEqual(before);
    }
  });
});
