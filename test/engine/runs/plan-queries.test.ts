import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { planProject, type PlanOutcome, type PlanRequest } from '../../../electron/engine/runs/plan-queries';
import { VerdictThread } from '../../../electron/engine/runs/verdict-thread';
import { openDatabase, type Database } from '../../../electron/engine/store';
import { tempFolder } from '../store/temp-folder';
import { ok, openEngine, writeCsv } from '../core/helpers';

// A plan of more than one page (10,000 rows) works out each page after the first on the verdict worker while the
// engine's thread writes the one before; what it stores must be what the engine's thread alone stores.

const ROWS = 25_000;
const SCOPE = { baseUrl: 'https://people.example', orgId: 'org-1' };
const FIRST: PlanRequest = { mapping: { fullName: 0, email: 1, profile: 2, company: 3 }, strategies: ['email', 'social', 'name+company'], scope: SCOPE };
// Same service, another mapping: rows keep the steps that did not change, the rest are written again.
const SECOND: PlanRequest = { mapping: { fullName: 0, email: 1, company: 3 }, strategies: ['email', 'name+company', 'name'], scope: SCOPE };

/**
 * Rows repeating people across pages (queries met again on later pages), some without an e-mail or a profile, some
 * with nothing to ask, and blank rows between them.
 */
function cellsOf(i: number): string[] {
  if (i % 997 === 5) return [];
  const person = i % 9_000;
  const name = i % 13 === 0 ? '' : `Person ${person} Ådne`;
  const email = i % 3 === 0 ? '' : `person${person}@example.com`;
  const profile = i % 4 === 0 ? `https://www.linkedin.com/in/person-${person}` : '';
  const company = i % 13 === 0 ? '' : `Company ${person % 400}`;
  return [name, email, profile, company];
}

/** A data file holding one project of the sheet, not planned yet. */
function sheetFile(): { file: string; projectId: number } {
  const file = join(tempFolder(), 'matchdesk.sqlite');
  const db = openDatabase(file);
  try {
    const projectId = Number(db.prepare("INSERT INTO projects (name, status, created_at, updated_at, row_count) VALUES ('Sheet', 'ready', 't', 't', ?)").run(ROWS).lastInsertRowid);
    const insert = db.prepare('INSERT INTO rows (project_id, row_index, cells) VALUES (?, ?, ?)');
    db.transaction(() => {
      for (let i = 0; i < ROWS; i++) {
        const cells = cellsOf(i);
        insert.run(projectId, i, cells.length === 0 ? '[]' : JSON.stringify(cells));
      }
    })();
    return { file, projectId };
  } finally {
    db.close();
  }
}

/** A copy of the data file, in a folder of its own. */
function copyOf(file: string): string {
  const copy = join(tempFolder(), 'matchdesk.sqlite');
  copyFileSync(file, copy);
  return copy;
}

/** What a plan stores: the rows' steps and statuses, the queries (ids, digests, texts), the queries rows share, the project's plan. */
function stored(db: Database, projectId: number): Record<string, unknown[]> {
  const all = (sql: string) => db.prepare(sql).raw().safeIntegers(true).all(projectId);
  return {
    rowQueries: all('SELECT row_index, step, strategy, query_id FROM row_queries WHERE project_id = ? ORDER BY row_index, step'),
    rowStatus: all('SELECT * FROM row_status WHERE project_id = ? ORDER BY row_index'),
    queries: db.prepare('SELECT id, digest, query FROM queries ORDER BY id').raw().safeIntegers(true).all(),
    sharedQueries: all('SELECT query_id, row_index FROM shared_queries WHERE project_id = ? ORDER BY query_id, row_index'),
    project: all('SELECT mapping, strategies, plan_scope FROM projects WHERE id = ?'),
  };
}

interface Planned {
  outcome: PlanOutcome;
  /** The rows the plan inserted, updated or deleted. */
  changes: number;
  /** The rows planned so far, as told after each page. */
  told: number[];
}

async function plan(db: Database, projectId: number, req: PlanRequest, worker: VerdictThread | null, onPage?: (rowsPlanned: number) => void, signal?: AbortSignal): Promise<Planned> {
  const told: number[] = [];
  const before = db.prepare('SELECT total_changes()').pluck().get() as number;
  const outcome = await planProject(
    db,
    projectId,
    req,
    (rows) => {
      told.push(rows);
      onPage?.(rows);
    },
    signal,
    () => worker,
  );
  return { outcome, changes: (db.prepare('SELECT total_changes()').pluck().get() as number) - before, told };
}

/** The sheet planned under FIRST then SECOND on the engine's thread alone: what each stored and how it went. */
async function planAlone(file: string, projectId: number): Promise<{ first: Record<string, unknown[]>; second: Record<string, unknown[]>; planned: [Planned, Planned] }> {
  const db = openDatabase(copyOf(file));
  try {
    const first = await plan(db, projectId, FIRST, null);
    const stateFirst = stored(db, projectId);
    const second = await plan(db, projectId, SECOND, null);
    return { first: stateFirst, second: stored(db, projectId), planned: [first, second] };
  } finally {
    db.close();
  }
}

describe('a plan on two threads', () => {
  it("works out each page after the first on the verdict worker and stores what the engine's thread alone stores, a replan too", async () => {
    const { file, projectId } = sheetFile();
    const alone = await planAlone(file, projectId);
    expect(alone.planned[0].outcome.pagesElsewhere).toBe(0);

    const copy = copyOf(file);
    const db = openDatabase(copy);
    const thread = VerdictThread.start(copy)!;
    // At most one page is asked of the worker at a time: the sheet is never held there more than a page ahead.
    let asked = 0;
    let mostAsked = 0;
    const plannedPage = thread.plannedPage.bind(thread);
    vi.spyOn(thread, 'plannedPage').mockImplementation((input) => {
      mostAsked = Math.max(mostAsked, ++asked);
      return plannedPage(input).finally(() => asked--);
    });
    try {
      const first = await plan(db, projectId, FIRST, thread);
      expect(first.outcome.pagesElsewhere).toBe(2);
      expect(mostAsked).toBe(1);
      expect(first.outcome).toEqual({ ...alone.planned[0].outcome, pagesElsewhere: 2 });
      expect(first.changes).toBe(alone.planned[0].changes);
      expect(stored(db, projectId)).toEqual(alone.first);
      // Told after each page, rows planned so far: blank rows are not counted.
      expect(first.told).toEqual(alone.planned[0].told);
      expect(first.told).toHaveLength(3);
      expect(first.told).toEqual([...first.told].sort((a, b) => a - b));
      expect(first.told[2]).toBe(first.outcome.rows);
      expect(first.outcome.rows).toBe(ROWS - 26);

      // Only the rows whose plan or status changed are written again, as on one thread.
      const second = await plan(db, projectId, SECOND, thread);
      expect(second.outcome.pagesElsewhere).toBe(2);
      expect(second.outcome).toEqual({ ...alone.planned[1].outcome, pagesElsewhere: 2 });
      expect(second.outcome.unchanged).toBeGreaterThan(0);
      expect(second.outcome.unchanged).toBeLessThan(second.outcome.rows);
      expect(second.changes).toBe(alone.planned[1].changes);
      expect(stored(db, projectId)).toEqual(alone.second);
      expect(mostAsked).toBe(1);
    } finally {
      vi.restoreAllMocks();
      await thread.close();
      db.close();
    }
  });

  it('works out the rest of the plan on the engine\'s thread when the worker stops part-way, or cannot read the database', async () => {
    const { file, projectId } = sheetFile();
    const alone = await planAlone(file, projectId);

    // The worker stops once the second page is written: the third, asked of it already, is worked out here.
    const copy = copyOf(file);
    const db = openDatabase(copy);
    const thread = VerdictThread.start(copy)!;
    try {
      const first = await plan(db, projectId, FIRST, thread, (rows) => {
        if (rows > 10_000) void thread.close();
      });
      expect(thread.usable).toBe(false);
      expect(first.outcome.pagesElsewhere).toBe(1);
      expect(first.outcome).toEqual({ ...alone.planned[0].outcome, pagesElsewhere: 1 });
      expect(stored(db, projectId)).toEqual(alone.first);
      const second = await plan(db, projectId, SECOND, null);
      expect(second.changes).toBe(alone.planned[1].changes);
      expect(stored(db, projectId)).toEqual(alone.second);
    } finally {
      await thread.close();
      db.close();
    }

    // A worker whose database does not open fails each page it is asked for: every page is worked out here.
    const other = openDatabase(copyOf(file));
    const blind = VerdictThread.start(join(tempFolder(), 'missing.sqlite'))!;
    try {
      const first = await plan(other, projectId, FIRST, blind);
      expect(first.outcome.pagesElsewhere).toBe(0);
      expect(stored(other, projectId)).toEqual(alone.first);
    } finally {
      await blind.close();
      other.close();
    }
  });

  it('stops between pages when cancelled, puts the mapping before back, and plans whole when asked again', async () => {
    const { file, projectId } = sheetFile();
    const alone = await planAlone(file, projectId);

    const copy = copyOf(file);
    const db = openDatabase(copy);
    const thread = VerdictThread.start(copy)!;
    try {
      await plan(db, projectId, FIRST, thread);
      const cancel = new AbortController();
      const cancelled = plan(db, projectId, SECOND, thread, () => cancel.abort(), cancel.signal);
      await expect(cancelled).rejects.toMatchObject({ kind: 'cancelled', message: 'Saving the mapping was cancelled: the project keeps the mapping it had.' });
      // The mapping before stands, its plan to be made again (plan_scope NULL): only the first page was planned anew.
      const project = db.prepare('SELECT mapping, strategies, plan_scope FROM projects WHERE id = ?').get(projectId);
      expect(project).toEqual({ mapping: JSON.stringify(FIRST.mapping), strategies: JSON.stringify(FIRST.strategies), plan_scope: null });
      const replanned = (from: number, to: number) =>
        db.prepare("SELECT count(*) FROM row_queries WHERE project_id = ? AND row_index >= ? AND row_index < ? AND strategy = 'name'").pluck().get(projectId, from, to) as number;
      expect(replanned(0, 10_000)).toBeGreaterThan(0);
      expect(replanned(10_000, ROWS)).toBe(0);

      // The worker is still there for the next plan, which plans every page again.
      expect(thread.usable).toBe(true);
      const again = await plan(db, projectId, SECOND, thread);
      expect(again.outcome.pagesElsewhere).toBe(2);
      expect(stored(db, projectId)).toEqual(alone.second);
    } finally {
      await thread.close();
      db.close();
    }
  });
});

describe("the engine's plans", () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('use the verdict worker for a sheet of more than one page, and stop it after when no run goes on', async () => {
    const started = vi.spyOn(VerdictThread, 'start');
    const pages = vi.spyOn(VerdictThread.prototype, 'plannedPage');
    const folder = tempFolder();
    const file = writeCsv(join(folder, 'sheet.csv'), ['Name', 'Email', 'Profile', 'Company'], Array.from({ length: ROWS }, (_, i) => cellsOf(i)).filter((cells) => cells.length > 0));
    const planned: Record<string, unknown[]>[] = [];
    for (const verdictWorker of [true, false]) {
      const engine = await openEngine(join(folder, `data-${verdictWorker}`), { verdictWorker });
      try {
        const { id } = (await ok(engine, 'projects.import', { file })).summary;
        await ok(engine, 'mapping.save', { projectId: id, mapping: FIRST.mapping, strategies: FIRST.strategies });
        const db = openDatabase(engine.dbPath, { readonly: true });
        try {
          planned.push(stored(db, id));
        } finally {
          db.close();
        }
      } finally {
        await engine.close();
      }
    }
    // The worker worked out the second and third pages; no run followed, so it was stopped when the plan ended.
    expect(started).toHaveBeenCalledTimes(1);
    expect(pages).toHaveBeenCalledTimes(2);
    expect(await Promise.all(pages.mock.results.map((r) => r.value as Promise<unknown>))).toHaveLength(2);
    expect((started.mock.results[0]!.value as VerdictThread).usable).toBe(false);
    // The plan it stored is the engine's thread's alone (an engine with no worker).
    expect(planned[0]).toEqual(planned[1]);
  });
});

describe('query ids', () => {
  it("give a page's later steps their ids before its first steps, so a run's first answers are appended at the end", async () => {
    const { file, projectId } = sheetFile();
    const db = openDatabase(file);
    try {
      await plan(db, projectId, FIRST, null);
      // Each query by the page that first names it and the last step naming it there (the first given an id): in each
      // page, ids by step, the last step first.
      const firstNamed = new Map<number, { page: number; step: number }>();
      const steps = db.prepare('SELECT row_index, step, query_id FROM row_queries WHERE project_id = ? ORDER BY row_index, step').raw().all(projectId) as [number, number, number][];
      for (const [rowIndex, step, id] of steps) {
        const page = Math.floor(rowIndex / 10_000);
        const named = firstNamed.get(id);
        if (!named) firstNamed.set(id, { page, step });
        else if (named.page === page) named.step = Math.max(named.step, step);
      }
      const pages = new Map<number, [number, number][]>();
      for (const [id, { page, step }] of firstNamed) pages.set(page, [...(pages.get(page) ?? []), [id, step]]);
      // The third page's people are the first two pages' again: it names no new query.
      expect(pages.size).toBe(2);
      for (const named of pages.values()) {
        const byId = named.sort((a, b) => a[0] - b[0]).map(([, step]) => step);
        expect(new Set(byId).size).toBeGreaterThan(1);
        expect(byId).toEqual([...byId].sort((a, b) => b - a));
      }
    } finally {
      db.close();
    }
  });
});
