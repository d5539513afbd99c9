import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { csvLineWriter, storedCellsCsv } from '../../../electron/engine/export';

/** What writeCsv writes of these cells padded to `width`, its line end left off. */
function written(cells: string[], width: number, delimiter: string): string {
  const padded = [...cells, ...Array.from({ length: width - cells.length }, () => '')];
  return csvLineWriter(delimiter)(padded).slice(0, -2);
}

describe('storedCellsCsv', () => {
  it('takes cells that need no quoting or guard straight from their JSON, padded to the width', () => {
    const cells = ['Ann Lee', 'ann@example.com', '', 'Acme Inc.', 'CTO (2020-)', 'Renée 😀', "O'Connor & Banerjee"];
    for (const delimiter of [',', ';', '\t', '|']) {
      expect(storedCellsCsv(delimiter, 7)(JSON.stringify(cells))).toBe(cells.join(delimiter));
      expect(storedCellsCsv(delimiter, 9)(JSON.stringify(cells))).toBe(cells.join(delimiter) + delimiter.repeat(2));
    }
    expect(storedCellsCsv(',', 3)(JSON.stringify(['', '', '']))).toBe(',,');
    expect(storedCellsCsv(',', 2)(JSON.stringify(['']))).toBe(',');
  });

  it.each([
    ['a delimiter', ['a,b', 'c'], ','],
    ['a comma, whatever the delimiter', ['a,b', 'c'], ';'],
    ['the delimiter', ['a;b', 'c'], ';'],
    ['a quote', ['say "hi"', 'c'], ','],
    ['a line break', ['a\nb', 'c'], ','],
    ['a tab', ['a\tb', 'c'], '\t'],
    ['leading whitespace', ['a', ' b'], ','],
    ['trailing whitespace', ['a ', 'b'], ','],
    ['a formula', ['=SUM(A1)', 'b'], ','],
    ['a formula in a later cell', ['a', '+1 555 0100'], ','],
    ['a minus sign', ['a', '-5'], ','],
    ['an at sign', ['a', '@b'], ','],
    ['a lone surrogate', ['a\ud800', 'b'], ','],
  ])('leaves cells with %s to be escaped one by one', (_what, cells, delimiter) => {
    expect(storedCellsCsv(delimiter, 2)(JSON.stringify(cells))).toBeNull();
  });

  it('leaves anything but an array of strings, or more cells than the width, to the cells as parsed', () => {
    for (const json of ['[]', '[1,"a"]', '["a",1]', '["a",1,"b"]', '["a",null,"b"]', '["a",["b"],"c"]', '["a"b"]', '{"a":"b"}', 'not json']) {
      expect(storedCellsCsv(';', 5)(json)).toBeNull();
    }
    expect(storedCellsCsv(',', 2)(JSON.stringify(['a', 'b', 'c']))).toBeNull();
  });

  it('writes any cells as writeCsv does, or leaves them to it', () => {
    const awkward = fc.constantFrom('', ' ', 'a,b', '","', ',', '"', '", "', 'x', '=1', '-5', '+', '@', '\t', '\r\n', 'a;b', 'a|b', '\\', '\u00a0x', 'x\u2028', 'Zoë');
    fc.assert(
      fc.property(
        fc.constantFrom(',', ';', '\t', '|'),
        fc.array(fc.oneof(awkward, fc.string({ unit: 'grapheme' }), fc.string({ unit: 'binary' })), { minLength: 1, maxLength: 8 }),
        fc.nat(3),
        (delimiter, cells, extra) => {
          const width = cells.length + extra;
          const fast = storedCellsCsv(delimiter, width)(JSON.stringify(cells));
          if (fast !== null) expect(fast).toBe(written(cells, width, delimiter));
        },
      ),
      { numRuns: 2000 },
    );
  });
});
