// A large CSV export's matches made on two threads (runs/csv-halves.ts): the engine's thread writes the rows up to the
// middle, a worker of the export's own the rest into a file of their own, whose bytes then follow. The file must be the
// one thread's, byte for byte, of one moment.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ExportChoice, ExportProgress } from '../../../shared/contract';
import type { Engine } from '../../../electron/engine/engine';
import { UnfinishedExports } from '../../../electron/engine/export';
import { readProject } from '../../../electron/engine/rows/project-record';
import { exportProject, type ExportRequest } from '../../../electron/engine/runs/export-project';
import { VerdictThread } from '../../../electron/engine/runs/verdict-thread';
import type { Simulator } from '../../../electron/simulator';
import { connect, currentCompany, findablePeople, ok, openEngine, runToEnd, startSim, tempDir, writeCsv } from '../core/helpers';

const ROWS = 1_200;
/** The first row of the worker's half: the halves split the sheet's rows (blank ones too) in two. */
const SEAM = ROWS / 2;
const MATCHED = 30;

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
  // The matched rows all in the first half; blank rows on both sides of the seam; a cell needing quotes and a formula.
  const sheet = Array.from({ length: ROWS }, (_, i): string[] => {
    if (i === SEAM - 1 || i === SEAM) return ['', '', ''];
    if (i < MATCHED) return [people[i]!.name, people[i]!.email_address ?? '', currentCompany(people[i]!)];
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

interface Exported {
  bytes: Buffer;
  /** What the worker's half came to; undefined when the export went on one thread. */
  second: Promise<unknown> | undefined;
  progress: ExportProgress[];
}

/** The matches of `choice` exported to a file of their own, on two threads when `onTwo`, with the worker spied on. */
async function exported(choice: Partial<ExportChoice>, onTwo: boolean, during?: (progress: ExportProgress, worker: VerdictThread | null) => void, signal?: AbortSignal): Promise<Exported> {
  const dir = tempDir('matchdesk-halves-out-').dir;
  const path = join(dir, 'matches.csv');
  const progress: ExportProgress[] = [];
  let worker: VerdictThread | null = null;
  let second: Promise<unknown> | undefined;
  const start = () => {
    worker = VerdictThread.start(engine.dbPath);
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
    signal,
    new UnfinishedExports(join(tmp.dir, 'data')),
    onTwo ? { worker: start, fromRows: 0 } : undefined,
  );
  // Nothing but the file: neither half's part file is left.
  expect(readdirSync(dir)).toEqual(['matches.csv']);
  return { bytes: readFileSync(path), second, progress };
}

describe('a CSV export on two threads', () => {
  it("writes one thread's bytes: the seam's blank rows at their place, any scope, BOM and delimiter", async () => {
    for (const choice of [{}, { bom: false, delimiter: ';' }, { scope: 'matched' }, { scope: 'changed' }] satisfies Partial<ExportChoice>[]) {
      const one = await exported(choice, false);
      const two = await exported(choice, true);
      expect(two.bytes.equals(one.bytes), JSON.stringify(choice)).toBe(true);
      // The worker wrote the second half: every row from the seam on, none of them matched.
      const lines = choice.scope === undefined ? ROWS - SEAM : 0;
      expect(await two.second, JSON.stringify(choice)).toMatchObject({ rows: lines });
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

  it('writes the rows as they were when it began, whatever is committed meanwhile', async () => {
    const before = await exported({}, false);
    const cells = db.prepare('SELECT cells FROM rows WHERE project_id = ? AND row_index = ?').pluck();
    const kept = cells.get(projectId, ROWS - 2) as string;
    const change = db.prepare('UPDATE rows SET cells = ? WHERE project_id = ? AND row_index = ?');
    let changed = false;
    try {
      const two = await exported({}, true, (progress) => {
        if (changed || progress.rowsDone === 0) return;
        changed = true;
        change.run(JSON.stringify(['Changed meanwhile', '', '']), projectId, ROWS - 2);
      });
      expect(changed).toBe(true);
      expect(two.bytes.equals(before.bytes)).toBe(true);
      // The change is there for the next export.
      expect((await exported({}, true)).bytes.toString('utf8')).toContain('Changed meanwhile');
    } finally {
      change.run(kept, projectId, ROWS - 2);
    }
  });

  it("writes the worker's half itself when the worker stops part-way", async () => {
    const one = await exported({}, false);
    let stopped: Promise<void> | undefined;
    const two = await exported({}, true, (progress, worker) => {
      if (progress.rowsDone > 0) stopped ??= worker?.close();
    });
    await stopped;
    await expect(two.second).rejects.toThrow();
    expect(two.bytes.equals(one.bytes)).toBe(true);
  });

  it('cancelled between pages, leaves neither half behind', async () => {
    const controller = new AbortController();
    const dir = tempDir('matchdesk-halves-out-').dir;
    const path = join(dir, 'matches.csv');
    let worker: VerdictThread | null = null;
    const exporting = exportProject(
      db,
      readProject(db, projectId)!,
      { format: 'csv', scope: 'all', candidates: false, bom: true, delimiter: ',', destination: path, candidatesDestination: null },
      dir,
      (progress) => progress.rowsDone > 0 && controller.abort(),
      controller.signal,
      new UnfinishedExports(join(tmp.dir, 'data')),
      { worker: () => (worker = VerdictThread.start(engine.dbPath)), fromRows: 0 },
    );
    await expect(exporting).rejects.toMatchObject({ kind: 'cancelled' });
    expect(worker).not.toBeNull();
    expect(readdirSync(dir)).toEqual([]);
    expect(readdirSync(join(tmp.dir, 'data', 'unfinished-exports'))).toEqual([]);
  });
});
