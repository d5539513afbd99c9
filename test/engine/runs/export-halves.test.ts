// A large export's matches made on two threads (runs/export-halves.ts): the engine's thread writes the rows up to the
// middle, a worker of the export's own the rest into a file of their own, whose bytes then follow. A CSV file must be
// the one thread's, byte for byte, of one moment; an Excel file must hold the one thread's sheet, byte for byte.
import { mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ExportChoice, ExportProgress } from '../../../shared/contract';
import type { Engine } from '../../../electron/engine/engine';
import { UnfinishedExports } from '../../../electron/engine/export';
import { readProject } from '../../../electron/engine/rows/project-record';
import { FIRST_SHARE, HALF_CACHE_MB, exportHalves } from '../../../electron/engine/runs/export-halves';
import { originalWidth } from '../../../electron/engine/runs/export-rows';
import { exportProject, type ExportRequest } from '../../../electron/engine/runs/export-project';
import { ExportHalfThread } from '../../../electron/engine/runs/export-half-thread';
import { ZipDirectory } from '../../../electron/engine/sheets/zip-directory';
import type { Simulator } from '../../../electron/simulator';
import { connect, currentCompany, findablePeople, ok, openEngine, runToEnd, startSim, tempDir, writeCsv } from '../core/helpers';

const ROWS = 1_200;
/** The first row of the worker's half: the halves split the sheet's rows (blank ones too) in two. */
const SEAM = Math.ceil(ROWS * FIRST_SHARE.csv);
const MATCHED = 30;
/** Matched rows at the sheet's end too, in the worker's half: a scope's rows on both sides of the seam. */
const MATCHED_LAST = 12;

let tmp: ReturnType<typeof tempDir>;
let sim: Simulator;
let engine: Engine;
let db: Database.Database;
let projectId: number;

beforeAll(async () => {
  tmp = tempDir('matchdesk-halves-');
  sim = await startSim();
  engine = await openEngine(join(tmp.dir, 'data'));
  await connect(engine, sim);
  const people = findablePeople(sim);
  // Matched rows at the start and at the end; blank rows on both sides of the seam; a cell needing quotes and a formula.
  const sheet = Array.from({ length: ROWS }, (_, i): string[] => {
    if (i === SEAM - 1 || i === SEAM) return ['', '', ''];
    const p = i < MATCHED ? people[i]! : i >= ROWS - MATCHED_LAST ? people[MATCHED + i - (ROWS - MATCHED_LAST)]! : null;
    if (p) return [p.name, p.email_address ?? '', currentCompany(p)];
    return [`Nobody ${i}`, `nobody${i}@nowhere.example`, i % 7 === 0 ? '=SUM(A1)' : `Firm, "${i % 13}"`];
  });
  projectId = (await ok(engine, 'projects.import', { file: writeCsv(join(tmp.dir, 'leads.csv'), ['Name', 'Email', 'Company'], sheet) })).summary.id;
  await runToEnd(engine, projectId);
  db = new Database(engine.dbPath);
}, 60_000);
afterAll(async () => {
  db?.close();
  await engine.close();
  await sim.close();
  tmp.remove();
});

/** A folder of its own for one export's file, inside the suite's, which goes at its end. */
const outDir = () => mkdtempSync(join(tmp.dir, 'out-'));

const ALL: ExportRequest = { format: 'csv', scope: 'all', candidates: false, bom: true, delimiter: ',', destination: null, candidatesDestination: null };

interface Exported {
  path: string;
  bytes: Buffer;
  /** What the worker's half came to; undefined when the export went on one thread. */
  second: Promise<unknown> | undefined;
  progress: ExportProgress[];
}

/** A worker started and ready to read. */
async function readyWorker(): Promise<ExportHalfThread> {
  const worker = ExportHalfThread.start(engine.dbPath, HALF_CACHE_MB)!;
  await worker.connection();
  return worker;
}

/**
 * The matches of `choice` exported to a file of their own, on two threads when `onTwo` (with a worker ready, unless
 * `cold`), the worker spied on.
 */
async function exported(choice: Partial<ExportChoice>, onTwo: boolean | 'cold', during?: (progress: ExportProgress, worker: ExportHalfThread | null) => void): Promise<Exported> {
  const dir = outDir();
  const name = `matches.${choice.format ?? 'csv'}`;
  const path = join(dir, name);
  const progress: ExportProgress[] = [];
  let worker: ExportHalfThread | null = onTwo === true ? await readyWorker() : null;
  let second: Promise<unknown> | undefined;
  const start = () => {
    worker ??= ExportHalfThread.start(engine.dbPath, HALF_CACHE_MB);
    const ask = worker!.secondHalf.bind(worker);
    vi.spyOn(worker!, 'secondHalf').mockImplementation((request) => (second = ask(request)));
    return worker;
  };
  const request: ExportRequest = { format: 'csv', scope: 'all', candidates: false, bom: true, delimiter: ',', ...choice, destination: path, candidatesDestination: null };
  await exportProject(
    db,
    readProject(db, projectId)!,
    request,
    dir,
    (p) => {
      progress.push(p);
      during?.(p, worker);
    },
    undefined,
    new UnfinishedExports(join(tmp.dir, 'data')),
    onTwo ? { worker: start, fromRows: 0 } : undefined,
  );
  // Nothing but the file: neither half's part file is left.
  expect(readdirSync(dir)).toEqual([name]);
  return { path, bytes: readFileSync(path), second, progress };
}

describe('a CSV export on two threads', () => {
  it("writes one thread's bytes: the seam's blank rows at their place, any scope, BOM and delimiter", async () => {
    for (const choice of [{}, { bom: false, delimiter: ';' }, { scope: 'matched' }, { scope: 'changed' }] satisfies Partial<ExportChoice>[]) {
      const one = await exported(choice, false);
      const two = await exported(choice, true);
      expect(two.bytes.equals(one.bytes), JSON.stringify(choice)).toBe(true);
      // The worker wrote the second half: every row from the seam on, of them the matched ones at the end.
      const lines = choice.scope === undefined ? ROWS - SEAM : choice.scope === 'matched' ? MATCHED_LAST : 0;
      expect(await two.second, JSON.stringify(choice)).toMatchObject({ lines: { rows: lines } });
      const last = two.progress.filter((p) => p.part === 'matches').map((p) => p.rowsDone);
      expect(last.at(-1)).toBe(ROWS);
      expect(last).toEqual([...last].sort((a, b) => a - b));
    }
    const text = (await exported({}, true)).bytes.toString('utf8').split('\r\n');
    // The header, then the rows: the last row of the first half and the first of the second are the blank ones.
    expect(text[SEAM]).toMatch(/^,,,blank,/);
    expect(text[SEAM + 1]).toMatch(/^,,,blank,/);
    expect(text[SEAM + 2]).toMatch(new RegExp(`^Nobody ${SEAM + 1},`));
  });

  // A row of the worker's half changed by a commit: before the worker begins (the engine's thread then writes that half
  // itself, on its snapshot), or once it has begun (its snapshot does not see it).
  it.each([
    ['before the worker begins', 'before'],
    ['while the worker writes its half', 'after'],
  ] as const)('writes the rows as they were when it began, with a commit %s', async (_, when) => {
    const before = await exported({}, false);
    const cells = db.prepare('SELECT cells FROM rows WHERE project_id = ? AND row_index = ?').pluck();
    const kept = cells.get(projectId, ROWS - 2) as string;
    const change = db.prepare('UPDATE rows SET cells = ? WHERE project_id = ? AND row_index = ?');
    const worker = await readyWorker();
    const ask = worker.secondHalf.bind(worker);
    let second: Promise<unknown> | undefined;
    vi.spyOn(worker, 'secondHalf').mockImplementation((request) => {
      const commit = () => change.run(JSON.stringify(['Changed meanwhile', '', '']), projectId, ROWS - 2);
      if (when === 'before') commit();
      second = ask(request);
      if (when === 'after') setImmediate(commit);
      return second as ReturnType<typeof ask>;
    });
    try {
      const dir = outDir();
      const path = join(dir, 'matches.csv');
      await exportProject(db, readProject(db, projectId)!, { ...ALL, destination: path }, dir, undefined, undefined, undefined, { worker: () => worker, fromRows: 0 });
      expect(readFileSync(path).equals(before.bytes)).toBe(true);
      // Joined, the worker wrote its half; else it was told to stop before its first page.
      if (when === 'after') await expect(second).resolves.toMatchObject({ lines: { rows: ROWS - SEAM } });
      else await expect(second).rejects.toThrow();
      // The change is there for the next export.
      expect((await exported({}, true)).bytes.toString('utf8')).toContain('Changed meanwhile');
    } finally {
      change.run(kept, projectId, ROWS - 2);
    }
  });

  it('lets a worker starting up join whatever the engine commits meanwhile', async () => {
    const one = await exported({}, false);
    const worker = ExportHalfThread.start(engine.dbPath, HALF_CACHE_MB)!;
    const ask = worker.secondHalf.bind(worker);
    let second: Promise<unknown> | undefined;
    vi.spyOn(worker, 'secondHalf').mockImplementation((request) => (second = ask(request)) as ReturnType<typeof ask>);
    // Commits on the engine's thread while the worker starts, as a job's record or a background slice are.
    const touch = db.prepare('UPDATE projects SET name = name WHERE id = ?');
    const commits = setInterval(() => touch.run(projectId), 5);
    try {
      const dir = outDir();
      const path = join(dir, 'matches.csv');
      await exportProject(db, readProject(db, projectId)!, { ...ALL, destination: path }, dir, undefined, undefined, undefined, { worker: () => worker, fromRows: 0 });
      expect(readFileSync(path).equals(one.bytes)).toBe(true);
    } finally {
      clearInterval(commits);
    }
    expect(second, 'the worker was asked for its half').toBeDefined();
    await expect(second).resolves.toMatchObject({ lines: { rows: ROWS - SEAM } });
  });

  it("writes the worker's half itself when the worker is gone part-way", async () => {
    const one = await exported({}, false);
    const worker = await readyWorker();
    const ask = worker.secondHalf.bind(worker);
    let second: Promise<unknown> | undefined;
    // The worker ends once it has begun its half, before its first page is written.
    vi.spyOn(worker, 'secondHalf').mockImplementation((request) => {
      second = ask(request);
      Atomics.wait(new Int32Array(request.state), 0, 0, 5_000);
      void worker.close();
      return second as ReturnType<typeof ask>;
    });
    const dir = outDir();
    const path = join(dir, 'matches.csv');
    await exportProject(db, readProject(db, projectId)!, { ...ALL, destination: path }, dir, undefined, undefined, undefined, { worker: () => worker, fromRows: 0 });
    await expect(second).rejects.toThrow();
    expect(readFileSync(path).equals(one.bytes)).toBe(true);
    expect(readdirSync(dir)).toEqual(['matches.csv']);
  });

  it("does not ask or wait for a worker gone since its connection opened: the engine's thread writes every row", async () => {
    const one = await exported({}, false);
    const worker = await readyWorker();
    await worker.close();
    expect(worker.alive).toBe(false);
    const second = vi.spyOn(worker, 'secondHalf');
    // The wait for the worker to begin its transaction would block the engine's thread for its whole bound.
    const blocked = vi.spyOn(Atomics, 'wait');
    try {
      const dir = outDir();
      const path = join(dir, 'matches.csv');
      await exportProject(db, readProject(db, projectId)!, { ...ALL, destination: path }, dir, undefined, undefined, undefined, { worker: () => worker, fromRows: 0 });
      expect(second).not.toHaveBeenCalled();
      expect(blocked).not.toHaveBeenCalled();
      expect(readFileSync(path).equals(one.bytes)).toBe(true);
      expect(readdirSync(dir)).toEqual(['matches.csv']);
    } finally {
      blocked.mockRestore();
    }
  });

  it("waits for a worker starting up, and writes every row on the engine's thread when its connection is not open in time", async () => {
    const one = await exported({}, false);
    // Started as the export begins, the worker is waited for.
    const cold = await exported({}, 'cold');
    await expect(cold.second).resolves.toMatchObject({ lines: { rows: ROWS - SEAM } });
    expect(cold.bytes.equals(one.bytes)).toBe(true);
    // One whose connection is still not open two seconds on (a machine too busy to start a thread) is not.
    const worker = ExportHalfThread.start(engine.dbPath, HALF_CACHE_MB)!;
    vi.spyOn(worker, 'connection').mockReturnValue(new Promise(() => undefined));
    const second = vi.spyOn(worker, 'secondHalf');
    const dir = outDir();
    const path = join(dir, 'matches.csv');
    await exportProject(db, readProject(db, projectId)!, { ...ALL, destination: path }, dir, undefined, undefined, undefined, { worker: () => worker, fromRows: 0 });
    expect(second).not.toHaveBeenCalled();
    expect(readFileSync(path).equals(one.bytes)).toBe(true);
    await worker.close();
  });

  it('cancelled between pages, leaves neither half behind', async () => {
    const controller = new AbortController();
    const dir = outDir();
    const path = join(dir, 'matches.csv');
    const worker = await readyWorker();
    const second = vi.spyOn(worker, 'secondHalf');
    const exporting = exportProject(
      db,
      readProject(db, projectId)!,
      { format: 'csv', scope: 'all', candidates: false, bom: true, delimiter: ',', destination: path, candidatesDestination: null },
      dir,
      (progress) => progress.rowsDone > 0 && controller.abort(),
      controller.signal,
      new UnfinishedExports(join(tmp.dir, 'data')),
      { worker: () => worker, fromRows: 0 },
    );
    await expect(exporting).rejects.toMatchObject({ kind: 'cancelled' });
    expect(second).toHaveBeenCalledOnce();
    expect(readdirSync(dir)).toEqual([]);
    expect(readdirSync(join(tmp.dir, 'data', 'unfinished-exports'))).toEqual([]);
  });
});

/** Each entry of a zip file, read whole, after checking it against the CRC-32 and size its central directory lists. */
async function zipEntries(path: string): Promise<Map<string, string>> {
  const zip = readFileSync(path);
  const end = zip.length - 22;
  expect(zip.readUInt32LE(end)).toBe(0x06054b50);
  const listed = new Map<string, { crc: number; size: number }>();
  for (let at = zip.readUInt32LE(end + 16), n = zip.readUInt16LE(end + 10); n > 0; n--) {
    const nameLength = zip.readUInt16LE(at + 28);
    listed.set(zip.toString('utf8', at + 46, at + 46 + nameLength), { crc: zip.readUInt32LE(at + 16), size: zip.readUInt32LE(at + 24) });
    at += 46 + nameLength + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
  }
  const read = await ZipDirectory.open(path);
  const entries = new Map<string, string>();
  try {
    for (const [name, { crc, size }] of listed) {
      const bytes = await read.read(name);
      expect({ name, crc: crc32(bytes), size: bytes.length }).toEqual({ name, crc, size });
      entries.set(name, bytes.toString('utf8'));
    }
  } finally {
    await read.close();
  }
  return entries;
}

describe('an Excel export on two threads', () => {
  const SHEET = 'xl/worksheets/sheet1.xml';

  it("holds one thread's sheet: rows numbered on across the seam, its blank rows at their place", async () => {
    const one = await exported({ format: 'xlsx' }, false);
    const two = await exported({ format: 'xlsx' }, true);
    // The worker wrote and compressed the second half.
    expect(await two.second).toMatchObject({ kind: 'xlsx' });
    const [a, b] = [await zipEntries(one.path), await zipEntries(two.path)];
    expect([...b.keys()]).toEqual([...a.keys()]);
    for (const [name, xml] of a) expect(b.get(name) === xml, name).toBe(true);
    const sheet = b.get(SHEET)!;
    // The header is row 1, row index i row i + 2: the worker's first row, numbered on from the engine's thread's last.
    const seam = Math.ceil(ROWS * FIRST_SHARE.xlsx);
    expect(await two.second).toMatchObject({ rows: { rows: ROWS - seam } });
    expect(sheet).toContain(`<row r="${seam + 1}"><c r="A${seam + 1}" t="inlineStr"><is><t>Nobody ${seam - 1}</t>`);
    expect(sheet).toContain(`<row r="${seam + 2}"><c r="A${seam + 2}" t="inlineStr"><is><t>Nobody ${seam}</t>`);
    // The CSV's seam, where two blank rows are, lies in the engine's thread's half here.
    expect(sheet).toContain(`<row r="${SEAM + 2}"><c r="D${SEAM + 2}" t="inlineStr"><is><t>blank</t></is></c>`);
    expect(sheet).toMatch(new RegExp(`<autoFilter ref="A1:[A-Z]+${ROWS + 1}"/>`));
    const last = two.progress.filter((p) => p.part === 'matches').map((p) => p.rowsDone);
    expect(last.at(-1)).toBe(ROWS);
  });

  it("holds one thread's sheet for a scope's rows too: the worker's numbered on from the first half's count", async () => {
    for (const scope of ['matched', 'changed'] as const) {
      const one = await exported({ format: 'xlsx', scope }, false);
      const two = await exported({ format: 'xlsx', scope }, true);
      const [a, b] = [await zipEntries(one.path), await zipEntries(two.path)];
      expect([...b.keys()], scope).toEqual([...a.keys()]);
      for (const [name, xml] of a) expect(b.get(name) === xml, `${scope}: ${name}`).toBe(true);
      // The worker was asked, and its rows used: the matched ones at the sheet's end (no refresh changed any row).
      expect(await two.second, scope).toMatchObject({ kind: 'xlsx', rows: { rows: scope === 'matched' ? MATCHED_LAST : 0 } });
    }
    // The matched rows are numbered one after another: the worker's first is the row after the engine's thread's last.
    const sheet = (await zipEntries((await exported({ format: 'xlsx', scope: 'matched' }, true)).path)).get(SHEET)!;
    const numbers = [...sheet.matchAll(/<row r="(\d+)"/g)].map((m) => Number(m[1]));
    expect(numbers).toEqual(Array.from({ length: 1 + MATCHED + MATCHED_LAST }, (_, i) => i + 1));
    expect(sheet).toContain(`<row r="${MATCHED + 2}"><c r="A${MATCHED + 2}" t="inlineStr"><is><t>`);
  });

  it("uses the worker's rows of a scope: the engine's thread writes its half's only, numbered as counted", async () => {
    const worker = await readyWorker();
    const lastRow = db.prepare('SELECT max(row_index) FROM rows WHERE project_id = ?').pluck().get(projectId) as number;
    const halves = exportHalves({
      db,
      projectId,
      scope: 'matched',
      width: originalWidth(db, readProject(db, projectId)!),
      format: { kind: 'xlsx' },
      lastRow,
      worker,
      ready: worker.connection(),
      secondPath: join(outDir(), 'second.part'),
    });
    try {
      let here = 0;
      for await (const page of halves.rows.pages) here += page.length;
      // The engine's thread wrote the matched rows before the seam; the worker's (the sheet's last), numbered on from them.
      expect(here).toBe(MATCHED);
      expect(await halves.rows.sheetAfter!()).toMatchObject({ rows: MATCHED_LAST });
    } finally {
      await halves.close();
      await worker.close();
    }
  });

  it("writes the worker's rows itself when the first half wrote another number of rows than its share", async () => {
    // A row of the first half gone from the table (as no import leaves it): the worker's rows, numbered from the row
    // after the seam's, would be one out.
    const cells = db.prepare('SELECT cells FROM rows WHERE project_id = ? AND row_index = 100').pluck().get(projectId) as string;
    db.prepare('DELETE FROM rows WHERE project_id = ? AND row_index = 100').run(projectId);
    try {
      const one = await exported({ format: 'xlsx' }, false);
      const two = await exported({ format: 'xlsx' }, true);
      // Asked, then told to stop: its half, if written, is not used.
      expect(two.second).toBeDefined();
      await two.second!.catch(() => undefined);
      const sheet = (await zipEntries(two.path)).get(SHEET)!;
      expect(sheet).toBe((await zipEntries(one.path)).get(SHEET));
      const numbers = [...sheet.matchAll(/<row r="(\d+)"/g)].map((m) => Number(m[1]));
      expect(numbers).toEqual(Array.from({ length: ROWS }, (_, i) => i + 1));
    } finally {
      db.prepare('INSERT INTO rows (project_id, row_index, cells) VALUES (?, 100, ?)').run(projectId, cells);
    }
  });
});
