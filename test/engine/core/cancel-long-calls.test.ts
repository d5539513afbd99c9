import Database from 'better-sqlite3';
import { mkdirSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallInput, CallName, JobDetails } from '../../../shared/contract';
import type { Engine } from '../../../electron/engine/engine';
import { onJobDetail } from '../../support/job-events';
import { fails, ok, openEngine, tempDir, writeCsv } from './helpers';

// A large sheet takes a while to import from Excel and longer to export to it: a user who picked the wrong file or
// format cancels, and nothing half-made is left behind.

const HEADERS = ['Name', 'Email', 'Company'];
// An import or a plan is cancelled at its first progress event past nothing, which comes after its first slice of work
// (a plan's is 10,000 rows, the largest): a sheet of a few slices is still part-way then. An export is cancelled at
// the event that says it started: `job.cancel` aborts before it answers, and the export looks after every page, so it
// stops at its first page however fast the machine writes.
const ROWS = 25_000;
const sheetRows = (n: number) => Array.from({ length: n }, (_, i) => [`Person ${i}`, `person${i}@example.com`, `Company ${i % 500}`]);

let tmp: ReturnType<typeof tempDir>;
let engine: Engine;
let bigSheet: string;
let kept: number;

beforeAll(async () => {
  tmp = tempDir();
  engine = await openEngine(join(tmp.dir, 'data'), { exportDir: join(tmp.dir, 'downloads') });
  bigSheet = writeCsv(join(tmp.dir, 'big.csv'), HEADERS, sheetRows(ROWS));
  kept = (await ok(engine, 'projects.import', { file: writeCsv(join(tmp.dir, 'kept.csv'), HEADERS, sheetRows(50)) })).summary.id;
});
afterAll(async () => {
  await engine.close();
  tmp.remove();
});

/** Rows stored in the data file by project (a cancelled import's rows are gone once its cleanup has run). */
function storedRows(): Map<number, number> {
  const db = new Database(engine.dbPath, { readonly: true });
  try {
    const counts = db.prepare('SELECT project_id, count(*) FROM rows GROUP BY project_id').raw().all() as [number, number][];
    return new Map(counts);
  } finally {
    db.close();
  }
}

/**
 * Makes a long call and cancels it at its first progress event that `howFar` counts (rows done, or null for an event
 * to pass by): the call's error, what the cancel answered, and how far the call was then.
 */
async function cancelAtFirstProgress<J extends 'import' | 'plan' | 'export', K extends CallName>(
  kind: J,
  howFar: (progress: JobDetails[J]) => number | null,
  cancel: () => Promise<{ cancelled: boolean }>,
  name: K,
  input: CallInput<K>,
) {
  let answer: { cancelled: boolean } | null = null;
  let doneWhenCancelled = 0;
  const off = onJobDetail(engine, kind, (progress) => {
    const done = howFar(progress);
    if (done === null || answer !== null) return;
    doneWhenCancelled = done;
    void cancel().then((a) => (answer = a));
  });
  try {
    const error = await fails(engine, name, input);
    return { error, answer, doneWhenCancelled };
  } finally {
    off();
  }
}

describe('cancelling an import', () => {
  it('keeps nothing of it: the call fails as cancelled, no project appears and its rows are removed', async () => {
    const { error, answer, doneWhenCancelled } = await cancelAtFirstProgress(
      'import',
      (p) => (p.file === bigSheet && p.rowsRead > 0 ? p.rowsRead : null),
      () => ok(engine, 'job.cancel', { kind: 'import', file: bigSheet }),
      'projects.import',
      { file: bigSheet },
    );
    expect(error.kind).toBe('cancelled');
    expect(error.message).toBe('The import of big.csv was cancelled: nothing of it was kept.');
    expect(answer).toEqual({ cancelled: true });
    // Part-way: some rows were in when it was cancelled, not all of them.
    expect(doneWhenCancelled).toBeLessThan(ROWS);

    expect((await ok(engine, 'projects.list')).map((p) => p.id)).toEqual([kept]);
    // The command line's engine removes the rows before the call returns; the other project keeps all of its own.
    expect(storedRows()).toEqual(new Map([[kept, 50]]));
  });

  it('says there was nothing to cancel once the import is done, and the same file imports whole afterwards', async () => {
    expect(await ok(engine, 'job.cancel', { kind: 'import', file: bigSheet })).toEqual({ cancelled: false });
    const detail = await ok(engine, 'projects.import', { file: bigSheet });
    expect(detail.summary.rowCount).toBe(ROWS);
    expect(await ok(engine, 'job.cancel', { kind: 'import', file: bigSheet })).toEqual({ cancelled: false });
    await ok(engine, 'projects.delete', { projectId: detail.summary.id });
  });
});

describe('cancelling an export', () => {
  let projectId: number;
  beforeAll(async () => {
    projectId = (await ok(engine, 'projects.import', { file: bigSheet, name: 'Export me' })).summary.id;
  });

  /** Starts an export and cancels it as it starts on its rows: it stops at the end of its first page. */
  const cancelPartWay = (input: Partial<CallInput<'export.run'>>) =>
    cancelAtFirstProgress(
      'export',
      (p) => (p.projectId === projectId && p.part === 'matches' ? p.rowsDone : null),
      () => ok(engine, 'job.cancel', { projectId, kind: 'export' }),
      'export.run',
      { projectId, scope: 'all', format: 'csv', ...input },
    );

  it('leaves the files already there as they were, and no part file beside them', async () => {
    const dir = join(tmp.dir, 'out-existing');
    mkdirSync(dir);
    const destination = join(dir, 'matches.xlsx');
    const candidatesDestination = join(dir, 'candidates.xlsx');
    await ok(engine, 'export.run', { projectId: kept, format: 'xlsx', scope: 'all', destination, candidatesDestination, candidates: true });
    const before = [readFileSync(destination), readFileSync(candidatesDestination)];

    const { error, answer, doneWhenCancelled } = await cancelPartWay({ format: 'xlsx', destination, candidatesDestination, candidates: true });
    expect(error.kind).toBe('cancelled');
    expect(error.message).toBe('The export was cancelled: matches.xlsx was left as it was.');
    expect(answer).toEqual({ cancelled: true });
    expect(doneWhenCancelled).toBeLessThan(ROWS);
    expect([readFileSync(destination), readFileSync(candidatesDestination)]).toEqual(before);
    expect(readdirSync(dir).sort()).toEqual(['candidates.xlsx', 'matches.xlsx']);
  });

  it('writes no file where there was none, in CSV as in Excel, and exports whole afterwards', async () => {
    const dir = join(tmp.dir, 'out-new');
    mkdirSync(dir);
    const destination = join(dir, 'matches.csv');
    const { error } = await cancelPartWay({ format: 'csv', destination, candidates: true });
    expect(error.kind).toBe('cancelled');
    expect(error.message).toBe('The export was cancelled: matches.csv was not written.');
    expect(readdirSync(dir)).toEqual([]);

    expect(await ok(engine, 'job.cancel', { projectId, kind: 'export' })).toEqual({ cancelled: false });
    const whole = await ok(engine, 'export.run', { projectId, format: 'csv', scope: 'all', destination });
    expect(whole.rows).toBe(ROWS);
    expect(readdirSync(dir)).toEqual(['matches.csv']);
  });

  it('leaves no download behind in the browser host either (no destination: the engine names the file)', async () => {
    const downloads = join(tmp.dir, 'downloads');
    mkdirSync(downloads, { recursive: true });
    const before = readdirSync(downloads);
    const { error } = await cancelPartWay({ format: 'xlsx' });
    expect(error.kind).toBe('cancelled');
    expect(error.message).toBe('The export was cancelled: Export me-matches.xlsx was not written.');
    expect(readdirSync(downloads)).toEqual(before);
  });
});

describe('cancelling the saving of a mapping (its plan)', () => {
  it('keeps the mapping the project had, and plans it whole when next needed', async () => {
    const projectId = (await ok(engine, 'projects.import', { file: bigSheet, name: 'Planned' })).summary.id;
    const byEmail = { mapping: { email: 1 }, strategies: ['email'] };
    await ok(engine, 'mapping.save', { projectId, ...byEmail });
    const before = await ok(engine, 'run.preview', { projectId, offline: true });
    expect(before.distinctQueries).toBe(ROWS);

    const { error, answer, doneWhenCancelled } = await cancelAtFirstProgress(
      'plan',
      (p) => (p.projectId === projectId && p.rowsPlanned > 0 ? p.rowsPlanned : null),
      () => ok(engine, 'job.cancel', { projectId, kind: 'plan' }),
      'mapping.save',
      { projectId, mapping: { fullName: 0, company: 2 }, strategies: ['name+company'] },
    );
    expect(error.kind).toBe('cancelled');
    expect(error.message).toBe('Saving the mapping was cancelled: the project keeps the mapping it had.');
    expect(answer).toEqual({ cancelled: true });
    expect(doneWhenCancelled).toBeLessThan(ROWS);

    const detail = await ok(engine, 'projects.get', { projectId });
    expect({ mapping: detail.mapping, strategies: detail.strategies }).toEqual(byEmail);
    // The rows planned for the other mapping before the cancel are planned again for this one.
    expect(await ok(engine, 'run.preview', { projectId, offline: true })).toEqual(before);
    expect(await ok(engine, 'job.cancel', { projectId, kind: 'plan' })).toEqual({ cancelled: false });
  });
});

describe('closing the engine', () => {
  it('cancels an import under way, and the next start finds nothing of it', async () => {
    const dataDir = join(tmp.dir, 'closing');
    const closing = await openEngine(dataDir);
    let closed: Promise<void> | null = null;
    const off = onJobDetail(closing, 'import', (p) => {
      if (p.rowsRead > 0) closed ??= closing.close();
    });
    const error = await fails(closing, 'projects.import', { file: bigSheet });
    off();
    await closed;
    expect(error.kind).toBe('cancelled');

    const reopened = await openEngine(dataDir);
    try {
      expect(await ok(reopened, 'projects.list')).toEqual([]);
    } finally {
      await reopened.close();
    }
  });

  it('lets a mapping being planned finish: the user saved it', async () => {
    const dataDir = join(tmp.dir, 'closing-while-planning');
    const closing = await openEngine(dataDir);
    const projectId = (await ok(closing, 'projects.import', { file: bigSheet })).summary.id;
    let closed: Promise<void> | null = null;
    const off = onJobDetail(closing, 'plan', (p) => {
      if (p.rowsPlanned > 0) closed ??= closing.close();
    });
    const saved = await closing.call('mapping.save', { projectId, mapping: { fullName: 0, company: 2 }, strategies: ['name+company'] });
    off();
    await closed;
    expect(closed).not.toBeNull();
    expect(saved.ok).toBe(true);

    const reopened = await openEngine(dataDir);
    try {
      const detail = await ok(reopened, 'projects.get', { projectId });
      expect({ mapping: detail.mapping, strategies: detail.strategies }).toEqual({ mapping: { fullName: 0, company: 2 }, strategies: ['name+company'] });
    } finally {
      await reopened.close();
    }
  });
});
