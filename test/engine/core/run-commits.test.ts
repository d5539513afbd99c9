import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../../../electron/engine/engine';
import { assessRow, autoAccepts, rankedFacts, rowFacts, rowInput } from '../../../electron/engine/matching';
import { readRowStatus } from '../../../electron/engine/rows/row-status';
import { storedJobChangeReason } from '../../../electron/engine/rows/job-change-reason';
import { chosenFrom } from '../../../electron/engine/runs/row-verdict';
import { getLookups } from '../../../electron/engine/store';
import type { Person, Simulator } from '../../../electron/simulator';
import type { RunProgress } from '../../../shared/contract';
import type { AutoAcceptRule } from '../../../shared/model';
import { onJobDetail } from '../../support/job-events';
import { connect, currentCompany, findablePeople, ok, openEngine, runToEnd, startSim, tempDir, writeCsv } from './helpers';

let tmp: ReturnType<typeof tempDir>;
let sim: Simulator;
let people: Person[];

beforeAll(async () => {
  tmp = tempDir();
  // Scores on: the rule below accepts on the service's score, which the digest must reproduce.
  sim = await startSim({ scores: true });
  people = findablePeople(sim);
});
afterAll(async () => {
  await sim.close();
  tmp.remove();
});

const HEADERS = ['Name', 'Email', 'Company'];
const RULE: AutoAcceptRule = { enabled: true, minConfidence: 0.9, minLead: 0.5 };

/**
 * E-mails (one candidate), names with a company (scored, often several), people nobody knows, repeats, and people
 * whose e-mail finds nobody but whose name and company do (settled at their second step). Past the first page (1,000
 * rows), names with a company ask what rows of the first page asked at their second step.
 */
function sheetRows(count: number): string[][] {
  return Array.from({ length: count }, (_, i) => {
    const p = people[(i >= 1000 && i % 5 === 1 ? i + 2 : i) % 400]!;
    if (i % 5 === 0) return ['', p.email_address, ''];
    if (i % 5 === 1) return [p.name, '', currentCompany(p)];
    if (i % 5 === 2) return [p.name.split(' ')[0]!, '', currentCompany(p)];
    if (i % 5 === 3) return [p.name, `old.${i % 400}@moved-on.example`, currentCompany(p)];
    return [`Nobody ${i % 50}`, `nobody${i % 50}@unknown.example`, ''];
  });
}

interface SettledRow {
  row_index: number;
  state: string;
  outcome: string;
  step: number;
  strategy: string | null;
  query_id: number | null;
  candidate_count: number;
  chosen_rank: number | null;
  chosen: string | null;
  chosen_person: number | null;
  chosen_score: number | null;
  chosen_confidence: number | null;
  chosen_reason: string | null;
  job_change: string | null;
  job_change_date: string | null;
  job_change_reason: string | null;
  source: string | null;
  confidence: number | null;
  runner_up: number | null;
  best_rank: number | null;
  reason: string | null;
  guard: string | null;
}

function settledRows(engine: Engine, projectId: number): SettledRow[] {
  const db = new Database(engine.dbPath, { readonly: true });
  try {
    return db
      .prepare(
        `SELECT row_index, state, outcome, step, strategy, query_id, candidate_count, chosen_rank, chosen, chosen_person, chosen_score, chosen_confidence,
           chosen_reason, job_change, job_change_date, job_change_reason, source, confidence, runner_up, best_rank, reason, guard
         FROM row_status WHERE project_id = ? ORDER BY row_index`,
      )
      .all(projectId) as SettledRow[];
  } finally {
    db.close();
  }
}

describe('settling rows from stored answers', () => {
  it('settles rows from the cache exactly as the service answer did, with or without the stored facts', async () => {
    const engine = await openEngine(join(tmp.dir, 'digest'));
    try {
      await connect(engine, sim);
      await ok(engine, 'settings.update', { autoAccept: RULE });
      const file = writeCsv(join(tmp.dir, 'digest.csv'), HEADERS, sheetRows(1200));
      const fetched = (await ok(engine, 'projects.import', { file })).summary;
      expect((await runToEnd(engine, fetched.id)).status).toBe('done');
      const expected = settledRows(engine, fetched.id);

      // What the rows say agrees with the full candidates on file, compared with each row the long way.
      const db = new Database(engine.dbPath, { readonly: true });
      const lookups = getLookups(db, expected.flatMap((r) => (r.query_id !== null ? [r.query_id] : [])), Number.MIN_SAFE_INTEGER);
      const sheet = sheetRows(1200);
      const mapping = (await ok(engine, 'projects.get', { projectId: fetched.id })).mapping;
      let autoAmongSeveral = 0;
      for (const row of expected.filter((r) => r.outcome === 'to_review')) {
        const facts = rankedFacts(lookups.get(row.query_id!)!.candidates!);
        const input = rowInput(sheet[row.row_index]!, mapping);
        const assessment = assessRow(rowFacts(input), facts, row.strategy as 'email');
        const auto = autoAccepts(assessment, RULE);
        expect(row.candidate_count).toBe(facts.length);
        expect(row).toMatchObject({ confidence: assessment.confidence, runner_up: assessment.runnerUp, best_rank: assessment.candidates[0]!.rank, reason: assessment.reason, guard: assessment.guard });
        expect(row.state).toBe(auto ? 'auto' : 'to_review');
        // An accepted row keeps its person as numbers: the version's id in `people`, its score, the confidence, the job change.
        const chosen = auto ? chosenFrom(assessment, facts, assessment.candidates[0]!.rank, input.company)! : null;
        expect(row.chosen).toBeNull();
        expect(row).toMatchObject({
          chosen_score: chosen?.score ?? null,
          chosen_confidence: chosen?.confidence ?? null,
          chosen_reason: null,
          job_change: chosen?.jobChange?.status ?? null,
          job_change_date: chosen?.jobChange?.date ?? null,
          // Stored by what stands for it (rows/job-change-reason.ts); read back whole below.
          job_change_reason: storedJobChangeReason(chosen?.jobChange?.reason ?? null, chosen?.reason),
        });
        if (chosen) expect(readRowStatus(db, fetched.id, row.row_index)?.chosen).toEqual({ ...chosen, personId: row.chosen_person });
        else expect(row.chosen_person).toBeNull();
        if (auto && facts.length > 1) autoAmongSeveral++;
      }
      db.close();
      // Names with a company often bring several candidates, and the model still picks one with confidence.
      expect(autoAmongSeveral).toBeGreaterThan(0);
      expect(expected.some((r) => r.state === 'to_review' && r.candidate_count > 1)).toBe(true);
      expect(expected.some((r) => r.state === 'no_candidates')).toBe(true);
      // Rows the cache settles at their second step, in the walk that reads their first (matching-run.ts lookUp).
      expect(expected.some((r) => r.step === 1 && r.candidate_count > 0)).toBe(true);

      const cached = (await ok(engine, 'projects.import', { file, name: 'cached' })).summary;
      const progress: RunProgress[] = [];
      const off = onJobDetail(engine, 'run', (p) => progress.push(p), cached.id);
      const fromCache = await runToEnd(engine, cached.id);
      off();
      expect(fromCache).toMatchObject({ status: 'done', calls: 0 });
      expect(settledRows(engine, cached.id)).toEqual(expected);
      // The queries of rows followed to their next step count in the total as they are met: never done ahead of it, and
      // all done at the end, though some were counted both as a row's next step and as another row's first.
      expect(progress.every((p) => p.queriesDone <= p.queriesTotal)).toBe(true);
      expect(fromCache.queriesDone).toBe(fromCache.queriesTotal);

      // Answers whose people's facts another version made are read whole instead.
      const writer = new Database(engine.dbPath);
      expect(writer.prepare('UPDATE people SET facts_version = -facts_version WHERE id % 2 = 0').run().changes).toBeGreaterThan(0);
      writer.close();
      const undigested = (await ok(engine, 'projects.import', { file, name: 'undigested' })).summary;
      expect(await runToEnd(engine, undigested.id)).toMatchObject({ status: 'done', calls: 0 });
      expect(settledRows(engine, undigested.id)).toEqual(expected);
    } finally {
      await engine.close();
    }
  });

  it('asks again for an answer whose people are no longer stored', async () => {
    const engine = await openEngine(join(tmp.dir, 'damaged'));
    try {
      await connect(engine, sim);
      const file = writeCsv(join(tmp.dir, 'damaged.csv'), HEADERS, sheetRows(8).slice(0, 1));
      const first = (await ok(engine, 'projects.import', { file })).summary;
      expect(await runToEnd(engine, first.id)).toMatchObject({ status: 'done', calls: 1 });
      const writer = new Database(engine.dbPath);
      expect(writer.prepare('DELETE FROM people').run().changes).toBe(1);
      writer.close();
      const again = (await ok(engine, 'projects.import', { file, name: 'again' })).summary;
      expect(await runToEnd(engine, again.id)).toMatchObject({ status: 'done', calls: 1, cacheHits: 0 });
      expect(settledRows(engine, again.id)[0]).toMatchObject({ state: 'auto', candidate_count: 1 });
    } finally {
      await engine.close();
    }
  });
});

describe('committing what lands', () => {
  it("commits a call's answers as it lands, and writes rows once every row before them is settled, each once and in row order", async () => {
    let findCalls = 0;
    let releaseFirst!: () => void;
    const firstHeld = new Promise<void>((resolve) => (releaseFirst = resolve));
    const holdingFetch: typeof fetch = async (input, init) => {
      const reply = await fetch(input, init);
      if (String(input).endsWith('/find') && ++findCalls === 1) await firstHeld;
      return reply;
    };
    const engine = await openEngine(join(tmp.dir, 'landing'), { fetch: holdingFetch });
    const side = () => new Database(engine.dbPath);
    try {
      await connect(engine, sim);
      await ok(engine, 'settings.update', { concurrency: 2 });
      // 150 e-mails of people the service knows: two calls, every row settled by the first step.
      const rows = people.slice(0, 150).map((p) => ['', p.email_address, '']);
      const project = (await ok(engine, 'projects.import', { file: writeCsv(join(tmp.dir, 'landing.csv'), HEADERS, rows) })).summary;
      // Every write that settles a row, in the order written.
      const db = side();
      db.exec(`CREATE TABLE settled_log (n INTEGER PRIMARY KEY, row_index INTEGER);
        CREATE TRIGGER settled_logged AFTER UPDATE ON row_status WHEN new.state <> 'pending' BEGIN INSERT INTO settled_log (row_index) VALUES (new.row_index); END;`);
      db.close();
      const read = <T>(sql: string): T => {
        const d = side();
        try {
          return d.prepare(sql).pluck().all() as T;
        } finally {
          d.close();
        }
      };
      await ok(engine, 'run.start', { projectId: project.id });

      // The second call (rows 100-149) lands and its answers are committed while the first is held.
      const deadline = Date.now() + 10_000;
      while (read<number[]>("SELECT count(*) FROM lookups WHERE status = 'ok'")[0]! < 50 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
      expect(read<number[]>("SELECT count(*) FROM lookups WHERE status = 'ok'")[0]).toBe(50);
      // A while (rows settled were once held 250 ms at most): rows 100-149 still wait, above the watermark that rows
      // 0-99 hold; no time writes them.
      await new Promise((resolve) => setTimeout(resolve, 600));
      expect(read<string[]>(`SELECT state FROM row_status WHERE project_id = ${project.id}`).filter((s) => s !== 'pending')).toEqual([]);

      releaseFirst();
      const end = await engine.runSettled(project.id);
      expect(end).toMatchObject({ status: 'done', calls: 2, rowsResolved: 150 });
      expect(read<string[]>(`SELECT state FROM row_status WHERE project_id = ${project.id}`).filter((s) => s === 'pending')).toEqual([]);
      expect(read<number[]>('SELECT row_index FROM settled_log ORDER BY n')).toEqual(rows.map((_, i) => i));
    } finally {
      releaseFirst();
      await engine.close();
    }
  });

  it("saves the run's counters from the commits of calls every few seconds at most, and all of them at its end", async () => {
    const engine = await openEngine(join(tmp.dir, 'counters'));
    try {
      await connect(engine, sim);
      await ok(engine, 'settings.update', { concurrency: 2 });
      // 300 e-mails of people the service knows: three calls, every row settled by the first step.
      const rows = people.slice(0, 300).map((p) => ['', p.email_address, '']);
      const project = (await ok(engine, 'projects.import', { file: writeCsv(join(tmp.dir, 'counters.csv'), HEADERS, rows) })).summary;
      const db = new Database(engine.dbPath);
      // Every save of the run's row: the page each save writes to the WAL again.
      db.exec(`CREATE TABLE runs_log (n INTEGER PRIMARY KEY, status TEXT, updated_at TEXT);
        CREATE TRIGGER runs_logged AFTER UPDATE ON runs BEGIN INSERT INTO runs_log (status, updated_at) VALUES (new.status, new.updated_at); END;`);
      db.close();
      const end = await runToEnd(engine, project.id);
      expect(end).toMatchObject({ status: 'done', rowsResolved: rows.length, calls: 3 });

      const log = new Database(engine.dbPath, { readonly: true });
      try {
        const saves = log.prepare('SELECT status, updated_at FROM runs_log ORDER BY n').all() as { status: string; updated_at: string }[];
        const running = saves.filter((s) => s.status === 'running').map((s) => Date.parse(s.updated_at));
        expect(running.length).toBeLessThan(end.calls);
        for (let i = 1; i < running.length; i++) expect(running[i]! - running[i - 1]!).toBeGreaterThanOrEqual(2_000);
        expect(saves.at(-1)!.status).toBe('done');
        const stored = JSON.parse((log.prepare('SELECT counters FROM runs WHERE project_id = ?').pluck().get(project.id) as string)) as Record<string, number>;
        expect(stored).toMatchObject({ calls: end.calls, rowsResolved: end.rowsResolved, queriesDone: end.queriesDone, queriesTotal: end.queriesTotal });
      } finally {
        log.close();
      }
    } finally {
      await engine.close();
    }
  });

  it('moves a row whose answer found nobody on to its next step in memory, and writes its step only with the result it settles at', async () => {
    const engine = await openEngine(join(tmp.dir, 'moving-on'));
    try {
      await connect(engine, sim);
      // An e-mail nobody has, then the person's name and company: each row is settled at its second step.
      const rows = people.slice(200, 320).map((p, i) => [p.name, `gone-${i}@nowhere.example`, currentCompany(p)]);
      const project = (await ok(engine, 'projects.import', { file: writeCsv(join(tmp.dir, 'moving-on.csv'), HEADERS, rows) })).summary;
      const db = new Database(engine.dbPath);
      // Every write to a row's status, in the order written.
      db.exec(`CREATE TABLE status_log (n INTEGER PRIMARY KEY, row_index INTEGER, step INTEGER, state TEXT);
        CREATE TRIGGER status_logged AFTER UPDATE ON row_status BEGIN INSERT INTO status_log (row_index, step, state) VALUES (new.row_index, new.step, new.state); END;`);
      db.close();
      expect(await runToEnd(engine, project.id)).toMatchObject({ status: 'done', rowsResolved: rows.length });

      const log = new Database(engine.dbPath, { readonly: true });
      try {
        const writes = log.prepare('SELECT row_index, step, state FROM status_log ORDER BY n').all() as { row_index: number; step: number; state: string }[];
        // A row is moved on (its step) just before its result, never by itself in an earlier write: both in one
        // transaction, the rows in row order.
        expect(writes.map((w) => w.row_index)).toEqual(rows.flatMap((_, i) => [i, i]));
        expect(writes.filter((w, i) => w.state === 'pending' && (i % 2 === 1 || w.step !== 1))).toEqual([]);
        const settled = settledRows(engine, project.id);
        expect(settled.every((r) => r.step === 1 && r.state !== 'pending' && r.strategy === 'name+company')).toBe(true);
        // Each row names the query of the step that settled it.
        const planned = log.prepare('SELECT row_index, query_id FROM row_queries WHERE project_id = ? AND step = 1 ORDER BY row_index').all(project.id) as { row_index: number; query_id: number }[];
        expect(settled.map((r) => r.query_id)).toEqual(planned.map((p) => p.query_id));
      } finally {
        log.close();
      }
    } finally {
      await engine.close();
    }
  });
});
