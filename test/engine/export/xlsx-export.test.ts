import { existsSync, readdirSync, writeFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { crc32, inflateRawSync } from 'node:zlib';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { ExportError, writeTable } from '../../../electron/engine/export';
import { openSheet } from '../../../electron/engine/sheets';
import { ZipDirectory } from '../../../electron/engine/sheets/zip-directory';
import { failingAfter, slowly, tempFolder } from './export-files';

async function readBack(path: string): Promise<{ headers: string[]; rows: string[][]; sheetName?: string }> {
  const sheet = await openSheet(path);
  const rows: string[][] = [];
  for await (const row of sheet.rows()) rows.push(row);
  return { headers: sheet.headers, rows, sheetName: sheet.info.sheetName };
}

async function worksheetXml(path: string): Promise<string> {
  const zip = await ZipDirectory.open(path);
  try {
    return (await zip.read('xl/worksheets/sheet1.xml')).toString('utf8');
  } finally {
    await zip.close();
  }
}

/**
 * Every entry of a zip, read straight from its central directory and local headers (no zip library): its name, its
 * data inflated, and whether that data's CRC-32 and size are the ones the directory gives.
 */
function zipEntries(path: string): { name: string; data: Buffer; intact: boolean }[] {
  const file = readFileSync(path);
  const end = file.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  const count = file.readUInt16LE(end + 10);
  const entries: { name: string; data: Buffer; intact: boolean }[] = [];
  for (let at = file.readUInt32LE(end + 16), n = 0; n < count; n++) {
    const [crc, compressed, size, nameLength] = [file.readUInt32LE(at + 16), file.readUInt32LE(at + 20), file.readUInt32LE(at + 24), file.readUInt16LE(at + 28)];
    const name = file.toString('utf8', at + 46, at + 46 + nameLength);
    const local = file.readUInt32LE(at + 42);
    const start = local + 30 + file.readUInt16LE(local + 26) + file.readUInt16LE(local + 28);
    const data = inflateRawSync(file.subarray(start, start + compressed));
    entries.push({ name, data, intact: crc32(data) === crc && data.length === size });
    at += 46 + nameLength + file.readUInt16LE(at + 30) + file.readUInt16LE(at + 32);
  }
  return entries;
}

describe('writeTable to XLSX', () => {
  it('writes a whole zip: every part where its directory says, with the CRC and size it gives', async () => {
    const path = join(tempFolder(), 'zip.xlsx');
    const rows = Array.from({ length: 30_000 }, (_, i) => [`Person ${i} · ${'é'.repeat(i % 7)}`, i % 5 === 0 ? null : i / 3]);
    await writeTable({ path, format: 'xlsx' }, ['Name', 'Share'], rows);
    const entries = zipEntries(path);
    expect(entries.map((e) => e.name)).toEqual(['[Content_Types].xml', '_rels/.rels', 'xl/workbook.xml', 'xl/_rels/workbook.xml.rels', 'xl/styles.xml', 'xl/worksheets/sheet1.xml']);
    expect(entries.every((e) => e.intact)).toBe(true);
    // The sheet's XML is made of many chunks, and they are in order.
    const sheet = entries.at(-1)!.data.toString('utf8');
    expect(sheet.length).toBeGreaterThan(2 << 20);
    expect(sheet).toMatch(/^<\?xml [^>]+>\n<worksheet [^>]+>.*<\/sheetData><autoFilter ref="A1:B30001"\/><\/worksheet>$/s);
    expect([...sheet.matchAll(/<row r="(\d+)">/g)].map((m) => Number(m[1]))).toEqual(Array.from({ length: 30_001 }, (_, i) => i + 1));
  });

  it('keeps text XML cannot hold out of the file, and what Excel would read as an escape as it is', async () => {
    const path = join(tempFolder(), 'text.xlsx');
    const rows = [['a_x0041_b', 'bell\u0007 and \ud800 half a pair', '<tag attr="x"> & more', '\ttabbed']];
    await writeTable({ path, format: 'xlsx' }, ['escape', 'not XML', 'markup', 'spaces'], rows);
    // Excel (and openSheet) read _x005F_ as the underscore, and so the cell as it was.
    expect((await readBack(path)).rows).toEqual([['a_x0041_b', 'bell and \ufffd half a pair', '<tag attr="x"> & more', '\ttabbed']]);
    const xml = await worksheetXml(path);
    expect(xml).toContain('<t>a_x005F_x0041_b</t>');
    expect(xml).toContain('<t xml:space="preserve">\ttabbed</t>');
  });

  it('round-trips through openSheet: non-ASCII text, formula-looking strings, line breaks, numbers', async () => {
    const path = join(tempFolder(), 'out.xlsx');
    const headers = ['Name', 'Company', 'Note', 'Score'];
    const rows: (string | number | null)[][] = [
      ['Zoë Ångström', 'Société Générale', 'Emoji 👩🏽‍💻 and 漢字', 0.87],
      ['李雷', 'AT&T <Labs> "R&D"', 'two\r\nlines', 12],
      ['=SUM(A1:A2)', '+1 555 0100', '@handle', -1.5],
      ['Ann', null, '  padded  ', 1234567],
    ];
    expect(await writeTable({ path, format: 'xlsx', sheetName: 'Matches' }, headers, slowly(rows))).toEqual({ rows: 4 });
    const back = await readBack(path);
    expect(back.sheetName).toBe('Matches');
    expect(back.headers).toEqual(headers);
    // Line breaks come back as LF: Excel's own way of breaking a line inside a cell.
    expect(back.rows).toEqual(rows.map((row) => row.map((cell) => (cell === null ? '' : String(cell).replace('\r\n', '\n')))));
  });

  it('keeps formula-looking strings as text: no cell in the file is a formula', async () => {
    const path = join(tempFolder(), 'formulas.xlsx');
    await writeTable({ path, format: 'xlsx' }, ['=Header', 'b'], [
      ['=HYPERLINK("http://evil.example","click")', '=1+1'],
      ['+cmd|/C calc!A0', '-2+3'],
      ['@SUM(A1)', '\t=1'],
    ]);
    const xml = await worksheetXml(path);
    expect(xml).not.toMatch(/<f[\s>]/);
    expect(xml).toContain('=HYPERLINK(');

    const wb = new ExcelJS.Workbook();
    await wb.xlsx.readFile(path);
    const ws = wb.worksheets[0];
    ws.eachRow((row) =>
      row.eachCell((cell) => {
        expect(cell.type).toBe(ExcelJS.ValueType.String);
        expect(cell.formula).toBeFalsy();
      }),
    );
    expect(ws.getCell('A2').value).toBe('=HYPERLINK("http://evil.example","click")');
  });

  it('writes numbers as numbers, strings as strings, and null or an empty text as an empty cell', async () => {
    const path = join(tempFolder(), 'types.xlsx');
    await writeTable({ path, format: 'xlsx' }, ['n', 's', 'empty', 'no text'], [[42.5, '42.5', null, '']]);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.readFile(path);
    const row = wb.worksheets[0].getRow(2);
    expect(row.getCell(1).type).toBe(ExcelJS.ValueType.Number);
    expect(row.getCell(1).value).toBe(42.5);
    expect(row.getCell(2).type).toBe(ExcelJS.ValueType.String);
    expect(row.getCell(3).type).toBe(ExcelJS.ValueType.Null);
    // A cell holding "" would count as filled (COUNTA, ISBLANK): an empty text is written as no cell, as Excel writes it.
    expect(row.getCell(4).type).toBe(ExcelJS.ValueType.Null);
    expect(await worksheetXml(path)).not.toContain('<t></t>');
  });

  it('makes the header row bold and frozen', async () => {
    const path = join(tempFolder(), 'styled.xlsx');
    await writeTable({ path, format: 'xlsx' }, ['Name', 'Email'], [['Ann', 'ann@example.com']]);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.readFile(path);
    const ws = wb.worksheets[0];
    expect(ws.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
    expect(ws.getCell('A1').font?.bold).toBe(true);
    expect(ws.getCell('B1').font?.bold).toBe(true);
    expect(ws.getCell('A2').font?.bold).toBeFalsy();
  });

  it('puts a filter on the header row, over every row written', async () => {
    const folder = tempFolder();
    const path = join(folder, 'filtered.xlsx');
    const headers = Array.from({ length: 28 }, (_, i) => `Column ${i + 1}`);
    await writeTable({ path, format: 'xlsx' }, headers, Array.from({ length: 41 }, (_, r) => headers.map((_, c) => `${r}:${c}`)));
    const xml = await worksheetXml(path);
    // After the rows, as the schema orders a worksheet's parts: A to AB, the header and its 41 rows.
    expect(xml).toMatch(/<\/sheetData><autoFilter ref="A1:AB42"\/><\/worksheet>$/);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.readFile(path);
    expect(wb.worksheets[0]!.autoFilter).toBe('A1:AB42');
    // A sheet of headers only still gets its filter buttons.
    const empty = join(folder, 'empty.xlsx');
    await writeTable({ path: empty, format: 'xlsx' }, ['Name', 'Email'], []);
    expect(await worksheetXml(empty)).toContain('<autoFilter ref="A1:B1"/>');
  });

  it('makes any sheet name acceptable to Excel', async () => {
    const path = join(tempFolder(), 'named.xlsx');
    await writeTable({ path, format: 'xlsx', sheetName: "'Q1/Q2: [people]? and a name far too long for Excel'" }, ['a'], [['1']]);
    const name = (await readBack(path)).sheetName!;
    expect(name.length).toBeLessThanOrEqual(31);
    expect(name).not.toMatch(/[:\\/?*[\]]|^'|'$/);
    expect(name.startsWith('Q1 Q2')).toBe(true);
    const defaulted = join(tempFolder(), 'default.xlsx');
    await writeTable({ path: defaulted, format: 'xlsx' }, ['a'], [['1']]);
    expect((await readBack(defaulted)).sheetName).toBe('Sheet1');
  });

  it("cuts cells to Excel's 32,767-character limit and says how many", async () => {
    const path = join(tempFolder(), 'long.xlsx');
    const result = await writeTable({ path, format: 'xlsx' }, ['note'], [['x'.repeat(40_000)], ['short']]);
    expect(result).toEqual({ rows: 2, truncatedCells: 1 });
    expect((await readBack(path)).rows[0][0]).toHaveLength(32_767);
  });

  it('leaves no .part file after success and replaces an older file', async () => {
    const dir = tempFolder();
    const path = join(dir, 'out.xlsx');
    writeFileSync(path, 'old contents');
    await writeTable({ path, format: 'xlsx' }, ['a'], [['new']]);
    expect(readdirSync(dir)).toEqual(['out.xlsx']);
    expect((await readBack(path)).rows).toEqual([['new']]);
  });

  it('leaves neither a half file nor a .part when the rows fail part way, and keeps an older file intact', async () => {
    const dir = tempFolder();
    const path = join(dir, 'out.xlsx');
    writeFileSync(path, 'old contents');
    const rows = Array.from({ length: 5000 }, (_, i) => [`row ${i}`, i]);
    await expect(writeTable({ path, format: 'xlsx' }, ['a', 'b'], failingAfter(rows, 3000))).rejects.toThrow('the database went away');
    // Let any late zip or stream events fire: nothing may recreate the .part.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(readdirSync(dir)).toEqual(['out.xlsx']);
    expect(readFileSync(path, 'utf8')).toBe('old contents');
  });

  it('says why when the folder cannot be written', async () => {
    const path = join(tempFolder(), 'missing-folder', 'out.xlsx');
    const err = await writeTable({ path, format: 'xlsx' }, ['a'], [['1']]).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ExportError);
    expect(err).toMatchObject({ code: 'write_failed', message: "Couldn't save “out.xlsx”: its folder does not exist." });
    expect(existsSync(join(tempFolder(), 'missing-folder'))).toBe(false);
  });

  it('refuses more columns than an Excel sheet holds before writing anything', async () => {
    const dir = tempFolder();
    const headers = Array.from({ length: 16_385 }, (_, i) => `c${i}`);
    await expect(writeTable({ path: join(dir, 'wide.xlsx'), format: 'xlsx' }, headers, [])).rejects.toMatchObject({ code: 'too_many_columns' });
    expect(readdirSync(dir)).toEqual([]);
  });

  it('streams a larger export with flat memory and reads it back in order', async () => {
    const path = join(tempFolder(), 'many.xlsx');
    const count = 20_000;
    function* rows() {
      for (let i = 0; i < count; i++) yield [`Person ${i}`, `p${i}@example.com`, i];
    }
    const started = performance.now();
    expect(await writeTable({ path, format: 'xlsx' }, ['Name', 'Email', 'Id'], rows())).toEqual({ rows: count });
    console.log(`XLSX export: ${count.toLocaleString('en-US')} rows x 3 columns in ${((performance.now() - started) / 1000).toFixed(2)} s`);
    const back = await readBack(path);
    expect(back.rows).toHaveLength(count);
    expect(back.rows[count - 1]).toEqual([`Person ${count - 1}`, `p${count - 1}@example.com`, String(count - 1)]);
  });
});
