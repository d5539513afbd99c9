import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { comparable, foldWhitespace, isPlaceholder } from '../../../electron/engine/matching/normalize';
import { rowInput } from '../../../electron/engine/matching';
import { plainComparable } from './plain-comparable';

// The fast paths of normalize.ts (planning runs them on every cell of a sheet) must say exactly what the plain
// definitions say. These are the plain definitions, as they were before the fast paths.
const PLACEHOLDERS = new Set(['', 'n a', 'na', 'none', 'null', 'nil', 'unknown', 'tbd', 'not available', 'keine', 'aucun', 'aucune']);

function plainFold(input: string): string {
  return String(input ?? '').replace(/[\u200B\u2060]/gu, '').replace(/\s+/gu, ' ').trim();
}

function plainIsPlaceholder(input: string): boolean {
  const folded = plainFold(input);
  if (folded === '') return true;
  if (/^[\p{P}\p{S}]+$/u.test(folded)) return true;
  return PLACEHOLDERS.has(comparable(folded));
}

// Cells as sheets have them: words, placeholders in any case and spacing, accents, odd spaces, apostrophes,
// wrappers, digits, and now and then anything at all.
const piece = fc.oneof(
  fc.constantFrom('n/a', 'N/A', 'n.a.', 'NA', 'None', 'null', 'NIL', 'Unknown', 'tbd', 'not available', 'Not  Available', 'keine', 'aucun', 'AUCUNE'),
  fc.constantFrom('Jane', 'Doe', 'García', 'Müller', 'Zoë', 'ß', 'Ø', 'ﬁ', 'İ', 'Ǆ', 'e\u0301', 'O\u2019Brien', "O'Neil", 'n`a', 'no`ne', "un'known", 'Nöne', 'ÑA', 'ª'),
  fc.constantFrom(' ', '  ', '\t', '\n', '\u00a0', '\u2003', '\u202f', '\u3000', '\ufeff', '\u200b', '\u2060', '\u1680', '\u0085'),
  fc.constantFrom('-', '--', '?', '.', ',', ';', '"', "'", '`', '<', '>', '(', ')', '[', ']', '“', '”', '«', '»', '/', '@', '#', '€', '™'),
  fc.constantFrom('0', '7', '42', 'x', 'Y', '\u0000', '\u007f', '\ud83d\ude42', '\ud800', '\udc00'),
  fc.string({ unit: 'binary', maxLength: 6 }),
);
const cell = fc.array(piece, { maxLength: 8 }).map((parts) => parts.join(''));

describe('fast paths of normalize.ts', () => {
  it('foldWhitespace folds exactly like the two regexes', () => {
    fc.assert(fc.property(cell, (s) => { expect(foldWhitespace(s)).toBe(plainFold(s)); }), { numRuns: 5000 });
    fc.assert(fc.property(fc.string({ unit: 'binary' }), (s) => { expect(foldWhitespace(s)).toBe(plainFold(s)); }), { numRuns: 2000 });
  });

  it('comparable() folds ASCII on its fast path exactly as the full definition does, and everything else the same too', () => {
    fc.assert(fc.property(fc.string({ unit: 'grapheme-ascii' }), (s) => { expect(comparable(s)).toBe(plainComparable(s)); }), { numRuns: 5000 });
    fc.assert(fc.property(cell, (s) => { expect(comparable(s)).toBe(plainComparable(s)); }), { numRuns: 5000 });
  });

  it('isPlaceholder says what comparable() says', () => {
    fc.assert(fc.property(cell, (s) => { expect(isPlaceholder(s)).toBe(plainIsPlaceholder(s)); }), { numRuns: 5000 });
    fc.assert(fc.property(fc.string({ unit: 'binary' }), (s) => { expect(isPlaceholder(s)).toBe(plainIsPlaceholder(s)); }), { numRuns: 2000 });
  });

  it.each([
    ['n/a', true],
    [' N / A ', true],
    ["n'a", true],
    ['Not Available', true],
    ['not-available', true],
    ['---', true],
    ['Nöne', true],
    ['no`ne', true],
    ['None 1', false],
    ['Nona', false],
    ['not available at all', false],
    ['Hannah López', false],
    ['aucune', true],
    ['', true],
    ['\u00a0', true],
  ])('%j is a placeholder: %s', (input, expected) => {
    expect(isPlaceholder(input)).toBe(expected);
    expect(plainIsPlaceholder(input)).toBe(expected);
  });

  it('rowInput gives the same name as before from first and last name columns', () => {
    const mapping = { firstName: 0, lastName: 1 };
    expect(rowInput(['  Jane ', ' Doe'], mapping).name).toBe('Jane Doe');
    expect(rowInput(['n/a', 'Doe'], mapping).name).toBe('Doe');
    expect(rowInput(['', ''], mapping).name).toBeNull();
    expect(rowInput(['Jane Doe', 'x'], { fullName: 0, lastName: 1 }).name).toBe('Jane Doe');
    expect(rowInput(['-', 'Jane', 'Doe'], { fullName: 0, firstName: 1, lastName: 2 }).name).toBe('Jane Doe');
    expect(rowInput([], {}).name).toBeNull();
  });
});
