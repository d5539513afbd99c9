import { describe, expect, it } from 'vitest';
import { SharedStrings, sharedStringText } from '../../../electron/engine/sheets/shared-strings';

describe('SharedStrings', () => {
  it('gives back every entry by index, multi-byte text and empty entries included, past its first buffer sizes', () => {
    const table = new SharedStrings();
    const texts = Array.from({ length: 50_000 }, (_, i) => (i % 7 === 0 ? '' : `Müller ${i} 東京 ${'x'.repeat(i % 90)}`));
    for (const text of texts) table.add(text);
    for (const i of [0, 1, 6, 7, 12_345, 49_999]) expect(table.get(i)).toBe(texts[i]);
    expect(texts.every((text, i) => table.get(i) === text)).toBe(true);
  });

  it('keeps each entry whole across its chunks, an entry longer than a chunk included', () => {
    const table = new SharedStrings(64);
    const texts = Array.from({ length: 3_000 }, (_, i) => (i % 11 === 0 ? '' : i % 500 === 1 ? `長い ${'y'.repeat(200)} ${i}` : `Søren ${i}`));
    for (const text of texts) table.add(text);
    expect(texts.every((text, i) => table.get(i) === text)).toBe(true);
    expect(table.get(3_000)).toBeUndefined();
  });

  it('has nothing at an index it does not hold', () => {
    const table = new SharedStrings();
    table.add('only');
    expect(table.get(1)).toBeUndefined();
    expect(table.get(-1)).toBeUndefined();
    expect(table.get(0.5)).toBeUndefined();
  });

  it('reads an entry as a cell shows it: rich text as its runs, nothing as empty', () => {
    expect(sharedStringText('plain')).toBe('plain');
    expect(sharedStringText({ richText: [{ text: 'Ada ' }, { font: { bold: true }, text: 'Lovelace' }, { text: null }] })).toBe('Ada Lovelace');
    expect(sharedStringText(null)).toBe('');
  });
});
