import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import fc from 'fast-check';
import Papa from 'papaparse';
import { describe, expect, it, vi } from 'vitest';
import { csvEscaper, ExportError, neutralizeFormula, writeTable } from '../../../electron/engine/export';
import { openSheet } from '../../../electron/engine/sheets';
import { failingAfter, slowly, tempFolder } from './export-files';

async function readBack(path: string): Promise<{ headers: string[]; rows: string[][]; delimiter?: string }> {
  const sheet = await openSheet(path);
  const rows: string[][] = [];
  for await (const row of sheet.rows()) rows.push(row);
  return { headers: sheet.headers, rows, delimiter: sheet.info.delimiter };
}

describe('neutralizeFormula', () => {
  it.each([
    ['=SUM(A1:A9)', "'=SUM(A1:A9)"],
    ['+cmd|/C calc!A0', "'+cmd|/C calc!A0"],
    ['-2+3', "'-2+3"],
    ['@SUM(1)', "'@SUM(1)"],
    ['\t=1', "'\t=1"],
    ['\r=1', "'\r=1"],
    ['+1 555 0100', "'+1 555 0100"],
    ['-', "'-"],
  ])('prefixes %j', (cell, safe) => {
    expect(neutralizeFormula(cell)).toBe(safe);
  });

  it.each(['-5', '+3.2', '-0.5e3', '.5', '42', 'Ann', '', ' =not first', "'already"])('leaves %j alone', (cell) => {
    expect(neutralizeFormula(cell)).toBe(cell);
  });
});

describe('csvEscaper', () => {
  it.each([
    ['plain', ',', 'plain'],
    ['a,b', ',', '"a,b"'],
    ['a;b', ',', 'a;b'],
    ['a;b', ';', '"a;b"'],
    ['a\tb', '\t', '"a\tb"'],
    ['a|b', '|', '"a|b"'],
    ['say "hi"', ',', '"say ""hi"""'],
    ['line1\nline2', ',', '"line1\nline2"'],
    ['line1\r\nline2', ',', '"line1\r\nline2"'],
    ['cr\ronly', ',', '"cr\ronly"'],
    [' leading', ',', '" leading"'],
    ['trailing ', ',', '"trailing "'],
    ['in side', ',', 'in side'],
    ['', ',', ''],
  ])('%j with %j -> %j', (cell, delimiter, escaped) => {
    expect(csvEscaper(delimiter)(cell)).toBe(escaped);
  });

  it('quotes a cell that starts or ends with any character a pattern reads as whitespace, and no other', () => {
    const escape = csvEscaper(',');
    for (let code = 0; code <= 0xffff; code++) {
      const c = String.fromCharCode(code);
      const special = c === ',' || c === '"' || c === '\r' || c === '\n';
      expect(escape(`${c}x`) !== `${c}x`, `U+${code.toString(16)} first`).toBe(special || /\s/.test(c));
      expect(escape(`x${c}`) !== `x${c}`, `U+${code.toString(16)} last`).toBe(special || /\s/.test(c));
      expect(escape(`x${c}x`) !== `x${c}x`, `U+${code.toString(16)} inside`).toBe(special);
    }
  });

  it('round-trips any text through a CSV parser, for every delimiter', () => {
    fc.assert(
      fc.property(fc.constantFrom(',', ';', '\t', '|'), fc.array(fc.array(fc.string({ unit: 'grapheme' }), { minLength: 2, maxLength: 5 }), { minLength: 1, maxLength: 5 }), (delimiter, rows) => {
        const text = rows.map((row) => row.map((cell) => csvEscaper(delimiter)(cell)).join(delimiter)).join('\r\n');
        const parsed = Papa.parse<string[]>(text, { delimiter, newline: '\r\n' });
        expect(parsed.data).toEqual(rows);
      }),
      { numRuns: 300 },
    );
  });
});

describe('writeTable to CSV', () => {
  it('writes UTF-8 with a BOM and CRLF line ends by default', async () => {
    const path = join(tempFolder(), 'out.csv');
    expect(await writeTable({ path, format: 'csv' }, ['Name', 'City'], [['Renée', 'Zürich']])).toEqual({ rows: 1 });
    const bytes = readFileSync(path);
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(bytes.subarray(3).toString('utf8')).toBe('Name,City\r\nRenée,Zürich\r\n');
  });

  it('leaves the BOM out when asked', async () => {
    const path = join(tempFolder(), 'out.csv');
    await writeTable({ path, format: 'csv', bom: false }, ['a'], [['1']]);
    expect(readFileSync(path).toString('utf8')).toBe('a\r\n1\r\n');
  });

  it.each([';', '\t', '|'])('writes with %j as the delimiter, quoting only cells that hold it', async (delimiter) => {
    const path = join(tempFolder(), 'out.csv');
    await writeTable({ path, format: 'csv', delimiter, bom: false }, ['Name', 'Note'], [['Ann', `x${delimiter}y`], ['Bo', 'a,b']]);
    const expectedNote = delimiter === ',' ? '"a,b"' : 'a,b';
    expect(readFileSync(path, 'utf8')).toBe(`Name${delimiter}Note\r\nAnn${delimiter}"x${delimiter}y"\r\nBo${delimiter}${expectedNote}\r\n`);
    expect(await readBack(path)).toEqual({ headers: ['Name', 'Note'], rows: [['Ann', `x${delimiter}y`], ['Bo', 'a,b']], delimiter });
  });

  it.each([
    [',', 'Score,Rank\r\n0.5,-3\r\n1e-7,12\r\n'],
    ['.', 'Score.Rank\r\n"0.5".-3\r\n1e-7.12\r\n'],
    ['-', 'Score-Rank\r\n0.5-"-3"\r\n"1e-7"-12\r\n'],
  ])('quotes a number only where its text holds the delimiter %j', async (delimiter, text) => {
    const path = join(tempFolder(), 'out.csv');
    await writeTable({ path, format: 'csv', delimiter, bom: false }, ['Score', 'Rank'], [[0.5, -3], [1e-7, 12]]);
    expect(readFileSync(path, 'utf8')).toBe(text);
  });

  it('refuses a delimiter that would break the file', async () => {
    const path = join(tempFolder(), 'out.csv');
    await expect(writeTable({ path, format: 'csv', delimiter: '"' }, ['a'], [])).rejects.toMatchObject({ code: 'invalid_target' });
    expect(existsSync(path)).toBe(false);
  });

  it('quotes every special character and keeps multi-line cells whole', async () => {
    const path = join(tempFolder(), 'special.csv');
    const rows = [
      ['comma, inside', 'quote " inside', 'multi\r\nline\r\ncell'],
      ['lf\nonly', ' leading space', 'trailing space '],
      ['', 'plain', 'tab\tinside'],
    ];
    await writeTable({ path, format: 'csv', bom: false }, ['A', 'B', 'C'], rows);
    expect(readFileSync(path, 'utf8')).toBe(
      'A,B,C\r\n"comma, inside","quote "" inside","multi\r\nline\r\ncell"\r\n"lf\nonly"," leading space","trailing space "\r\n,plain,tab\tinside\r\n',
    );
    expect((await readBack(path)).rows).toEqual(rows);
  });

  it('neutralizes formula-looking strings but not numbers or plain numeric strings', async () => {
    const path = join(tempFolder(), 'formulas.csv');
    await writeTable({ path, format: 'csv', bom: false }, ['=Header', 'n', 's'], [
      ['=HYPERLINK("http://evil.example","click")', -5, '-5'],
      ['@SUM(A1)', 3.25, '+3.2'],
      ['+1 555 0100', null, '-2+3'],
      ['\t=1', 0, 'ok'],
    ]);
    expect(readFileSync(path, 'utf8')).toBe(
      `'=Header,n,s\r\n"'=HYPERLINK(""http://evil.example"",""click"")",-5,-5\r\n'@SUM(A1),3.25,+3.2\r\n'+1 555 0100,,'-2+3\r\n'\t=1,0,ok\r\n`,
    );
  });

  it('round-trips through openSheet: non-ASCII text, quotes, line breaks, numbers', async () => {
    const path = join(tempFolder(), 'round.csv');
    const headers = ['Name', 'Company', 'Note', 'Score'];
    const rows: (string | number | null)[][] = [
      ['Zoë Ångström', 'Société Générale', 'Emoji 👩🏽‍💻 and 漢字', 0.87],
      ['李雷', 'Яндекс', 'two\r\nlines, "quoted"', 12],
      ['Ann', null, '', -1.5],
    ];
    await writeTable({ path, format: 'csv' }, headers, slowly(rows));
    const back = await readBack(path);
    expect(back.headers).toEqual(headers);
    expect(back.rows).toEqual(rows.map((row) => row.map((cell) => (cell === null ? '' : String(cell)))));
  });

  it('writes lines longer than its buffer whole, and the lines around them in order', async () => {
    const path = join(tempFolder(), 'long.csv');
    // Over the writer's 256 KB chunk as UTF-8 (three bytes a character), between lines that fill chunks up.
    const long = 'Ü€'.repeat(150_000);
    const rows = Array.from({ length: 3000 }, (_, i) => [`row ${i}`, i === 1000 || i === 2999 ? long : `ä-${'x'.repeat(i % 300)}`]);
    expect(await writeTable({ path, format: 'csv', bom: false }, ['Row', 'Note'], rows)).toEqual({ rows: 3000 });
    const text = readFileSync(path, 'utf8');
    expect(text).toBe(`Row,Note\r\n${rows.map((row) => `${row.join(',')}\r\n`).join('')}`);
  });

  it('writes rows handed over a page at a time as it writes them one by one, to CSV and to XLSX', async () => {
    const dir = tempFolder();
    const rows = Array.from({ length: 2500 }, (_, i) => [`row ${i}`, i, i % 3 === 0 ? '=formula' : 'a,b', null]);
    async function* pages() {
      for (let at = 0; at < rows.length; at += 100) {
        await new Promise((resolve) => setImmediate(resolve));
        yield rows.slice(at, at + 100);
      }
    }
    for (const format of ['csv', 'xlsx'] as const) {
      const paged = join(dir, `paged.${format}`);
      const single = join(dir, `single.${format}`);
      expect(await writeTable({ path: paged, format }, ['a', 'b', 'c', 'd'], { pages: pages() })).toEqual({ rows: 2500 });
      await writeTable({ path: single, format }, ['a', 'b', 'c', 'd'], slowly(rows));
      const back = await readBack(paged);
      expect(back.rows).toEqual((await readBack(single)).rows);
      expect(back.rows).toHaveLength(2500);
      // A CSV guards a formula; an XLSX keeps it as text.
      expect(back.rows.slice(2498)).toEqual([['row 2498', '2498', 'a,b', ''], ['row 2499', '2499', format === 'csv' ? "'=formula" : '=formula', '']]);
    }
    expect(readFileSync(join(dir, 'paged.csv')).equals(readFileSync(join(dir, 'single.csv')))).toBe(true);
  });

  it('flushes a large file to the disk while it writes it, and says so when a flush fails', async () => {
    const dir = tempFolder();
    const path = join(dir, 'large.csv');
    // About 70 MB: over two of the writer's flushes begun as it goes (one every 32 MB).
    const rows = Array.from({ length: 35_000 }, (_, i) => [`row ${i}`, String.fromCharCode(97 + (i % 26)).repeat(2000)]);
    const probe = await open(join(dir, 'probe'), 'w');
    const handles = Object.getPrototypeOf(probe) as FileHandle;
    await probe.close();
    // The flushes on the way answer at once: the writer begins one at a time, and a real one of 32 MB on a busy machine
    // outlasted the next 32 MB written, so the count followed the disk's speed, not the writer. The last flush is real.
    const datasync = vi.spyOn(handles, 'datasync').mockResolvedValue(undefined);
    const sync = vi.spyOn(handles, 'sync');
    try {
      expect(await writeTable({ path, format: 'csv', bom: false }, ['Row', 'Note'], rows)).toEqual({ rows: 35_000 });
      expect(datasync.mock.calls.length).toBeGreaterThanOrEqual(2);
      // The whole file is flushed once more at its end, after the flushes begun on the way.
      expect(sync).toHaveBeenCalledTimes(1);
      expect(sync.mock.invocationCallOrder[0]).toBeGreaterThan(Math.max(...datasync.mock.invocationCallOrder));
      expect(readFileSync(path, 'utf8')).toBe(`Row,Note\r\n${rows.map((row) => `${row.join(',')}\r\n`).join('')}`);

      // A disk that fails a flush on the way (which cannot be made to happen here): the export fails and leaves the
      // file there as it was, whatever the flushes after it say.
      datasync.mockRejectedValueOnce(Object.assign(new Error('EIO: i/o error, fdatasync'), { code: 'EIO', syscall: 'fdatasync' }));
      const err = await writeTable({ path, format: 'csv', bom: false }, ['Row', 'Note'], rows).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ExportError);
      expect(err).toMatchObject({ code: 'write_failed' });
      expect(readdirSync(dir).sort()).toEqual(['large.csv', 'probe']);
      expect(readFileSync(path).length).toBe(Buffer.byteLength(`Row,Note\r\n${rows.map((row) => `${row.join(',')}\r\n`).join('')}`));
    } finally {
      datasync.mockRestore();
      sync.mockRestore();
    }
  });

  it('leaves no .part file after success and replaces an older file', async () => {
    const dir = tempFolder();
    const path = join(dir, 'out.csv');
    writeFileSync(path, 'old contents');
    await writeTable({ path, format: 'csv', bom: false }, ['a'], [['new']]);
    expect(readFileSync(path, 'utf8')).toBe('a\r\nnew\r\n');
    expect(readdirSync(dir)).toEqual(['out.csv']);
  });

  it('leaves neither a half file nor a .part when the rows fail part way, and keeps an older file intact', async () => {
    const dir = tempFolder();
    const path = join(dir, 'out.csv');
    writeFileSync(path, 'old contents');
    const rows = Array.from({ length: 50_000 }, (_, i) => [`row ${i}`, i]);
    await expect(writeTable({ path, format: 'csv' }, ['a', 'b'], failingAfter(rows, 40_000))).rejects.toThrow('the database went away');
    expect(readdirSync(dir)).toEqual(['out.csv']);
    expect(readFileSync(path, 'utf8')).toBe('old contents');
  });

  it('says why when the folder cannot be written', async () => {
    const path = join(tempFolder(), 'missing-folder', 'out.csv');
    const err = await writeTable({ path, format: 'csv' }, ['a'], [['1']]).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ExportError);
    expect(err).toMatchObject({ code: 'write_failed', message: "Couldn't save “out.csv”: its folder does not exist." });
  });

  it('writes 100,000 rows x 20 columns, every one of them', async () => {
    const path = join(tempFolder(), 'big.csv');
    const headers = Array.from({ length: 20 }, (_, i) => `Column ${i + 1}`);
    // Built beforehand so the figure is the writer's own: numbers, strings to quote, strings to neutralize.
    const rows = Array.from({ length: 100_000 }, (_, i) =>
      Array.from({ length: 20 }, (_, c) => (c % 5 === 0 ? i * c : c % 7 === 0 ? `=note ${i}` : `value ${i}-${c}, ok`)),
    );
    const started = performance.now();
    const result = await writeTable({ path, format: 'csv' }, headers, rows);
    const seconds = (performance.now() - started) / 1000;
    // Printed, not asserted: export speed is measured in `npm run bench`, where nothing else shares the cores.
    console.log(`CSV export: 100,000 rows x 20 columns in ${seconds.toFixed(2)} s (${(readFileSync(path).length / 1e6).toFixed(1)} MB)`);
    expect(result).toEqual({ rows: 100_000 });
    const lines = readFileSync(path, 'utf8').split('\r\n');
    expect(lines).toHaveLength(100_002);
    expect(lines[100_000]).toBe(rows[99_999]!.map((cell) => (typeof cell === 'string' && cell.includes(',') ? `"${cell}"` : typeof cell === 'string' && cell.startsWith('=') ? `'${cell}` : String(cell))).join(','));
  });
});

describe('writeTable targets', () => {
  it('says so when a folder already has the file name', async () => {
    const dir = tempFolder();
    const path = join(dir, 'taken.csv');
    mkdirSync(path);
    const err = await writeTable({ path, format: 'csv' }, ['a'], [['1']]).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'write_failed', message: "Couldn't save “taken.csv”: a folder has that name." });
    expect(readdirSync(dir)).toEqual(['taken.csv']);
  });

  it('refuses an unknown format', async () => {
    const path = join(tempFolder(), 'out.pdf');
    await expect(writeTable({ path, format: 'pdf' as 'csv' }, ['a'], [])).rejects.toMatchObject({ code: 'invalid_target' });
  });
});
