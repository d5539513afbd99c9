import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { openSheet, type OpenedSheet } from '../../../electron/engine/sheets';
import { writeTable } from '../../../electron/engine/export';
import { inflatingWorkbook, SHARED_STRINGS_HEAD, WORKSHEET_HEAD, WORKSHEET_TAIL } from '../../support/inflating-zip';
import { allRows, sheetFile, tempFolder } from './sheet-files';

/** Every row below the header, a blank row as [], counted rather than kept past `keep` (a sheet may end at row 1,048,576). */
async function rowsOf(sheet: OpenedSheet, keep = Infinity): Promise<{ rows: string[][]; count: number; last: string[] | undefined }> {
  const rows: string[][] = [];
  let count = 0;
  let last: string[] | undefined;
  for await (const batch of sheet.rowBatches()) {
    for (const row of batch) {
      if (count < keep) rows.push(row);
      count++;
      last = row;
    }
  }
  return { rows, count, last };
}

async function refusal(promise: Promise<unknown>): Promise<{ code: string; message: string }> {
  const err = (await promise.then(
    () => null,
    (e: unknown) => e,
  )) as { code: string; message: string } | null;
  expect(err, 'expected a refusal').not.toBeNull();
  return { code: err!.code, message: err!.message };
}

describe('the xlsx reader', () => {
  it('reads a workbook exceljs wrote: shared strings, dates, numbers, sparse cells and rows, a row at 1,048,576', async () => {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('People');
    ws.getRow(1).values = ['Name', 'Born', 'Score', 'Notes'];
    ws.getRow(2).values = ['Zoë Adams', new Date(Date.UTC(1990, 4, 17)), 12.5, 'AT&T <sales>'];
    ws.getRow(2).getCell(2).numFmt = 'yyyy-mm-dd';
    ws.getCell('A4').value = 'Bo Li';
    ws.getCell('D4').value = 'only A and D';
    ws.getCell('A1048576').value = 'the last row Excel has';
    ws.getCell('C1048576').value = 7;
    const path = join(tempFolder(), 'exceljs.xlsx');
    await wb.xlsx.writeFile(path);
    const sheet = await openSheet(path);
    expect(sheet.headers).toEqual(['Name', 'Born', 'Score', 'Notes']);
    const { rows, count, last } = await rowsOf(sheet, 3);
    expect(rows).toEqual([['Zoë Adams', '1990-05-17', '12.5', 'AT&T <sales>'], [], ['Bo Li', '', '', 'only A and D']]);
    expect(count).toBe(1_048_575);
    expect(last).toEqual(['the last row Excel has', '', '7', '']);
  });

  it('reads back what the export wrote, cell for cell: inline strings, numbers, empty cells, text XML and Excel escape', async () => {
    const headers = ['Name', 'Notes', 'Count', ''];
    const rows: (string | number | null)[][] = [
      ['Ann <Lee> & "co"', '  spaced  ', 3, null],
      [null, 'line\nbreak', null, 'only B and D'],
      ['東京 😀', '=1+2', -0.5, '_x000D_ literal'],
      ['Ünïcödé', '', 1e21, 'tab\there'],
    ];
    const path = join(tempFolder(), 'ours.xlsx');
    await writeTable({ path, format: 'xlsx' }, headers, rows);
    const sheet = await openSheet(path);
    expect(sheet.headers).toEqual(['Name', 'Notes', 'Count', 'Column 4']);
    expect(await allRows(sheet)).toEqual([
      ['Ann <Lee> & "co"', '  spaced  ', '3', ''],
      ['', 'line\nbreak', '', 'only B and D'],
      ['東京 😀', '=1+2', '-0.5', '_x000D_ literal'],
      ['Ünïcödé', '', '1E+21', 'tab\there'],
    ]);
  });

  it('reads the shapes other writers use: prefixes, cells and rows without r, CDATA, rich and phonetic inline text, every cell type', async () => {
    const xml =
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<!-- written by hand -->' +
      '<x:worksheet xmlns:x="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><x:sheetData>' +
      '<x:row r="1"><x:c r="A1" t="inlineStr"><x:is><x:t>Name</x:t></x:is></x:c><x:c t="inlineStr"><x:is><x:t>Kind</x:t></x:is></x:c><x:c t="inlineStr"><x:is><x:t>Value</x:t></x:is></x:c></x:row>' +
      '<x:row><x:c t="inlineStr"><x:is><x:r><x:t>Ann </x:t></x:r><x:r><x:rPr><x:b/></x:rPr><x:t>Lee</x:t></x:r></x:is></x:c><x:c t="str"><x:f>"bool"</x:f><x:v>bool</x:v></x:c><x:c t="b"><x:v>1</x:v></x:c></x:row>' +
      "<row r='4' spans='1:3'><c r='A4' t='inlineStr'><is><t><![CDATA[<b>&amp;</b>]]></t></is></c><c r='B4' t='e'><v>#N/A</v></c><c r='C4' t='d'><v>2024-01-31T14:05:00</v></c></row>" +
      '<row r="5" note="a > in a value"><c r="A5" t="inlineStr"><is><t>東京</t><rPh sb="0" eb="2"><t>トウキョウ</t></rPh></is></c><c r="B5"><v/></c><c r="C5"><v>0.30000000000000004</v></c></row>' +
      '<row r="6"/>' +
      '<row r="7"><c r="C7" t="b"><v>0</v></c></row>' +
      '</x:sheetData></x:worksheet>';
    const path = sheetFile('shapes.xlsx', inflatingWorkbook({ head: xml }));
    expect(await allRows(await openSheet(path))).toEqual([
      ['Ann Lee', 'bool', 'TRUE'],
      [],
      ['<b>&amp;</b>', '#N/A', '2024-01-31 14:05:00'],
      ['東京', '', '0.3'],
      [],
      ['', '', 'FALSE'],
    ]);
  });

  it('gives each row once when a long cell has the sheet read again through the guard, and reads that cell whole', async () => {
    // A cell over a third of the limit in characters may be over it in bytes: the part is read again, exactly counted.
    const long = 'é'.repeat(450);
    const many = Array.from({ length: 3000 }, (_, i) => `<row r="${i + 2}"><c r="A${i + 2}" t="inlineStr"><is><t>row ${i + 2}</t></is></c></row>`).join('');
    const path = sheetFile(
      'long.xlsx',
      inflatingWorkbook({
        head: `${WORKSHEET_HEAD}<row r="1"><c r="A1" t="inlineStr"><is><t>Name</t></is></c><c r="B1" t="inlineStr"><is><t>Notes</t></is></c></row>${many}`,
        tail: `<row r="3002"><c r="A3002" t="inlineStr"><is><t>Ann</t></is></c><c r="B3002" t="inlineStr"><is><t>${long}</t></is></c></row><row r="3003"><c r="A3003" t="inlineStr"><is><t>after</t></is></c></row>${WORKSHEET_TAIL}`,
      }),
    );
    const rows = await allRows(await openSheet(path, { maxCellBytes: 900 }));
    expect(rows).toHaveLength(3002);
    expect(rows.slice(0, 2)).toEqual([['row 2', ''], ['row 3', '']]);
    expect(rows.slice(-3)).toEqual([['row 3001', ''], ['Ann', long], ['after', '']]);
    expect(new Set(rows.map((row) => row[0])).size).toBe(3002);
    // One byte more and the same cell is refused, named.
    expect(await refusal(openSheet(path, { maxCellBytes: 899 }).then(allRows))).toEqual({
      code: 'cell_too_large',
      message: 'The cell in row 3002, column B (“Notes”) of the sheet “People” in “long.xlsx” is over 899 bytes; cells may hold at most 899 bytes. Shorten it and try again.',
    });
  });

  it('reads a long shared string whole through the guard, and the cells that use it', async () => {
    const long = 'ø'.repeat(400);
    const path = sheetFile(
      'long-shared.xlsx',
      inflatingWorkbook(
        { head: `${WORKSHEET_HEAD}<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c></row><row r="2"><c r="A2" t="s"><v>2</v></c><c r="B2" t="s"><v>1</v></c></row>${WORKSHEET_TAIL}` },
        { head: `${SHARED_STRINGS_HEAD}<si><t>Name</t></si><si><t>${long}</t></si><si><t>Ann</t></si></sst>` },
      ),
    );
    const sheet = await openSheet(path, { maxCellBytes: 800 });
    expect(sheet.headers).toEqual(['Name', long]);
    expect(await allRows(sheet)).toEqual([['Ann', long]]);
  });

  it('refuses a cell past Excel’s last column as damage, before making a row of billions of cells', async () => {
    const path = sheetFile(
      'far.xlsx',
      inflatingWorkbook({ head: `${WORKSHEET_HEAD}<row r="1"><c r="A1" t="inlineStr"><is><t>Name</t></is></c></row><row r="2"><c r="ZZZZZZZ2"><v>1</v></c></row>${WORKSHEET_TAIL}` }),
    );
    expect(await refusal(openSheet(path).then(allRows))).toMatchObject({ code: 'corrupt' });
  });

  it('refuses rows out of order, repeated, or past Excel’s last row as damage, rather than put rows out of place', async () => {
    const row = (r: number, text: string) => `<row r="${r}"><c r="A${r}" t="inlineStr"><is><t>${text}</t></is></c></row>`;
    const cases: [string, string][] = [
      ['out-of-order.xlsx', `${row(1, 'Name')}${row(2, 'Ann')}${row(4, 'Cy')}${row(3, 'Bo')}${row(5, 'Di')}`],
      ['repeated.xlsx', `${row(1, 'Name')}${row(2, 'Ann')}${row(3, 'Bo')}${row(3, 'Bo again')}${row(4, 'Cy')}`],
      ['header-after.xlsx', `${row(2, 'Ann')}${row(1, 'Name')}`],
      // Read through a trillion blank rows, this ran for hours.
      ['far-row.xlsx', `${row(1, 'Name')}${row(2, 'Ann')}${row(1_000_000_000_000, 'Zed')}`],
      ['past-last-row.xlsx', `${row(1, 'Name')}${row(2, 'Ann')}${row(1_048_577, 'Zed')}`],
    ];
    for (const [file, rows] of cases) {
      const path = sheetFile(file, inflatingWorkbook({ head: `${WORKSHEET_HEAD}${rows}${WORKSHEET_TAIL}` }));
      expect(await refusal(openSheet(path).then(allRows)), file).toMatchObject({ code: 'corrupt' });
    }
    // A cell naming a shared string the workbook does not hold: damage, not an empty cell.
    const s = (r: number, index: number) => `<row r="${r}"><c r="A${r}" t="s"><v>${index}</v></c></row>`;
    const strings = { head: `${SHARED_STRINGS_HEAD}<si><t>Name</t></si><si><t>Ann</t></si></sst>` };
    const short = sheetFile('short-strings.xlsx', inflatingWorkbook({ head: `${WORKSHEET_HEAD}${s(1, 0)}${s(2, 1)}${s(3, 2)}${WORKSHEET_TAIL}` }, strings));
    expect(await refusal(openSheet(short).then(allRows)), 'short-strings.xlsx').toMatchObject({ code: 'corrupt' });
    const none = sheetFile('no-strings.xlsx', inflatingWorkbook({ head: `${WORKSHEET_HEAD}${s(1, 0)}${s(2, 1)}${WORKSHEET_TAIL}` }));
    expect(await refusal(openSheet(none).then(allRows)), 'no-strings.xlsx').toMatchObject({ code: 'corrupt' });
    const whole = sheetFile('strings.xlsx', inflatingWorkbook({ head: `${WORKSHEET_HEAD}${s(1, 0)}${s(2, 1)}${WORKSHEET_TAIL}` }, strings));
    expect(await allRows(await openSheet(whole))).toEqual([['Ann']]);
    // Excel's last row itself is a row.
    const last = sheetFile('last-row.xlsx', inflatingWorkbook({ head: `${WORKSHEET_HEAD}${row(1, 'Name')}${row(2, 'Ann')}${row(1_048_576, 'Zed')}${WORKSHEET_TAIL}` }));
    const { count, last: lastRow } = await rowsOf(await openSheet(last), 0);
    expect([count, lastRow]).toEqual([1_048_575, ['Zed']]);
  });
});
