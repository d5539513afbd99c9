import { describe, expect, it } from 'vitest';
import { SharedStrings, readSharedStrings } from '../../../electron/engine/sheets/shared-strings';

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

  it('reads each entry as a cell shows it: rich text as its runs, phonetic guides left out, entities, escapes and CDATA decoded, nothing as empty', async () => {
    const xml =
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="7" uniqueCount="7">' +
      '<si><t>plain</t></si>' +
      '<si><r><t xml:space="preserve">Ada </t></r><r><rPr><b/></rPr><t>Lovelace</t></r></si>' +
      '<si><t/></si><si/>' +
      '<si><t>東京</t><rPh sb="0" eb="2"><t>トウキョウ</t></rPh><phoneticPr fontId="1"/></si>' +
      '<si><t>A &amp; B &lt;c&gt; &#233;&#x1F600; line_x000D_break</t></si>' +
      '<si><t><![CDATA[<b>&amp;</b>]]></t></si>' +
      '</sst>';
    // One character a chunk: every tag, entity and CDATA section is cut somewhere.
    const chunks = [...xml].map((ch) => Buffer.from(ch));
    const table = new SharedStrings();
    await readSharedStrings(chunks, table);
    const texts = Array.from({ length: 8 }, (_, i) => table.get(i));
    expect(texts).toEqual(['plain', 'Ada Lovelace', '', '', '東京', 'A & B <c> é😀 line\rbreak', '<b>&amp;</b>', undefined]);
  });
});
