import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { editDistance } from '../../../electron/engine/matching/edit-distance';
import { transliterated } from '../../../electron/engine/matching/name-comparison';
import { comparable, profileSlugFromUrl } from '../../../electron/engine/matching/normalize';
import { plainComparable } from './plain-comparable';

// The verdict's fast paths (a run works out a verdict for every row) must say exactly what the plain definitions
// say. These are the plain definitions, as they were before the fast paths.

/** Optimal-string-alignment distance in code points, the whole table, then held to max + 1. */
function plainEditDistance(a: string, b: string, max: number): number {
  const x = [...a];
  const y = [...b];
  const d = Array.from({ length: x.length + 1 }, (_, i) => Array.from({ length: y.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= x.length; i++) {
    for (let j = 1; j <= y.length; j++) {
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + (x[i - 1] === y[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && x[i - 1] === y[j - 2] && x[i - 2] === y[j - 1]) d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
    }
  }
  return Math.min(d[x.length]![y.length]!, max + 1);
}

function plainTransliterated(folded: string): string {
  return folded.replace(/ue/g, 'u').replace(/oe/g, 'o').replace(/ae/g, 'a').replace(/aa/g, 'a');
}

// Words from few letters, so that pairs are often a typo or two apart; a letter outside the BMP now and then.
const word = fc.array(fc.constantFrom('a', 'b', 'e', 'n', 'o', 'u', 'é', '\ud83d\ude42', '\ud83d\ude43'), { maxLength: 9 }).map((letters) => letters.join(''));
const edited = fc.tuple(word, fc.array(fc.tuple(fc.nat(10), fc.nat(3), fc.constantFrom('a', 'e', 'x', '\ud83d\ude42')), { maxLength: 3 })).map(([w, edits]) => {
  const letters = [...w];
  for (const [at, kind, letter] of edits) {
    const i = at % (letters.length + 1);
    if (kind === 0) letters.splice(i, 0, letter);
    else if (kind === 1) letters.splice(i, 1);
    else if (kind === 2) letters[i] = letter;
    else if (i + 1 < letters.length) [letters[i], letters[i + 1]] = [letters[i + 1]!, letters[i]!];
  }
  return [w, letters.join('')] as const;
});

describe('fast paths of the verdict', () => {
  it('comparable() folds every character up to U+20FF, alone and among ASCII, as the full definition does', () => {
    for (let code = 0; code < 0x2100; code++) {
      const c = String.fromCharCode(code);
      for (const text of [c, `Ab${c}cD`, `O'${c} x`, `${c}${c}`, `Σ${c}`]) expect(comparable(text), `U+${code.toString(16)} in ${JSON.stringify(text)}`).toBe(plainComparable(text));
    }
  });

  it('editDistance gives the table\'s distance, held to max + 1, whatever the max', () => {
    fc.assert(
      fc.property(fc.oneof(edited, fc.tuple(word, word)), fc.constantFrom(0, 1, 2, 3, Infinity), ([a, b], max) => {
        expect(editDistance(a, b, max)).toBe(plainEditDistance(a, b, max));
      }),
      { numRuns: 20000 },
    );
    expect(editDistance('jonh', 'john', 1)).toBe(1);
    expect(editDistance('abcd', 'badc', 1)).toBe(2);
    expect(editDistance('globex', 'globexx', 1)).toBe(1);
  });

  it('transliterated() is the four replacements, also on text with no pair to replace', () => {
    fc.assert(fc.property(fc.array(fc.constantFrom('a', 'e', 'o', 'u', 'x', ' '), { maxLength: 10 }).map((l) => l.join('')), (s) => {
      expect(transliterated(s)).toBe(plainTransliterated(s));
    }), { numRuns: 5000 });
  });

  it.each([
    ['jane-doe-12a', { ok: true, slug: 'jane-doe-12a' }],
    ['Jane_Doe', { ok: true, slug: 'jane_doe' }],
    ['https://www.linkedin.com/in/Jane-Doe/', { ok: true, slug: 'jane-doe' }],
    ['http://linkedin.com/in/ab', { ok: true, slug: 'ab' }],
    ['www.linkedin.com/in/12345', { ok: true, slug: '12345' }],
    ['12345', { ok: false, reason: 'invalid', message: 'not a profile link or slug: 12345' }],
    ['ab', { ok: false, reason: 'invalid', message: 'not a profile link or slug: ab' }],
    ['a\rb', { ok: false, reason: 'invalid', message: 'not a profile link or slug: a b' }],
    [`linkedin.com/in/${'x'.repeat(101)}`, { ok: false, reason: 'invalid', message: `profile link with an unusable slug: linkedin.com/in/${'x'.repeat(101)}` }],
    ['https://www.linkedin.com/in//', { ok: false, reason: 'not_a_profile', message: 'LinkedIn link without a profile (/in/...): https://www.linkedin.com/in//' }],
    ['https://www.linkedin.com/in/jane-doe/en', { ok: true, slug: 'jane-doe' }],
  ])('profileSlugFromUrl(%j) reads its usual forms as the long way does', (cell, expected) => {
    expect(profileSlugFromUrl(cell)).toEqual(expected);
  });
});
