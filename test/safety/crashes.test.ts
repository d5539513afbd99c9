// The CLI killed with SIGKILL at five points of a run and started again each time: the run finishes, no answer
// is lost or asked for twice (beyond the calls in flight at a kill), every decision made between the kills is
// intact, and the database passes its integrity check. And killed while it clears the cache (a slice of rows at a
// time): nothing is half-made, and the next run settles the rows again from the answers still on file.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import type { RowState } from '../../shared/model';
import { DATABASE_FILE } from '../../electron/engine/engine';
import { queryFromStored } from '../../electron/engine/runs/query-records';
import { startSimulator, type Simulator } from '../../electron/simulator';
import { queryKey } from '../../electron/simulator/find';
import { cliBundle } from '../support/cli-bundle';
import { SHEET_HEADERS, callOk, connectSimulator, openTestEngine, readCsv, runToEnd, sheetRows, tempDir, waitUntil, writeCsv } from './safety-helpers';

const ROOT = resolve(__dirname, '../..');
const ROWS = 4_000;
const LATENCY_MS = 40;
const CONCURRENCY = 4;
const QUERIES_PER_CALL = 100;
/** Shares of the first round's distinct queries landed (across all attempts) at which the CLI is killed. */
const KILL_AT = [0.1, 0.3, 0.5, 0.7, 0.9];
const TIMESTAMP_COLUMNS = ['match_fetched_at', 'match_decided_at'];

let tmp: ReturnType<typeof tempDir>;
let sim: Simulator;
let sheet: string;
let home: string;
/** The CLI's start file (test/support/cli-bundle.ts). */
let cli: string;
/** CLI processes still running, killed if the test stops early. */
const children = new Set<ChildProcess>();

beforeAll(async () => {
  tmp = tempDir('matchdesk-crashes-');
  sim = await startSimulator({ port: 0, people: 10_000, seed: 7, latencyMs: LATENCY_MS });
  sheet = writeCsv(join(tmp.dir, 'people.csv'), SHEET_HEADERS, sheetRows(sim.dataset.people, ROWS));
  home = join(tmp.dir, 'home');
  cli = await cliBundle();
});
afterAll(async () => {
  for (const child of children) child.kill('SIGKILL');
  await sim?.close();
  tmp?.remove();
});

interface Attempt {
  child: ChildProcess;
  stderr: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

function startCli(args: string[], dataHome = home): Attempt {
  const child = spawn(process.execPath, [cli, 'match', ...args, '--out', join(tmp.dir, 'out.csv'), '--concurrency', String(CONCURRENCY), '--auto-accept', '--yes'], {
    cwd: ROOT,
    env: {
      ...process.env,
      MATCHDESK_HOME: dataHome,
      MATCHDESK_BASE_URL: sim.baseUrl,
      MATCHDESK_ORG_ID: sim.orgId,
      MATCHDESK_CLIENT_ID: sim.demo.clientId,
      MATCHDESK_CLIENT_SECRET: sim.demo.clientSecret,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  child.on('exit', () => children.delete(child));
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
  child.stdout!.resume();
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) => child.on('exit', (code, signal) => done({ code, signal })));
  return { child, stderr: () => stderr, exited };
}

/** The queries whose answers the data folder holds, keyed as the simulator counts them. */
function committedQueries(dbPath: string): Set<string> {
  const db = new Database(dbPath, { readonly: true });
  try {
    const rows = db.prepare("SELECT q.query FROM lookups AS l JOIN queries AS q ON q.id = l.query_id WHERE l.status = 'ok'").pluck().all() as string[];
    return new Set(rows.map((text) => queryKey(queryFromStored(text).fields)));
  } finally {
    db.close();
  }
}

/** Rows of the data folder's projects that a run has settled so far (a run writes the rows it settles within a second). */
function settledCount(dbPath: string): number {
  return readOne<number>(dbPath, "SELECT count(*) FROM row_status WHERE state <> 'pending'");
}

/** The one value a query reads from the data file, on a read-only connection of its own. */
function readOne<T>(dbPath: string, sql: string): T {
  const db = new Database(dbPath, { readonly: true });
  try {
    return db.prepare(sql).pluck().get() as T;
  } finally {
    db.close();
  }
}

/** Waits until the simulator has counted everything the killed process still had on the wire. */
async function quietSimulator(): Promise<Map<string, number>> {
  let last = -1;
  for (;;) {
    await new Promise((r) => setTimeout(r, LATENCY_MS * 3 + 100));
    const now = sim.counters();
    if (now.queries === last) return now.queryKeys;
    last = now.queries;
  }
}

function delta(from: Map<string, number>, to: Map<string, number>): Map<string, number> {
  return new Map([...to].map(([key, n]) => [key, n - (from.get(key) ?? 0)] as [string, number]).filter(([, n]) => n > 0));
}

function integrity(dbPath: string): string {
  const db = new Database(dbPath);
  try {
    return db.pragma('integrity_check', { simple: true }) as string;
  } finally {
    db.close();
  }
}

interface Decision {
  rowIndex: number;
  state: RowState;
  chosenRank: number | null;
}

/** Makes a few decisions in the data folder while the CLI is not running, as the app beside it would. */
async function decideSome(projectId: number, round: number): Promise<Decision[]> {
  const engine = await openTestEngine(home);
  try {
    const made: Decision[] = [];
    const first = async (states: RowState[]) => (await callOk(engine, 'review.page', { projectId, states, offset: round, limit: 1 })).rows[0];
    const review = await first(['to_review']);
    if (review) {
      const result = await callOk(engine, 'decisions.choose', { projectId, rowIndex: review.rowIndex, rank: 1 });
      expect(result.changed).toBe(1);
      made.push({ rowIndex: review.rowIndex, state: 'accepted', chosenRank: 1 });
    }
    const auto = await first(['auto']);
    if (auto) {
      await callOk(engine, 'decisions.reject', { projectId, rowIndex: auto.rowIndex });
      made.push({ rowIndex: auto.rowIndex, state: 'rejected', chosenRank: null });
    }
    const none = await first(['no_candidates']);
    if (none) {
      await callOk(engine, 'decisions.skip', { projectId, rowIndex: none.rowIndex });
      made.push({ rowIndex: none.rowIndex, state: 'skipped', chosenRank: null });
    }
    return made;
  } finally {
    await engine.close();
  }
}

describe('a CLI run killed five times', () => {
  it('finishes, loses and repeats nothing beyond the calls in flight, keeps every decision, and the database is sound', async () => {
    const [major] = process.versions.node.split('.').map(Number);
    expect(major, `the CLI needs Node 22+; run the tests through npx (this is ${process.version})`).toBeGreaterThanOrEqual(22);
    sim.resetCounters();
    const dbPath = join(home, DATABASE_FILE);
    // After each kill: what the data folder had committed, with how often each of those had been asked by then.
    const committedAtKill: Map<string, number>[] = [];
    const askedPerAttempt: Map<string, number>[] = [];
    let before = new Map<string, number>();
    const decisions: Decision[] = [];
    let projectId: number | null = null;
    let firstRound = 0;

    for (const [k, share] of KILL_AT.entries()) {
      const attempt = startCli(projectId === null ? [sheet] : ['--project', String(projectId)]);
      if (projectId === null) {
        await waitUntil(() => /Distinct queries:\s+\d+/.test(attempt.stderr()), 30_000, 'the preview of the first run');
        projectId = Number(/into project (\d+)/.exec(attempt.stderr())![1]);
        firstRound = Number(/Distinct queries:\s+(\d+)/.exec(attempt.stderr())![1]);
      }
      const target = Math.floor(share * firstRound);
      let done = false;
      void attempt.exited.then(() => (done = true));
      // Killed once its share of the queries has landed and more rows are written than at the last kill.
      const settledBefore = k === 0 ? 0 : settledCount(dbPath);
      await waitUntil(
        () => done || (sim.counters().queries >= target && settledCount(dbPath) > settledBefore),
        30_000,
        `${Math.round(share * 100)}% of the queries to land (attempt ${k + 1})`,
        5,
      );
      expect(done, `the CLI ended before the kill at ${share * 100}%:\n${attempt.stderr()}`).toBe(false);
      attempt.child.kill('SIGKILL');
      expect((await attempt.exited).signal).toBe('SIGKILL');
      const after = await quietSimulator();
      askedPerAttempt.push(delta(before, after));
      before = after;
      committedAtKill.push(new Map([...committedQueries(dbPath)].map((key) => [key, after.get(key) ?? 0])));
      expect(integrity(dbPath)).toBe('ok');
      decisions.push(...(await decideSome(projectId, k)));
    }
    expect(decisions.length).toBeGreaterThanOrEqual(8);

    const last = startCli(['--project', String(projectId)]);
    const end = await last.exited;
    expect(end, last.stderr()).toEqual({ code: 0, signal: null });
    expect(last.stderr()).toContain(`Wrote ${ROWS} rows to`);
    expect(integrity(dbPath)).toBe('ok');

    // Lookups: nothing the data folder had committed at a kill is ever asked again, and no attempt asks a query twice.
    // What is asked again is exactly what was in flight (sent, not yet committed) at a kill.
    const counts = sim.counters().queryKeys;
    askedPerAttempt.push(delta(before, counts));
    const repeated = [...counts].filter(([, n]) => n > 1);
    console.log(`crashes: ${counts.size} distinct queries, ${repeated.length} asked again after a kill`);
    for (const [k, committed] of committedAtKill.entries()) {
      const askedAgain = [...committed].filter(([key, n]) => counts.get(key) !== n).map(([key]) => key);
      expect(askedAgain, `queries committed before kill ${k + 1} were asked again`).toEqual([]);
    }
    for (const [k, asked] of askedPerAttempt.entries()) {
      expect([...asked].filter(([, n]) => n > 1), `attempt ${k + 1} asked a query twice`).toEqual([]);
    }
    // At most CONCURRENCY calls are on the wire at a kill, as many more may be being read (matching-run.ts
    // sendQueued), and one more may have landed and be committing.
    expect(repeated.length).toBeLessThanOrEqual(KILL_AT.length * (2 * CONCURRENCY + 1) * QUERIES_PER_CALL);

    const db = new Database(dbPath, { readonly: true });
    try {
      // Every answered query is in the cache, once (the key is the table's primary key).
      expect(db.prepare("SELECT count(*) FROM lookups WHERE status = 'ok'").pluck().get()).toBe(counts.size);
      expect(db.prepare("SELECT count(*) FROM row_status WHERE project_id = ? AND state IN ('pending', 'error')").pluck().get(projectId)).toBe(0);
      // Each decision logged exactly once.
      expect(db.prepare('SELECT count(*) FROM decision_log WHERE project_id = ?').pluck().get(projectId)).toBe(decisions.length);
    } finally {
      db.close();
    }

    // Decisions: each as it was made.
    const engine = await openTestEngine(home);
    try {
      for (const d of decisions) {
        const row = await callOk(engine, 'review.row', { projectId, rowIndex: d.rowIndex });
        expect({ rowIndex: d.rowIndex, state: row.state, chosenRank: row.chosenRank, source: row.source }).toEqual({ ...d, source: 'manual' });
      }
    } finally {
      await engine.close();
    }

    // The export: what one uninterrupted run exports (the auto-accept rule applied, as --auto-accept asks),
    // except the rows decided by hand.
    const reference = await referenceExport();
    const out = readCsv(join(tmp.dir, 'out.csv'));
    expect(out).toHaveLength(ROWS + 1);
    const status = out[0]!.indexOf('match_status');
    const skip = new Set(TIMESTAMP_COLUMNS.map((c) => out[0]!.indexOf(c)));
    const decided = new Map(decisions.map((d) => [d.rowIndex + 1, d.state]));
    const differing: number[] = [];
    out.forEach((row, i) => {
      if (decided.has(i)) {
        expect(row[status]).toBe(decided.get(i));
        return;
      }
      if (JSON.stringify(row.filter((_, c) => !skip.has(c))) !== JSON.stringify(reference[i]!.filter((_, c) => !skip.has(c)))) differing.push(i);
    });
    expect(differing.slice(0, 5).map((i) => ({ row: i, resumed: out[i], reference: reference[i] }))).toEqual([]);
  });
});

async function referenceExport(file = sheet, name = 'reference'): Promise<string[][]> {
  sim.setLatency(0);
  const engine = await openTestEngine(join(tmp.dir, name));
  try {
    await connectSimulator(engine, sim);
    const project = await callOk(engine, 'projects.import', { file });
    expect(await runToEnd(engine, project.summary.id)).toMatchObject({ status: 'done', errors: 0 });
    const out = join(tmp.dir, `${name}.csv`);
    await callOk(engine, 'export.run', { projectId: project.summary.id, format: 'csv', scope: 'all', destination: out });
    expect(existsSync(out)).toBe(true);
    return readCsv(out);
  } finally {
    await engine.close();
    sim.setLatency(LATENCY_MS);
  }
}

describe('a CLI run killed while it follows its plan', () => {
  it('goes on with --project: the plan is made again, nothing committed is asked again, and it writes what a run after the plan writes', async () => {
    // Six pages of the plan (10,000 rows each): the run settles the first rows while the last are being planned.
    const rows = Array.from({ length: 6 }, () => sheetRows(sim.dataset.people, 10_000)).flat();
    const file = writeCsv(join(tmp.dir, 'followed.csv'), SHEET_HEADERS, rows);
    const followHome = join(tmp.dir, 'follow-home');
    const dbPath = join(followHome, DATABASE_FILE);
    const read = <T>(sql: string): T => readOne<T>(dbPath, sql);
    // Before the CLI's first start has made its tables, nothing is settled.
    const settledByRun = () => {
      try {
        return read<number>('SELECT count(*) FROM row_status WHERE fetched_at IS NOT NULL');
      } catch {
        return 0;
      }
    };
    sim.resetCounters();
    const first = startCli([file], followHome);
    onTestFinished(() => void first.child.kill('SIGKILL'));
    let done = false;
    void first.exited.then(() => (done = true));
    await waitUntil(() => done || (existsSync(dbPath) && settledByRun() > 0), 60_000, 'the first rows settled', 5);
    first.child.kill('SIGKILL');
    expect((await first.exited).signal, first.stderr()).toBe('SIGKILL');
    expect(read<string | null>('SELECT plan_scope FROM projects'), 'the plan was whole before the kill').toBeNull();
    const asked = await quietSimulator();
    const committed = committedQueries(dbPath);
    expect(committed.size).toBeGreaterThan(0);
    expect(integrity(dbPath)).toBe('ok');

    const projectId = Number(/into project (\d+)/.exec(first.stderr())![1]);
    const last = startCli(['--project', String(projectId)], followHome);
    expect(await last.exited, last.stderr()).toEqual({ code: 0, signal: null });
    expect(last.stderr()).toContain(`Wrote ${rows.length} rows to`);
    expect(integrity(dbPath)).toBe('ok');
    const counts = sim.counters().queryKeys;
    expect([...committed].filter((key) => counts.get(key) !== asked.get(key)), 'committed queries asked again').toEqual([]);

    const reference = await referenceExport(file, 'follow-reference');
    const out = readCsv(join(tmp.dir, 'out.csv'));
    const skip = new Set(TIMESTAMP_COLUMNS.map((c) => out[0]!.indexOf(c)));
    const differing = out.map((row, i) => i).filter((i) => JSON.stringify(out[i]!.filter((_, c) => !skip.has(c))) !== JSON.stringify(reference[i]!.filter((_, c) => !skip.has(c))));
    expect(out).toHaveLength(rows.length + 1);
    expect(differing.slice(0, 5).map((i) => ({ row: i, resumed: out[i], reference: reference[i] }))).toEqual([]);
  }, 180_000);
});

describe('clearing the cache killed part-way', () => {
  it('leaves every answer on file and the rows sent back so far pending: the next run settles them from the cache', async () => {
    const clearHome = join(tmp.dir, 'clear-home');
    const dbPath = join(clearHome, DATABASE_FILE);
    // 20,000 rows (a 4,000-row sheet 5 times): the clearing sends them back in 4 slices, one transaction each, so the
    // kill that follows the first still finds up to three slices and the answers to go.
    // The service's latency is no part of this: answers come at once.
    sim.setLatency(0);
    onTestFinished(() => sim.setLatency(LATENCY_MS));
    const rows = Array.from({ length: 5 }, () => sheetRows(sim.dataset.people, 4_000)).flat();
    const file = writeCsv(join(tmp.dir, 'clear.csv'), SHEET_HEADERS, rows);
    let engine = await openTestEngine(clearHome);
    let projectId: number;
    let settled: Record<string, number>;
    try {
      await connectSimulator(engine, sim);
      projectId = (await callOk(engine, 'projects.import', { file })).summary.id;
      expect((await runToEnd(engine, projectId)).status).toBe('done');
      settled = (await callOk(engine, 'review.page', { projectId, offset: 0, limit: 1 })).counts;
    } finally {
      await engine.close();
    }
    const read = <T>(sql: string): T => readOne<T>(dbPath, sql);
    const answers = read<number>('SELECT count(*) FROM lookups');
    expect(answers).toBeGreaterThan(1000);

    const child = spawn(process.execPath, [cli, 'cache', 'clear'], { cwd: ROOT, env: { ...process.env, MATCHDESK_HOME: clearHome }, stdio: 'ignore' });
    children.add(child);
    const exited = new Promise<NodeJS.Signals | null>((done) => child.on('exit', (_code, signal) => done(signal)));
    let done = false;
    void exited.then(() => (done = true));
    await waitUntil(() => done || read<number>("SELECT count(*) FROM row_status WHERE outcome = 'pending'") > 0, 30_000, 'the first rows sent back', 5);
    child.kill('SIGKILL');
    expect(await exited, 'the clearing ended before it could be killed').toBe('SIGKILL');
    expect(integrity(dbPath)).toBe('ok');
    const pending = read<number>("SELECT count(*) FROM row_status WHERE outcome = 'pending'");
    expect(pending).toBeGreaterThan(0);
    expect(pending).toBeLessThan(rows.length);
    expect(read<number>('SELECT count(*) FROM lookups')).toBe(answers);

    sim.resetCounters();
    engine = await openTestEngine(clearHome);
    try {
      // The test engine keeps secrets for its session only: the same service is connected again.
      await connectSimulator(engine, sim);
      expect((await runToEnd(engine, projectId)).status).toBe('done');
      expect(sim.counters().findCalls).toBe(0);
      expect((await callOk(engine, 'review.page', { projectId, offset: 0, limit: 1 })).counts).toEqual(settled);
    } finally {
      await engine.close();
    }
  }, 120_000);
});
