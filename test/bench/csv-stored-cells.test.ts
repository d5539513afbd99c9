import { describe, expect, it } from 'vitest';
import { CsvStoredCells } from '../../bench/csv-stored-cells';
import { csvEscaper } from '../../electron/engine/export/csv-escape';
import { neutralizeFormula } from '../../electron/engine/export/neutralize-formula';
import { parseCells } from '../../electron/engine/rows/row-cells';

/** Pieces of hostile cells: every class the CSV quoting, the formula guard, JSON's escapes and UTF-8 treat apart. */
const PIECES = [
  'a', 'Zoë', '葛', '😀', '\ud83d', '\ude00', ' ', '\u00a0', '\u1680', '\u2009', '\u2028', '\u205f', '\u3000', '\ufeff', '\u0085', '"', ',', ';', '\t', '|',
  '\r', '\n', '\\', '/', '=', '+', '-', '@', '1', '.', 'e', '\u0000', '\u001f', '\u007f', "'", '[', ']',
];

/** The export's string path for the same cells: read from their JSON, cut or padded to the width, escaped and guarded. */
function stringPath(json: Buffer, width: number, delimiter: string): string {
  const escape = csvEscaper(delimiter);
  const cells = parseCells(json.toString('utf8'));
  cells.length = width;
  return Array.from(cells, (cell) => escape(neutralizeFormula(cell ?? ''))).join(delimiter);
}

/** A small deterministic generator, so a failure names the same rows again. */
function numbers(seed: number): (below: number) => number {
  // mulberry32
  let state = seed;
  return (below) => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), state | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) % below;
  };
}

/** The stored row's bytes, sometimes spoilt: a space between elements, a cut end, a bad escape, a raw control character, bytes that are not UTF-8, a number or null. */
function storedRow(next: (below: number) => number): Buffer {
  const cells: unknown[] = [];
  for (let count = next(6); cells.length < count; ) {
    let cell = '';
    for (let length = next(5); length > 0; length--) cell += PIECES[next(PIECES.length)];
    cells.push(cell);
  }
  if (next(40) === 0) cells.push(next(2) === 0 ? 5 : null);
  let json = JSON.stringify(cells);
  const spoil = next(30);
  if (spoil === 0) json = json.replace(',', ', ');
  if (spoil === 1) json = json.slice(0, -1);
  if (spoil === 2) json = json.replace(/\\"/, '\\x');
  if (spoil === 3) json = json.replace('"', '\u0001"');
  const bytes = Buffer.from(json);
  if (spoil === 4 && bytes.length > 3) return Buffer.concat([bytes.subarray(0, 2), Buffer.from([0xff, 0xc3]), bytes.subarray(2)]);
  if (spoil === 5 && bytes.length > 3) return Buffer.concat([bytes.subarray(0, 2), Buffer.from([0xed, 0xa0, 0x80]), bytes.subarray(2)]);
  return bytes;
}

describe("the CSV export floor's cells copied from their stored bytes", () => {
  it("writes the string path's bytes for every row it copies, whatever the cells, the width and the delimiter", () => {
    const next = numbers(41);
    let declined = 0;
    for (const delimiter of [',', ';', '\t', '|', ' ', "'"]) {
      const fields = new CsvStoredCells(delimiter, csvEscaper(delimiter));
      for (let row = 0; row < 5000; row++) {
        const json = storedRow(next);
        const width = next(7);
        // The row between others in one buffer, as a page's rows are read: nothing is read past its end.
        const page = Buffer.concat([Buffer.from('["x"]'), json, Buffer.from(next(2) === 0 ? ',"y"]' : '["z"]')]);
        const out = Buffer.alloc(CsvStoredCells.room(5, 5 + json.length, width));
        const end = fields.write(page, 5, 5 + json.length, width, out, 0);
        if (end === -1) continue;
        // Compared as bytes: the string path's text may hold half a surrogate pair, which its UTF-8 turns into U+FFFD.
        const expected = Buffer.from(stringPath(json, width, delimiter));
        expect(out.subarray(0, end).toString('hex'), `${JSON.stringify(delimiter)}, width ${width}: ${JSON.stringify(json.toString('utf8'))}`).toBe(expected.toString('hex'));
      }
      declined += fields.declined;
      // Most rows are copied, only the spoilt ones and those holding a number or null are left to the string path.
      expect(fields.copied).toBeGreaterThan(4 * fields.declined);
    }
    expect(declined).toBeGreaterThan(0);
  });

  it('copies plain rows from their bytes and leaves to the string path a row that is not a JSON array of strings in UTF-8', () => {
    const fields = new CsvStoredCells(',', csvEscaper(','));
    const write = (json: string | Buffer, width: number) => {
      const bytes = typeof json === 'string' ? Buffer.from(json) : json;
      const out = Buffer.alloc(CsvStoredCells.room(0, bytes.length, width));
      const end = fields.write(bytes, 0, bytes.length, width, out, 0);
      return end === -1 ? null : out.toString('utf8', 0, end);
    };
    expect(write('["Ada","","Zoë 葛 😀","=1+2","-5"," x","a,b","say \\"hi\\"","a\\u2028b","\\u2028"]', 10)).toBe(`Ada,,Zoë 葛 😀,'=1+2,-5," x","a,b","say ""hi""",a\u2028b,"\u2028"`);
    expect(write('["a","b","c"]', 2)).toBe('a,b');
    expect(write('["a"]', 3)).toBe('a,,');
    expect(write('[]', 2)).toBe(',');
    expect(fields.copied).toBe(4);
    expect(write('["a",1]', 2)).toBeNull();
    expect(write('["a", "b"]', 2)).toBeNull();
    expect(write(Buffer.from([0x5b, 0x22, 0xff, 0x22, 0x5d]), 1)).toBeNull();
    expect(fields.declined).toBe(3);
  });
});
