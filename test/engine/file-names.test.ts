import { describe, expect, it } from 'vitest';
import { safeFileName } from '../../electron/engine/file-names';

describe('safeFileName', () => {
  it('keeps a readable name: reserved characters between words become " - ", inside a word "-"', () => {
    expect(safeFileName('Demo: sample people')).toBe('Demo - sample people');
    expect(safeFileName('Q3/Q4 leads')).toBe('Q3-Q4 leads');
    expect(safeFileName('a <b> c?')).toBe('a - b - c');
  });

  it('never lets a name climb out of its folder or hide', () => {
    expect(safeFileName('../../etc/passwd', { fallback: 'upload' })).toBe('-..-etc-passwd');
    expect(safeFileName('..\\win.ini')).toBe('-win.ini');
    expect(safeFileName('.hidden')).toBe('hidden');
  });

  it('drops control characters and trailing dots or spaces, and falls back when nothing is left', () => {
    expect(safeFileName('a\u0000b\nc.csv')).toBe('abc.csv');
    expect(safeFileName('report. ')).toBe('report');
    expect(safeFileName('', { fallback: 'upload' })).toBe('upload');
    expect(safeFileName('...')).toBe('export');
  });

  it('cuts a long name to its limit and keeps a short extension', () => {
    const long = safeFileName(`${'x'.repeat(500)}.xlsx`, { maxLength: 200 });
    expect(long).toHaveLength(200);
    expect(long.endsWith('.xlsx')).toBe(true);
    expect(safeFileName('y'.repeat(300))).toHaveLength(100);
  });

  it('counts the limit in bytes, as file systems do, and never cuts a character in two', () => {
    // 100 CJK characters are 300 bytes: with "-matches.csv" or as an upload's name, over the 255 a name may take.
    const cjk = safeFileName(`${'名'.repeat(100)}.csv`, { maxLength: 200 });
    expect(Buffer.byteLength(cjk)).toBeLessThanOrEqual(200);
    expect(cjk).toBe(`${'名'.repeat(65)}.csv`);
    const emoji = safeFileName('😀'.repeat(40));
    expect(emoji).toBe('😀'.repeat(25));
    expect(Buffer.byteLength(`${safeFileName('表'.repeat(100))}-matches.xlsx`)).toBeLessThanOrEqual(255);
  });
});
