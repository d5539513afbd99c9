import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { listSheets, openSheet, SheetError, type SheetErrorCode } from '../../../electron/engine/sheets';
import { compoundFile } from '../../support/compound-file';
import { zip } from '../../support/zip-file';
import { allRows, sheetFile, tempFolder } from './sheet-files';

async function failure(promise: Promise<unknown>): Promise<SheetError> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(SheetError);
  return err as SheetError;
}

async function expectSheetError(path: string, code: SheetErrorCode, message: string | RegExp, opts?: Parameters<typeof openSheet>[1]) {
  const err = await failure(openSheet(path, opts));
  expect(err.code).toBe(code);
  if (typeof message === 'string') expect(err.message).toBe(message);
  else expect(err.message).toMatch(message);
  return err;
}

async function workbookBytes(build: (wb: ExcelJS.Workbook) => void): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  build(wb);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489', 'hex');

describe('openSheet refuses bad input with a clear error naming the file', () => {
  it('empty: a 0-byte file', async () => {
    await expectSheetError(sheetFile('people.csv', ''), 'empty', '“people.csv” is empty: there is nothing to import.');
  });

  it('empty: a BOM and nothing else', async () => {
    await expectSheetError(sheetFile('bom.csv', Buffer.from([0xef, 0xbb, 0xbf])), 'empty', '“bom.csv” is empty: there is nothing to import.');
    await expectSheetError(sheetFile('bom16.csv', Buffer.from([0xff, 0xfe])), 'empty', /is empty/);
  });

  it('empty: only whitespace, blank lines and empty cells', async () => {
    await expectSheetError(sheetFile('blank.csv', '  \r\n\t\n,,,\n\n'), 'empty', '“blank.csv” is empty: there is nothing to import.');
  });

  it('empty: an xlsx whose sheet has no rows', async () => {
    const path = sheetFile('empty.xlsx', await workbookBytes((wb) => void wb.addWorksheet('People')));
    await expectSheetError(path, 'empty', 'The sheet “People” in “empty.xlsx” is empty: there is nothing to import.');
  });

  it('header_only: a CSV with a header row and no data', async () => {
    await expectSheetError(sheetFile('head.csv', 'Name,Email\r\n'), 'header_only', '“head.csv” has a header row but no data rows below it.');
    await expectSheetError(sheetFile('head2.csv', 'Name,Email\n\n,\n'), 'header_only', /has a header row but no data rows/);
  });

  it('header_only: an xlsx sheet with only a header', async () => {
    const path = sheetFile('head.xlsx', await workbookBytes((wb) => void wb.addWorksheet('People').addRow(['Name', 'Email'])));
    await expectSheetError(path, 'header_only', 'The sheet “People” in “head.xlsx” has a header row but no data rows below it.');
  });

  it('not_a_spreadsheet: PNG bytes renamed .csv', async () => {
    await expectSheetError(sheetFile('photo.csv', PNG), 'not_a_spreadsheet', '“photo.csv” is a PNG image, not a spreadsheet. Choose a CSV or Excel (.xlsx) file.');
  });

  it.each([
    ['a JPEG image', Buffer.from('ffd8ffe000104a464946', 'hex')],
    ['a PDF document', Buffer.from('%PDF-1.7\n%âãÏÓ\n', 'latin1')],
    ['a GIF image', Buffer.from('GIF89a\x01\x00\x01\x00', 'latin1')],
    ['a binary file', Buffer.from([0x4d, 0x5a, 0x90, 0x00, 0x03, 0x00, 0x00, 0x00])],
  ])('not_a_spreadsheet: %s', async (what, bytes) => {
    await expectSheetError(sheetFile('data.csv', bytes), 'not_a_spreadsheet', `“data.csv” is ${what}, not a spreadsheet. Choose a CSV or Excel (.xlsx) file.`);
  });

  it('not_a_spreadsheet: a web page saved under an Excel name', async () => {
    await expectSheetError(sheetFile('report.xls', '<!DOCTYPE html><html><body><table><tr><td>1</td></tr></table></body></html>'), 'not_a_spreadsheet', /is a web page \(HTML\), not a spreadsheet/);
  });

  it('not_a_spreadsheet: a ZIP archive renamed .csv', async () => {
    const path = sheetFile('contacts.csv', zip([{ name: 'contacts.txt', data: 'Name,Email\nAnn,ann@example.com\n' }]));
    await expectSheetError(path, 'not_a_spreadsheet', '“contacts.csv” is a ZIP archive, not a spreadsheet. Choose a CSV or Excel (.xlsx) file.');
    await expect(listSheets(path)).rejects.toMatchObject({ code: 'not_a_spreadsheet' });
  });

  it('not_a_spreadsheet: other Office files in a ZIP', async () => {
    const docx = sheetFile('letter.xlsx', zip([{ name: 'word/document.xml', data: '<w:document/>' }]));
    await expectSheetError(docx, 'not_a_spreadsheet', '“letter.xlsx” is a Word document, not a spreadsheet. Choose a CSV or Excel (.xlsx) file.');
    const ods = sheetFile('sheet.ods', zip([{ name: 'mimetype', data: 'application/vnd.oasis.opendocument.spreadsheet' }, { name: 'content.xml', data: '<x/>' }]));
    await expectSheetError(ods, 'not_a_spreadsheet', /is an OpenDocument file \(\.ods\), which Matchdesk can't read\. Open it in Excel and save it as \.xlsx or CSV/);
  });

  it('not_a_spreadsheet: an Apple Numbers document, as a ZIP, as a file no ZIP reader takes, and as the folder a Mac keeps it in', async () => {
    const numbers = /^“[^”]+\.numbers” is an Apple Numbers document, which Matchdesk can't read\. In Numbers, choose File > Export To > CSV \(or Excel\), then import that file\.$/;
    await expectSheetError(sheetFile('accounts.numbers', zip([{ name: 'Index/Document.iwa', data: 'iwa' }])), 'not_a_spreadsheet', numbers);
    // Named .numbers, a ZIP signature, and a directory no ZIP reader finds: not a "damaged Excel workbook".
    await expectSheetError(sheetFile('cut-short.numbers', Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(64)])), 'not_a_spreadsheet', numbers);
    const folder = join(tempFolder(), 'package.numbers');
    mkdirSync(folder);
    await expectSheetError(folder, 'not_a_spreadsheet', numbers);
  });

  it('encrypted: a password-protected workbook (an OLE2/CFB container holding EncryptedPackage)', async () => {
    const path = sheetFile('salaries.xlsx', compoundFile(['EncryptionInfo', 'EncryptedPackage', '\u0006DataSpaces']));
    await expectSheetError(path, 'encrypted', '“salaries.xlsx” is password-protected: save it without a password and try again.');
    await expect(listSheets(path)).rejects.toMatchObject({ code: 'encrypted' });
  });

  it('encrypted (or old format): a CFB header with nothing recognisable inside', async () => {
    await expectSheetError(sheetFile('locked.xlsx', compoundFile([])), 'encrypted', /is password-protected or saved in an old Office format/);
  });

  it('a legacy .xls says it is the old Excel format to save as .xlsx or CSV', async () => {
    const path = sheetFile('old.xls', compoundFile(['Workbook', '\u0005SummaryInformation']));
    await expectSheetError(
      path,
      'not_a_spreadsheet',
      "“old.xls” is in the old Excel 97–2003 format (.xls), which Matchdesk can't read. Open it in Excel and save it as .xlsx or CSV, then try again.",
    );
  });

  it('corrupt: a truncated xlsx', async () => {
    const whole = await workbookBytes((wb) => {
      const ws = wb.addWorksheet('People');
      ws.addRow(['Name']);
      for (let i = 0; i < 200; i++) ws.addRow([`Person ${i}`]);
    });
    const path = sheetFile('cut.xlsx', whole.subarray(0, Math.floor(whole.length / 2)));
    await expectSheetError(path, 'corrupt', /^“cut\.xlsx” is damaged or incomplete and can't be read as an Excel workbook\./);
    await expect(listSheets(path)).rejects.toMatchObject({ code: 'corrupt' });
  });

  it('corrupt: an xlsx whose worksheet data is damaged', async () => {
    const sheetXml = '<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>Name</t></is></c></row></sheetData></worksheet>';
    const bytes = zip([
      { name: 'xl/workbook.xml', data: '<workbook xmlns:r="r"><sheets><sheet name="S" sheetId="1" r:id="rId1"/></sheets></workbook>' },
      { name: 'xl/_rels/workbook.xml.rels', data: '<Relationships><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>' },
      { name: 'xl/worksheets/sheet1.xml', data: sheetXml.repeat(50) },
    ]);
    // Scramble the deflated worksheet bytes in place: the directory is intact, the data is not.
    const at = bytes.indexOf('xl/worksheets/sheet1.xml') + 'xl/worksheets/sheet1.xml'.length + 10;
    for (let i = 0; i < 40; i++) bytes[at + i] ^= 0xa5;
    await expectSheetError(sheetFile('damaged.xlsx', bytes), 'corrupt', /is damaged or incomplete/);
  });

  it('too_many_rows: a CSV over the limit is counted and refused before any row is read, with the figure', async () => {
    const csv = sheetFile('five.csv', 'Name\nA\nB\n"C\nstill C"\nD\n\nE\n');
    await expectSheetError(csv, 'too_many_rows', /^“five\.csv” has 6 rows below its header; Matchdesk takes at most 5 rows a sheet\. Split it/, { maxRows: 5 });
    // A line break inside quotes is no row, a blank line between rows is one (kept in place), a trailing one is not:
    // seven line breaks, yet exactly at the limit.
    expect(await allRows(await openSheet(csv, { maxRows: 6 }))).toHaveLength(6);
    const utf16 = sheetFile('wide.csv', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('Name\r\nA\r\nB\r\nC\r\n', 'utf16le')]));
    await expectSheetError(utf16, 'too_many_rows', /has 3 rows below its header; Matchdesk takes at most 2 rows/, { maxRows: 2 });
  });

  it('too_many_rows: an xlsx whose dimension says it is over the limit is refused before any row is read', async () => {
    const path = sheetFile('big.xlsx', await workbookBytes((wb) => void wb.addWorksheet('People').addRows([['Name'], ['A'], ['B'], ['C']])));
    await expectSheetError(path, 'too_many_rows', /^The sheet “People” in “big\.xlsx” has 3 rows below its header; Matchdesk takes at most 2 rows a sheet\./, { maxRows: 2 });
    expect(await allRows(await openSheet(path, { maxRows: 3 }))).toHaveLength(3);
  });

  it('too_many_columns: 1,001 columns in a CSV and in an xlsx', async () => {
    const header = Array.from({ length: 1001 }, (_, i) => `c${i + 1}`);
    await expectSheetError(
      sheetFile('wide.csv', `${header.join(',')}\n${header.join(',')}\n`),
      'too_many_columns',
      "“wide.csv” has 1,001 columns in row 1; Matchdesk reads at most 1,000. Remove the columns you don't need and try again.",
    );
    const xlsx = sheetFile('wide.xlsx', await workbookBytes((wb) => void wb.addWorksheet('Wide').addRow(header)));
    await expectSheetError(xlsx, 'too_many_columns', /^The sheet “Wide” in “wide\.xlsx” has 1,001 columns in row 1;/);
  });

  it('too_many_columns: a wide data row further down is refused while reading', async () => {
    const wideRow = Array.from({ length: 1200 }, (_, i) => String(i)).join(',');
    const sheet = await openSheet(sheetFile('late.csv', `a,b\n1,2\n3,4\n${wideRow}\n`));
    const err = await failure(allRows(sheet));
    expect(err.code).toBe('too_many_columns');
    expect(err.message).toContain('has 1,200 columns in row 4');
  });

  it('does not count trailing empty cells as columns, nor keep them past the header when there are too many', async () => {
    const sheet = await openSheet(sheetFile('trailing.csv', `a,b${','.repeat(2000)}\n1,2\n`), { maxColumns: 10 });
    expect(sheet.headers).toEqual(['a', 'b']);
    // A data row ending in 100,000 delimiters: read as wide as the header, not 100,002 cells every row is widened to.
    const rows = await allRows(await openSheet(sheetFile('trailing-row.csv', `a,b,c\n1,2,3\n4,5${','.repeat(100_000)}\n6,7,8,,\n`)));
    expect(rows).toEqual([['1', '2', '3'], ['4', '5', ''], ['6', '7', '8', '', '']]);
  });

  it('honours a lower maxColumns', async () => {
    await expectSheetError(sheetFile('five.csv', 'a,b,c,d,e\n1,2,3,4,5\n'), 'too_many_columns', /has 5 columns in row 1; Matchdesk reads at most 4\./, { maxColumns: 4 });
  });

  it('cell_too_large: a 1.1 MB cell, saying which row and column', async () => {
    const big = 'x'.repeat(1.1 * 1024 * 1024);
    const sheet = await openSheet(sheetFile('big.csv', `Name,Notes\nAnn,short\nBo,"${big}"\n`));
    const err = await failure(allRows(sheet));
    expect(err.code).toBe('cell_too_large');
    expect(err.message).toBe('The cell in row 3, column B (“Notes”) of “big.csv” is 1.1 MiB; cells may hold at most 1 MiB. Shorten it and try again.');
    // In the first data row it is refused by openSheet itself.
    await expectSheetError(sheetFile('big-unquoted.csv', `Name,Notes\nBo,${big}\n`), 'cell_too_large', /^The cell in row 2, column B \(“Notes”\) of “big-unquoted\.csv” is 1\.1 MiB/);
  });

  it('cell_too_large: a quote that is never closed stops at the limit instead of filling memory', async () => {
    const rest = (n: number) => Array.from({ length: n }, (_, i) => `${i},plain row ${i}`).join('\n');
    // Long enough that the reader must give up before the end of the file...
    const long = await openSheet(sheetFile('runaway.csv', `id,text\n0,fine\n1,"opened here\n${rest(300_000)}\n`));
    const err = await failure(allRows(long));
    expect(err.code).toBe('cell_too_large');
    expect(err.message).toMatch(/^The cell in row 3, column B \(“text”\) of “runaway\.csv” is over [\d.]+ MiB and still going; cells may hold at most 1 MiB\. This often means a quote \(“?"\)? that is never closed\./);
    // ...and one that reaches the end of the file first.
    const short = await openSheet(sheetFile('runaway-short.csv', `id,text\n0,fine\n1,"opened here\n${rest(60_000)}\n`));
    expect((await failure(allRows(short))).message).toMatch(/row 3, column B \(“text”\) of “runaway-short\.csv” is over 1\.\d MiB and still going/);
  });

  it('cell_too_large: a long cell with no quote in it is not blamed on a quote', async () => {
    const long = await openSheet(sheetFile('long-line.csv', `id,text\n0,fine\n1,${'x'.repeat(5 * 1024 * 1024)}\n2,after\n`));
    const err = await failure(allRows(long));
    expect(err.code).toBe('cell_too_large');
    expect(err.message).toMatch(/^The cell in row 3, column B \(“text”\) of “long-line\.csv” is over [\d.]+ MiB and still going; cells may hold at most 1 MiB\. Shorten it and try again\.$/);
  });

  it('cell_too_large: counts bytes, not characters, and honours a lower maxCellBytes', async () => {
    const accented = 'é'.repeat(600); // 1,200 bytes in UTF-8
    await expectSheetError(sheetFile('accents.csv', `a\n${accented}\n`), 'cell_too_large', /row 2, column A \(“a”\) of “accents\.csv” is 1\.2 KiB; cells may hold at most 1000 bytes/, { maxCellBytes: 1000 });
  });

  it('makes duplicate and empty headers unique and says so, without failing', async () => {
    const sheet = await openSheet(sheetFile('dupes.csv', 'Email,,Name,email,Email,Column 2\n1,2,3,4,5,6\n'));
    expect(sheet.headers).toEqual(['Email', 'Column 2 (2)', 'Name', 'email (2)', 'Email (3)', 'Column 2']);
    expect(sheet.warnings).toEqual([
      { code: 'empty_headers', count: 1, message: 'Column 2 has no name in the header row; it is called “Column 2 (2)”.' },
      {
        code: 'duplicate_headers',
        count: 2,
        message: 'Some header names repeat, so they were made unique: “email” (column 4) is now “email (2)”; “Email” (column 5) is now “Email (3)”.',
      },
    ]);
    expect(await allRows(sheet)).toEqual([['1', '2', '3', '4', '5', '6']]);
  });

  it('unreadable: a missing file and a folder', async () => {
    const dir = tempFolder();
    await expectSheetError(join(dir, 'gone.csv'), 'unreadable', "Can't read “gone.csv”: the file does not exist (it may have been moved or deleted).");
    mkdirSync(join(dir, 'folder.csv'));
    await expectSheetError(
      join(dir, 'folder.csv'),
      'unreadable',
      "Can't read “folder.csv”: it is a folder, not a file. Matchdesk reads only files saved on disk: choose a CSV or Excel (.xlsx) file.",
    );
  });

  it('never changes the file it refuses', async () => {
    const path = sheetFile('photo.csv', PNG);
    await failure(openSheet(path));
    expect(readFileSync(path).equals(PNG)).toBe(true);
  });
});
