// No file, however hostile, takes unbounded memory or time: only regular files are opened, an xlsx part is inflated
// within its limits (refused while inflating, not after), and no cell reaches the XML parser much past 1 MiB.
// Memory is measured in a child process with a small heap: its peak resident memory against a fixed bound.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { listSheets, openSheet } from '../../../electron/engine/sheets';
import { InflateBudget, PartTooLarge } from '../../../electron/engine/sheets/inflate-limits';
import { ZipDirectory, streamPart } from '../../../electron/engine/sheets/zip-directory';
import { skipBecause } from '../../support/skips';
import { inflatingWorkbook, inflatingZip, SHARED_STRINGS_HEAD, WORKSHEET_HEAD, WORKSHEET_TAIL } from '../../support/inflating-zip';
import { allRows, sheetFile, tempFolder } from './sheet-files';

const MiB = 1024 * 1024;
/** Node, tsx and exceljs loaded take about 100 MB; a reader that held a 1 GiB cell or table would take ten times. */
const PEAK_RSS_BOUND = 400 * 1e6;
/** For the tests that build a file inflating to 1 GiB or read in a child process: slow on a busy machine, never hung. */
const HEAVY = { timeout: 240_000 };

const posixSkipped = skipBecause('the named pipe, socket and device tests', process.platform === 'win32' ? 'Windows has no named pipes, sockets or devices in its file system' : null);

async function refusal(promise: Promise<unknown>): Promise<{ code: string; message: string }> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e as { code: string; message: string },
  );
  expect(err, 'expected a refusal').not.toBeNull();
  return { code: err!.code, message: err!.message };
}

/** Reads `path` in a child process whose heap is capped, so a reader holding a huge string would die there. */
function readInChild(path: string): { outcome: { rows: number } | { code: string; message: string }; peakRssBytes: number } {
  const child = spawnSync(process.execPath, ['--max-old-space-size=128', '--import', 'tsx', join(import.meta.dirname, 'hostile-files.child.ts'), path], {
    encoding: 'utf8',
  });
  expect(child.status, child.stderr).toBe(0);
  return JSON.parse(child.stdout);
}

const HEADER_ROW = '<row r="1"><c r="A1" t="inlineStr"><is><t>Name</t></is></c><c r="B1" t="inlineStr"><is><t>Notes</t></is></c></row>';
const ANN_ROW = '<row r="2"><c r="A2" t="inlineStr"><is><t>Ann</t></is></c><c r="B2" t="inlineStr"><is><t>short</t></is></c></row>';

/** A text of `mib` MiB, written as a block repeated, so the file stays small however much it inflates to. */
const huge = (mib: number) => ({ block: 'x'.repeat(MiB), times: mib });

describe('only regular files are read', () => {
  it.skipIf(posixSkipped)('refuses a named pipe at once, without waiting for a program to write to it', async () => {
    const path = join(tempFolder(), 'people.csv');
    execFileSync('mkfifo', [path]);
    const expected = "Can't read “people.csv”: it is a named pipe, not a file. Matchdesk reads only files saved on disk: choose a CSV or Excel (.xlsx) file.";
    expect(await refusal(openSheet(path))).toEqual({ code: 'unreadable', message: expected });
    expect(await refusal(listSheets(path))).toEqual({ code: 'unreadable', message: expected });
  });

  it.skipIf(posixSkipped)('refuses a socket', async () => {
    const path = join(tempFolder(), 'people.csv');
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(path, resolve));
    try {
      expect(await refusal(openSheet(path))).toEqual({
        code: 'unreadable',
        message: "Can't read “people.csv”: it is a socket, not a file. Matchdesk reads only files saved on disk: choose a CSV or Excel (.xlsx) file.",
      });
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it.skipIf(posixSkipped || !existsSync('/dev/zero'))('calls /dev/zero a device, not an empty file', async () => {
    expect(await refusal(openSheet('/dev/zero'))).toEqual({
      code: 'unreadable',
      message: "Can't read “zero”: it is a device, not a file. Matchdesk reads only files saved on disk: choose a CSV or Excel (.xlsx) file.",
    });
  });
});

describe('an xlsx cell over 1 MiB is named, and never read much past the limit', () => {
  it('a 1 GiB inline string: its row (header = row 1) and column, in bounded memory', HEAVY, () => {
    const path = sheetFile('inline.xlsx', inflatingWorkbook({
      head: `${WORKSHEET_HEAD}${HEADER_ROW}${ANN_ROW}<row r="3"><c r="A3" t="inlineStr"><is><t>Bo</t></is></c><c r="B3" t="inlineStr"><is><t>`,
      ...huge(1024),
      tail: `</t></is></c></row>${WORKSHEET_TAIL}`,
    }));
    const { outcome, peakRssBytes } = readInChild(path);
    expect(outcome).toEqual({
      code: 'cell_too_large',
      message: 'The cell in row 3, column B (“Notes”) of the sheet “People” in “inline.xlsx” is over 1 MiB; cells may hold at most 1 MiB. Shorten it and try again.',
    });
    expect(peakRssBytes).toBeLessThan(PEAK_RSS_BOUND);
  });

  it('a 1 GiB shared string: the cell that uses it, in bounded memory', HEAVY, () => {
    const path = sheetFile('shared.xlsx', inflatingWorkbook(
      {
        head:
          `${WORKSHEET_HEAD}<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c></row>` +
          `<row r="2"><c r="A2" t="s"><v>2</v></c><c r="B2" t="s"><v>2</v></c></row>` +
          `<row r="3"><c r="A3" t="s"><v>2</v></c></row><row r="4"><c r="A4" t="s"><v>2</v></c><c r="B4" t="s"><v>3</v></c></row>${WORKSHEET_TAIL}`,
      },
      { head: `${SHARED_STRINGS_HEAD}<si><t>Name</t></si><si><t>Notes</t></si><si><t>Ann</t></si><si><t>`, ...huge(1024), tail: '</t></si><si><t>after</t></si></sst>' },
    ));
    const { outcome, peakRssBytes } = readInChild(path);
    expect(outcome).toEqual({
      code: 'cell_too_large',
      message: 'The cell in row 4, column B (“Notes”) of the sheet “People” in “shared.xlsx” is over 1 MiB; cells may hold at most 1 MiB. Shorten it and try again.',
    });
    expect(peakRssBytes).toBeLessThan(PEAK_RSS_BOUND);
  });

  it("a 1 GiB formula result (the value Excel cached): the formula's cell", HEAVY, async () => {
    const path = sheetFile('formula.xlsx', inflatingWorkbook({
      head: `${WORKSHEET_HEAD}${HEADER_ROW}${ANN_ROW}<row r="3"><c r="A3" t="inlineStr"><is><t>Bo</t></is></c><c r="B3" t="str"><f>REPT("x",1073741824)</f><v>`,
      ...huge(1024),
      tail: `</v></c></row>${WORKSHEET_TAIL}`,
    }));
    expect(await refusal(openSheet(path).then(allRows))).toEqual({
      code: 'cell_too_large',
      message: 'The cell in row 3, column B (“Notes”) of the sheet “People” in “formula.xlsx” is over 1 MiB; cells may hold at most 1 MiB. Shorten it and try again.',
    });
  });

  it('a cell whose shared string comes after one over the limit says why it cannot be read', async () => {
    // Excel writes shared strings in the order the cells first use them; a writer that does not can put a long one first.
    const path = sheetFile('order.xlsx', inflatingWorkbook(
      { head: `${WORKSHEET_HEAD}<row r="1"><c r="A1" t="s"><v>1</v></c></row><row r="2"><c r="A2" t="s"><v>2</v></c></row>${WORKSHEET_TAIL}` },
      { head: `${SHARED_STRINGS_HEAD}<si><t>`, ...huge(2), tail: '</t></si><si><t>Name</t></si><si><t>Ann</t></si></sst>' },
    ));
    expect(await refusal(openSheet(path))).toEqual({
      code: 'cell_too_large',
      message:
        "The cell in row 1, column A of the sheet “People” in “order.xlsx” can't be read: a text stored before its own in the workbook is over 1 MiB, " +
        'and cells may hold at most 1 MiB. Find and shorten the long cell, then try again.',
    });
  });

  it('counts a cell as its text, entities decoded: exactly the limit is read, a byte more is refused', async () => {
    // 1,000 bytes as a cell holds them: `&amp;` is one byte, `&#233;` (é) two, `&#x1F600;` four, and Excel's
    // `_x000D_` (a carriage return) one.
    const text = `${'a&amp;'.repeat(100)}${'&#233;'.repeat(100)}${'&#x1F600;'.repeat(100)}${'_x000D_b'.repeat(100)}`;
    const decoded = `${'a&'.repeat(100)}${'é'.repeat(100)}${'😀'.repeat(100)}${'\rb'.repeat(100)}`;
    expect(Buffer.byteLength(decoded)).toBe(1000);
    const sheet = (cell: string) =>
      inflatingWorkbook({ head: `${WORKSHEET_HEAD}${HEADER_ROW}<row r="2"><c r="A2" t="inlineStr"><is><t>Ann</t></is></c><c r="B2" t="inlineStr"><is><t>${cell}</t></is></c></row>${WORKSHEET_TAIL}` });
    const fits = await openSheet(sheetFile('fits.xlsx', sheet(text)), { maxCellBytes: 1000 });
    expect(await allRows(fits)).toEqual([['Ann', decoded]]);
    expect(await refusal(openSheet(sheetFile('over.xlsx', sheet(`${text}c`)), { maxCellBytes: 1000 }))).toEqual({
      code: 'cell_too_large',
      message: 'The cell in row 2, column B (“Notes”) of the sheet “People” in “over.xlsx” is over 1000 bytes; cells may hold at most 1000 bytes. Shorten it and try again.',
    });
  });

  it('keeps a character cut by the end of a chunk whole, and multi-byte text intact', async () => {
    // 3-byte characters in a cell longer than one inflated chunk: some must straddle two chunks.
    const long = '日本語'.repeat(20_000);
    const path = sheetFile('cjk.xlsx', inflatingWorkbook({
      head: `${WORKSHEET_HEAD}${HEADER_ROW}<row r="2"><c r="A2" t="inlineStr"><is><t>Ann</t></is></c><c r="B2" t="inlineStr"><is><t>${long}</t></is></c></row>${WORKSHEET_TAIL}`,
    }));
    expect(await allRows(await openSheet(path))).toEqual([['Ann', long]]);
  });
});

describe('an xlsx part is inflated within its limits, refused while inflating', () => {
  const bombStrings = (statedSize?: number) => {
    const entry = '<si><t>Ann Lee</t></si>';
    return {
      head: SHARED_STRINGS_HEAD,
      block: entry.repeat(Math.floor(MiB / entry.length)),
      // 1 GiB of shared strings from a file of about 1 MB.
      times: 1024,
      tail: '</sst>',
      ...(statedSize === undefined ? {} : { statedSize }),
    };
  };
  const smallSheet = { head: `${WORKSHEET_HEAD}<row r="1"><c r="A1" t="s"><v>0</v></c></row><row r="2"><c r="A2" t="s"><v>0</v></c></row>${WORKSHEET_TAIL}` };

  it('a ZIP bomb is refused by how far it inflates, within its first megabytes and in bounded memory', HEAVY, () => {
    const { outcome, peakRssBytes } = readInChild(sheetFile('bomb.xlsx', inflatingWorkbook(smallSheet, bombStrings())));
    expect(outcome).toEqual({
      code: 'too_large',
      message:
        "“bomb.xlsx” can't be imported: its shared strings inflate to more than 200 times their stored size, which no real workbook does: " +
        'it looks made to exhaust memory (a “ZIP bomb”). If it came from a program you trust, open it in Excel, save it again, and retry. Nothing was imported.',
    });
    expect(peakRssBytes).toBeLessThan(PEAK_RSS_BOUND);
  });

  it('the same when its ZIP directory states a small size', HEAVY, () => {
    const { outcome, peakRssBytes } = readInChild(sheetFile('liar.xlsx', inflatingWorkbook(smallSheet, bombStrings(5000))));
    expect(outcome).toEqual({
      code: 'too_large',
      message:
        "“liar.xlsx” can't be imported: its shared strings inflate to more than 200 times their stored size, which no real workbook does: " +
        'it looks made to exhaust memory (a “ZIP bomb”). If it came from a program you trust, open it in Excel, save it again, and retry. Nothing was imported.',
    });
    expect(peakRssBytes).toBeLessThan(PEAK_RSS_BOUND);
  });

  it('a worksheet bomb is refused by the same ratio', HEAVY, async () => {
    // XML comments: the parser passes over them quickly, so the test spends its time on the inflating.
    const comment = `<!--${'x'.repeat(60_000)}-->`;
    const path = sheetFile('rows.xlsx', inflatingWorkbook({ head: `${WORKSHEET_HEAD}${HEADER_ROW}${ANN_ROW}`, block: comment.repeat(17), times: 1024, tail: WORKSHEET_TAIL, statedSize: 5000 }));
    expect(await refusal(openSheet(path).then(allRows))).toMatchObject({
      code: 'too_large',
      message: expect.stringContaining('“rows.xlsx” can\'t be imported: the sheet “People” inflates to more than 200 times its stored size'),
    });
  });

  it('stops inflating a part as soon as it passes its cap, and counts the parts of one read together', async () => {
    const path = sheetFile('parts.zip', inflatingZip([
      { name: 'a.xml', head: '<a>', block: 'abcdefgh'.repeat(MiB / 8), times: 16, tail: '</a>', statedSize: 10 },
      { name: 'b.xml', head: '<b>', block: 'abcdefgh'.repeat(MiB / 8), times: 3, tail: '</b>' },
    ]));
    const zip = await ZipDirectory.open(path);
    const [a, b] = [await zip.locate('a.xml'), await zip.locate('b.xml')];
    await zip.close();
    const drain = async (stream: NodeJS.ReadableStream) => {
      let bytes = 0;
      try {
        for await (const chunk of stream) bytes += (chunk as Buffer).length;
        return { bytes, error: null };
      } catch (err) {
        return { bytes, error: err as PartTooLarge };
      }
    };

    const capped = await drain(streamPart(path, a, undefined, { cap: 2 * MiB }));
    expect(capped.error).toBeInstanceOf(PartTooLarge);
    expect(capped.error).toMatchObject({ part: 'a.xml', reason: 'cap', cap: 2 * MiB });
    // Refused at the cap, not after inflating the 16 MiB.
    expect(capped.bytes).toBeLessThanOrEqual(2 * MiB);

    const budget = new InflateBudget(4 * MiB);
    expect((await drain(streamPart(path, b, undefined, { cap: 64 * MiB, budget }))).error).toBeNull();
    const second = await drain(streamPart(path, b, undefined, { cap: 64 * MiB, budget }));
    expect(second.error).toMatchObject({ part: 'b.xml', reason: 'total', cap: 4 * MiB });
    expect(second.bytes).toBeLessThanOrEqual(MiB);

  });

  it('reads a legitimate workbook whose parts are well under every limit', async () => {
    const rows = Array.from({ length: 2000 }, (_, i) => `<row r="${i + 2}"><c r="A${i + 2}" t="inlineStr"><is><t>Person ${i}</t></is></c><c r="B${i + 2}" t="inlineStr"><is><t>note ${i}</t></is></c></row>`).join('');
    const path = sheetFile('fine.xlsx', inflatingWorkbook({ head: `${WORKSHEET_HEAD}${HEADER_ROW}${rows}${WORKSHEET_TAIL}` }));
    const read = await allRows(await openSheet(path));
    expect(read).toHaveLength(2000);
    expect(read[1999]).toEqual(['Person 1999', 'note 1999']);
  });
});

// The CSV reader was bounded already; this holds it to the same 1 GiB case.
describe('a CSV cell over 1 MiB', () => {
  it('a 256 MiB cell, more than the heap the child has: its row and column, in bounded memory', HEAVY, () => {
    const path = join(tempFolder(), 'notes.csv');
    const block = 'y'.repeat(MiB);
    writeFileSync(path, `Name,Notes\nAnn,short\nBo,"${block.repeat(64)}`);
    for (let i = 0; i < 3; i++) writeFileSync(path, block.repeat(64), { flag: 'a' });
    writeFileSync(path, '"\nCy,end\n', { flag: 'a' });
    const { outcome, peakRssBytes } = readInChild(path);
    expect(outcome).toMatchObject({ code: 'cell_too_large', message: expect.stringMatching(/^The cell in row 3, column B \(“Notes”\) of “notes\.csv” is over \d/) });
    expect(peakRssBytes).toBeLessThan(PEAK_RSS_BOUND);
  });
});
