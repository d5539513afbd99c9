import { dirname, join } from 'node:path';
import { readFileSync, readdirSync } from 'node:fs';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { listSheets, openSheet, SheetError } from '../../../electron/engine/sheets';
import {
  REL_NS,
  SHEET_NS,
  WORKSHEET_REL_TYPE,
  XLSX_CONTENT_TYPES,
  XLSX_ROOT_RELS,
  allRows,
  sheetFile,
  tempFolder,
} from './sheet-files';
import { zip } from '../../support/zip-file';

async function saveWorkbook(build: (wb: ExcelJS.Workbook) => void, name = 'book.xlsx'): Promise<string> {
  const wb = new ExcelJS.Workbook();
  build(wb);
  const path = join(tempFolder(), name);
  await wb.xlsx.writeFile(path);
  return path;
}

async function peopleWithHiddenFirstSheet(): Promise<string> {
  return saveWorkbook((wb) => {
    const hidden = wb.addWorksheet('Lookup', { state: 'hidden' });
    hidden.addRow(['secret']);
    hidden.addRow(['value']);
    const people = wb.addWorksheet('People');
    people.addRow(['Name', 'Email']);
    people.addRow(['Ann Lee', 'ann@example.com']);
    const companies = wb.addWorksheet('Companies');
    companies.addRow(['Company', 'Domain']);
    companies.addRow(['Acme', 'acme.example']);
    wb.addWorksheet('Old', { state: 'veryHidden' }).addRow(['x']);
  });
}

describe('openSheet on xlsx workbooks', () => {
  it('reads the first visible sheet by default, skipping a hidden first sheet', async () => {
    const path = await peopleWithHiddenFirstSheet();
    const sheet = await openSheet(path);
    expect(sheet.info).toEqual({ format: 'xlsx', sheetName: 'People', sheetNames: ['People', 'Companies'] });
    expect(sheet.headers).toEqual(['Name', 'Email']);
    expect(await allRows(sheet)).toEqual([['Ann Lee', 'ann@example.com']]);
  });

  it('lists only visible sheets, in tab order', async () => {
    expect(await listSheets(await peopleWithHiddenFirstSheet())).toEqual(['People', 'Companies']);
  });

  it('lists no sheets for a CSV', async () => {
    expect(await listSheets(sheetFile('a.csv', 'a,b\n1,2\n'))).toEqual([]);
  });

  it('reads a sheet by name, a hidden one too when asked for it', async () => {
    const path = await peopleWithHiddenFirstSheet();
    const companies = await openSheet(path, { sheet: 'Companies' });
    expect(companies.info.sheetName).toBe('Companies');
    expect(await allRows(companies)).toEqual([['Acme', 'acme.example']]);
    const hidden = await openSheet(path, { sheet: 'Lookup' });
    expect(hidden.headers).toEqual(['secret']);
    expect(await allRows(hidden)).toEqual([['value']]);
  });

  it('says which sheets exist when the named one does not', async () => {
    const path = await peopleWithHiddenFirstSheet();
    const err = await openSheet(path, { sheet: 'Contacts' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SheetError);
    expect(err).toMatchObject({ code: 'sheet_not_found' });
    expect((err as Error).message).toBe('“book.xlsx” has no sheet named “Contacts”. Its sheets are: “People”, “Companies”.');
  });

  it('shows dates, times and numbers as the user sees them', async () => {
    const path = await saveWorkbook((wb) => {
      const ws = wb.addWorksheet('Data');
      ws.addRow(['Born', 'Met', 'Call at', 'Score', 'ZIP', 'Share', 'Salary', 'Phone', 'Count', 'Big', 'Tiny']);
      const row = ws.addRow([
        new Date(Date.UTC(1990, 4, 17)),
        new Date(Date.UTC(2024, 0, 31, 14, 5, 9)),
        0.75,
        0.1 + 0.2,
        2134,
        0.256,
        -1234.5,
        5551234567,
        42,
        123456789012,
        1e-7,
      ]);
      row.getCell(1).numFmt = 'mm/dd/yyyy';
      row.getCell(2).numFmt = 'yyyy-mm-dd hh:mm:ss';
      row.getCell(3).numFmt = 'h:mm AM/PM';
      row.getCell(5).numFmt = '00000';
      row.getCell(6).numFmt = '0.0%';
      row.getCell(7).numFmt = '#,##0.00;(#,##0.00)';
      row.getCell(8).numFmt = '(000) 000-0000';
    });
    const sheet = await openSheet(path);
    expect(await allRows(sheet)).toEqual([
      ['1990-05-17', '2024-01-31 14:05:09', '18:00', '0.3', '02134', '25.6%', '(1,234.50)', '(555) 123-4567', '42', '123456789012', '1E-07'],
    ]);
  });

  it('flattens rich text, shows formulas by their cached result, hyperlinks by their text, booleans and errors as Excel prints them', async () => {
    const path = await saveWorkbook((wb) => {
      const ws = wb.addWorksheet('Data');
      ws.addRow(['Rich', 'Formula', 'Text formula', 'Link', 'Bool', 'Error', 'Date formula']);
      const row = ws.addRow([
        { richText: [{ text: 'Ann ' }, { text: 'Lee', font: { bold: true } }] },
        { formula: 'B1*2', result: 0.6000000000000001 },
        { formula: 'A2&"x"', result: 'Ann Leex' },
        { text: 'profile', hyperlink: 'https://example.com/in/ann' },
        true,
        { error: '#N/A' },
        { formula: 'TODAY()', result: 45000 },
      ]);
      row.getCell(7).numFmt = 'yyyy-mm-dd';
    });
    const sheet = await openSheet(path);
    expect(await allRows(sheet)).toEqual([['Ann Lee', '0.6', 'Ann Leex', 'profile', 'TRUE', '#N/A', '2023-03-15']]);
  });

  it('uses the 1904 date system when the workbook does', async () => {
    const path = await saveWorkbook((wb) => {
      wb.properties.date1904 = true;
      const ws = wb.addWorksheet('Data');
      ws.addRow(['Born', 'Computed']);
      const row = ws.addRow([new Date(Date.UTC(1990, 4, 17)), { formula: 'A2+365', result: 31913 }]);
      row.getCell(1).numFmt = 'yyyy-mm-dd';
      row.getCell(2).numFmt = 'yyyy-mm-dd';
    });
    const sheet = await openSheet(path);
    expect(await allRows(sheet)).toEqual([['1990-05-17', '1991-05-17']]);
  });

  it('pads short rows to the header, keeps the rows an xlsx leaves out as blank rows in place, counts rows wider than the header', async () => {
    const path = await saveWorkbook((wb) => {
      const ws = wb.addWorksheet('Data');
      ws.getCell('A1').value = 'Name';
      ws.getCell('B1').value = 'Email';
      ws.getCell('C1').value = 'Company';
      ws.getCell('A2').value = 'Ann';
      ws.getCell('B5').value = 'bo@example.com';
      ws.getCell('A6').value = 'Cy';
      ws.getCell('D6').value = 'extra';
      ws.getCell('A7').value = '   ';
    });
    const sheet = await openSheet(path);
    // Rows 3 and 4 are not in the file at all: kept as blank rows, so each row stays at its number (2 + index).
    expect(sheet.firstRow).toBe(2);
    expect(await allRows(sheet)).toEqual([
      ['Ann', '', ''],
      [],
      [],
      ['', 'bo@example.com', ''],
      ['Cy', '', '', 'extra'],
    ]);
    expect(sheet.warnings).toEqual([
      {
        code: 'blank_rows_kept',
        count: 2,
        message: '2 blank rows between the data rows were kept in place, so the rows keep their numbers; they are not looked up.',
      },
      { code: 'ragged_rows', count: 1, message: '1 row has more or fewer cells than the header row; it was kept as it is.' },
    ]);
  });

  it('reads a workbook laid out as Excel writes it: tab order unlike ZIP order, shared strings last, inline strings', async () => {
    const workbookXml =
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><workbook xmlns="${SHEET_NS}" xmlns:r="${REL_NS}">` +
      '<workbookPr/><sheets>' +
      '<sheet name="Summary &amp; Notes" sheetId="2" r:id="rId2"/>' +
      '<sheet name="Raw" sheetId="1" r:id="rId1"/>' +
      '</sheets></workbook>';
    const rels =
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
      `<Relationship Id="rId1" Type="${WORKSHEET_REL_TYPE}" Target="worksheets/sheet1.xml"/>` +
      `<Relationship Id="rId2" Type="${WORKSHEET_REL_TYPE}" Target="/xl/worksheets/sheet2.xml"/>` +
      '<Relationship Id="rId3" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/>' +
      '<Relationship Id="rId4" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings" Target="sharedStrings.xml"/>' +
      '</Relationships>';
    const sheet = (rows: string) => `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><worksheet xmlns="${SHEET_NS}"><sheetData>${rows}</sheetData></worksheet>`;
    const styles =
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><styleSheet xmlns="${SHEET_NS}">` +
      '<numFmts count="1"><numFmt numFmtId="164" formatCode="dd/mm/yyyy"/></numFmts>' +
      '<fonts count="1"><font><sz val="11"/></font></fonts><fills count="1"><fill><patternFill patternType="none"/></fill></fills>' +
      '<borders count="1"><border/></borders><cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>' +
      '<cellXfs count="2"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/><xf numFmtId="164" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/></cellXfs>' +
      '</styleSheet>';
    const shared = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><sst xmlns="${SHEET_NS}" count="4" uniqueCount="4"><si><t>Name</t></si><si><t>Joined</t></si><si><r><t>Zoë </t></r><r><rPr><b/></rPr><t>Adams</t></r></si><si><t xml:space="preserve"> AT&amp;T </t></si></sst>`;
    const path = sheetFile(
      'excel-order.xlsx',
      zip([
        { name: '[Content_Types].xml', data: XLSX_CONTENT_TYPES },
        { name: '_rels/.rels', data: XLSX_ROOT_RELS },
        { name: 'xl/workbook.xml', data: workbookXml },
        { name: 'xl/_rels/workbook.xml.rels', data: rels },
        { name: 'xl/worksheets/sheet1.xml', data: sheet('<row r="1"><c r="A1" t="inlineStr"><is><t>raw</t></is></c></row><row r="2"><c r="A2"><v>1</v></c></row>') },
        {
          name: 'xl/worksheets/sheet2.xml',
          data: sheet(
            '<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c><c r="C1" t="inlineStr"><is><t>Company</t></is></c></row>' +
              '<row r="2"><c r="A2" t="s"><v>2</v></c><c r="B2" s="1"><v>45292</v></c><c r="C2" t="s"><v>3</v></c></row>',
          ),
        },
        { name: 'xl/styles.xml', data: styles },
        { name: 'xl/sharedStrings.xml', data: shared },
      ]),
    );
    expect(await listSheets(path)).toEqual(['Summary & Notes', 'Raw']);
    const first = await openSheet(path);
    expect(first.info.sheetName).toBe('Summary & Notes');
    expect(first.headers).toEqual(['Name', 'Joined', 'Company']);
    expect(await allRows(first)).toEqual([['Zoë Adams', '2024-01-01', ' AT&T ']]);
    const raw = await openSheet(path, { sheet: 'Raw' });
    expect(raw.headers).toEqual(['raw']);
    expect(await allRows(raw)).toEqual([['1']]);
  });

  it("reads Excel's escapes (_xHHHH_) in shared, rich and inline strings as the characters they stand for", async () => {
    const rels =
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
      `<Relationship Id="rId1" Type="${WORKSHEET_REL_TYPE}" Target="worksheets/sheet1.xml"/>` +
      '<Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings" Target="sharedStrings.xml"/>' +
      '</Relationships>';
    const shared =
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><sst xmlns="${SHEET_NS}" count="3" uniqueCount="3"><si><t>Name</t></si><si><t>Note</t></si>` +
      '<si><t>line1_x000D_line2, a_x005F_x0041_</t></si><si><r><t>Zo_x00EB_ </t></r><r><rPr><b/></rPr><t>Adams</t></r></si></sst>';
    const path = sheetFile(
      'escapes.xlsx',
      zip([
        { name: '[Content_Types].xml', data: XLSX_CONTENT_TYPES },
        { name: '_rels/.rels', data: XLSX_ROOT_RELS },
        { name: 'xl/workbook.xml', data: `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><workbook xmlns="${SHEET_NS}" xmlns:r="${REL_NS}"><sheets><sheet name="S" sheetId="1" r:id="rId1"/></sheets></workbook>` },
        { name: 'xl/_rels/workbook.xml.rels', data: rels },
        {
          name: 'xl/worksheets/sheet1.xml',
          data:
            `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><worksheet xmlns="${SHEET_NS}"><sheetData>` +
            '<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c></row>' +
            '<row r="2"><c r="A2" t="s"><v>3</v></c><c r="B2" t="s"><v>2</v></c></row>' +
            '<row r="3"><c r="A3" t="inlineStr"><is><t>tab_x0009_here</t></is></c><c r="B3" t="inlineStr"><is><t>_x_ and _x12_ stay</t></is></c></row>' +
            '</sheetData></worksheet>',
        },
        { name: 'xl/sharedStrings.xml', data: shared },
      ]),
    );
    expect(await allRows(await openSheet(path))).toEqual([
      ['Zoë Adams', 'line1\rline2, a_x0041_'],
      ['tab\there', '_x_ and _x12_ stay'],
    ]);
  });

  it('reads a larger workbook in file order and again on a second pass', async () => {
    const path = await saveWorkbook((wb) => {
      const ws = wb.addWorksheet('People');
      ws.addRow(['id', 'name', 'email']);
      for (let i = 1; i <= 3000; i++) ws.addRow([i, `Person ${i}`, `p${i}@example.com`]);
    });
    const sheet = await openSheet(path);
    const rows = await allRows(sheet);
    expect(rows).toHaveLength(3000);
    expect(rows[0]).toEqual(['1', 'Person 1', 'p1@example.com']);
    expect(rows[2999]).toEqual(['3000', 'Person 3000', 'p3000@example.com']);
    expect(await allRows(sheet)).toEqual(rows);
  });

  it('makes xlsx headers unique like CSV ones', async () => {
    const path = await saveWorkbook((wb) => {
      const ws = wb.addWorksheet('People');
      ws.getCell('A1').value = 'Email';
      ws.getCell('B1').value = 'email';
      ws.getCell('D1').value = 'Name';
      ws.addRow(['a@x', 'b@x', 'c', 'Ann']);
    });
    const sheet = await openSheet(path);
    expect(sheet.headers).toEqual(['Email', 'email (2)', 'Column 3', 'Name']);
    expect(sheet.warnings.map((w) => w.code)).toEqual(['empty_headers', 'duplicate_headers']);
  });

  it('leaves the workbook unchanged and writes nothing beside it', async () => {
    const path = await peopleWithHiddenFirstSheet();
    const before = readFileSync(path);
    await allRows(await openSheet(path));
    expect(readFileSync(path).equals(before)).toBe(true);
    expect(readdirSync(dirname(path))).toEqual(['book.xlsx']);
  });
});
