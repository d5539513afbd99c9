import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { textLineCount } from '../../../electron/engine/sheets/row-limit';
import { sheetFile } from './sheet-files';

describe('textLineCount, the bound on a text sheet’s records', () => {
  it.each([
    ['utf-8', 'utf8'],
    ['utf-16le', 'utf16le'],
    ['utf-16be', 'utf16be'],
  ] as const)('counts CRLF, LF and CR once each, in any mix (%s)', async (encoding, iconvName) => {
    const text = 'h\r\na\nb\rc\r\n\r\nd\n\re';
    expect(await textLineCount(sheetFile('mixed.csv', iconv.encode(text, iconvName)), encoding)).toBe(8);
  });

  it('counts a CRLF cut in two by a read chunk once', async () => {
    // The CR is the last byte of the first 1 MiB chunk, its LF the first of the next.
    const first = 'x'.repeat(1024 * 1024 - 1) + '\r';
    expect(await textLineCount(sheetFile('cut.csv', `${first}\nb\rc`), 'utf-8')).toBe(3);
  });
});
