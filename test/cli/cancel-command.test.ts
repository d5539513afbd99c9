// Ctrl-C while `matchdesk import`, `matchdesk match` (planning), `matchdesk export` or `matchdesk accept` works on a large
// sheet: the real CLI in a child process, signalled part-way. It cancels the call instead of dying in the middle of it:
// no half-made project, no part file, no row accepted; a run already following its plan is paused, kept to go on with.
import Database from 'better-sqlite3';
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT_CODES } from '../../electron/cli/exit-codes';
import { startSimulator } from '../../electron/simulator/server';
import { currentCompany, findablePeople } from '../engine/core/helpers';
import { connectionTo, runMatchdesk } from './matchdesk-process';

let dir: string;
let sheet: string;
/** Rows enough that importing or planning them is still under way when the Ctrl-C lands. */
const ROWS = 200_000;
/**
 * Writing a workbook takes far longer a row than importing one: these rows keep the export under way well after its
 * part file appears.
 */
const EXPORT_ROWS = 40_000;

/** A Name,Email,Company sheet of `rows` made-up people. */
function writeSheet(name: string, rows: number): string {
  const path = join(dir, name);
  writeFileSync(path, ['Name,Email,Company', ...Array.from({ length: rows }, (_, i) => `Person ${i},p${i}@example.com,Company ${i % 700}`)].join('\n') + '\n');
  return path;
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'matchdesk-cli-cancel-'));
  sheet = writeSheet('people.csv', ROWS);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Sends the child SIGINT once `underWay` holds (looked at every 20 ms), as a user's Ctrl-C part-way. */
function interruptWhen(underWay: () => boolean): { whileRunning: (child: ChildProcess) => void; interrupted: () => boolean } {
  let sent = false;
  return {
    interrupted: () => sent,
    whileRunning: (child) => {
      const timer = setInterval(() => {
        if (child.exitCode !== null || child.signalCode !== null) return clearInterval(timer);
        if (!underWay()) return;
        sent = child.kill('SIGINT');
        clearInterval(timer);
      }, 20);
    },
  };
}

/** Reads the data file beside the CLI; null when it is not there, or not made yet. */
function readData<T>(home: string, read: (db: Database.Database) => T): T | null {
  const path = join(home, 'matchdesk.sqlite');
  if (!existsSync(path)) return null;
  try {
    const db = new Database(path, { readonly: true, fileMustExist: true });
    try {
      return read(db);
    } finally {
      db.close();
    }
  } catch {
    return null; // made but not migrated yet
  }
}

/** The data file's projects by status. */
function projectStatuses(home: string): string[] {
  return readData(home, (db) => db.prepare('SELECT status FROM projects ORDER BY id').pluck().all() as string[]) ?? [];
}

/** True while a project's queries are being planned: some rows have a status, and the plan is not done. */
function planning(home: string): boolean {
  return (
    readData(home, (db) => {
      const project = db.prepare("SELECT id, plan_scope FROM projects WHERE status = 'ready'").get() as { id: number; plan_scope: string | null } | undefined;
      return project !== undefined && project.plan_scope === null && db.prepare('SELECT 1 FROM row_status WHERE project_id = ? LIMIT 1').get(project.id) !== undefined;
    }) ?? false
  );
}

describe('Ctrl-C while a large sheet is imported, planned, exported or its confident rows accepted', () => {
  it('cancels the import: exit 130, the reason in one line, and no project', async () => {
    const home = join(dir, 'home-import');
    const signal = interruptWhen(() => projectStatuses(home).includes('importing'));
    const outcome = await runMatchdesk(['import', sheet], { cwd: dir, home, connection: {}, ...signal });
    expect(signal.interrupted(), 'the import ended before it could be interrupted').toBe(true);
    expect(outcome.code, outcome.stderr).toBe(EXIT_CODES.interrupted);
    expect(outcome.stderr).toBe('matchdesk import: The import of people.csv was cancelled: nothing of it was kept.\n');
    expect(projectStatuses(home)).toEqual([]);
    const listed = await runMatchdesk(['projects', '--json'], { cwd: dir, home, connection: {} });
    expect(JSON.parse(listed.stdout)).toEqual([]);
  });

  it('cancels the planning of `matchdesk match --offline`: exit 130, nothing sent, and the project it imported removed again', async () => {
    const sim = await startSimulator({ port: 0, people: 1000, seed: 3 });
    try {
      const home = join(dir, 'home-match');
      const out = join(dir, 'never.csv');
      const signal = interruptWhen(() => planning(home));
      const outcome = await runMatchdesk(['match', sheet, '--out', out, '--yes', '--offline'], { cwd: dir, home, connection: connectionTo(sim), ...signal });
      expect(signal.interrupted(), 'the planning ended before it could be interrupted').toBe(true);
      expect(outcome.code, outcome.stderr).toBe(EXIT_CODES.interrupted);
      expect(outcome.stderr).toContain('matchdesk match: Cancelled while planning the queries: nothing was sent.\nThe project imported for this run was removed again.\n');
      expect(projectStatuses(home)).toEqual([]);
      expect(existsSync(out)).toBe(false);
      expect(sim.counters().findCalls).toBe(0);
    } finally {
      await sim.close();
    }
  });

  it('stops `matchdesk match --yes` while its run follows the plan: exit 130, the project kept to go on with, no file', async () => {
    const sim = await startSimulator({ port: 0, people: 1000, seed: 3 });
    try {
      const home = join(dir, 'home-match-following');
      const out = join(dir, 'not-yet.csv');
      const running = () => readData(home, (db) => db.prepare('SELECT 1 FROM runs LIMIT 1').get() !== undefined) ?? false;
      const signal = interruptWhen(() => planning(home) && running());
      const outcome = await runMatchdesk(['match', sheet, '--out', out, '--yes'], { cwd: dir, home, connection: connectionTo(sim), ...signal });
      expect(signal.interrupted(), 'the planning ended before it could be interrupted').toBe(true);
      expect(outcome.code, outcome.stderr).toBe(EXIT_CODES.interrupted);
      // The run started beside the plan: what landed is kept, and --project goes on from there.
      expect(outcome.stderr).toContain(`Stopped. Everything that landed is kept; run "matchdesk match --project 1 --out ${out} --yes" to go on.`);
      expect(projectStatuses(home)).toEqual(['ready']);
      expect(existsSync(out)).toBe(false);
      expect(readData(home, (db) => db.prepare('SELECT status FROM runs').pluck().all())).toEqual(['paused']);
      const stored = readData(home, (db) => db.prepare('SELECT count(*) FROM lookups').pluck().get() as number);
      expect(stored).toBeLessThanOrEqual(sim.counters().queries);
    } finally {
      await sim.close();
    }
  });

  it('cancels the export: exit 130, the file there as it was, and no part file beside it', async () => {
    const home = join(dir, 'home-export');
    const opts = { cwd: dir, home, connection: {} };
    expect((await runMatchdesk(['import', writeSheet('to-export.csv', EXPORT_ROWS)], opts)).code).toBe(0);
    const outDir = join(dir, 'out');
    mkdirSync(outDir);
    const out = join(outDir, 'matches.xlsx');
    writeFileSync(out, 'the export of last week');

    const signal = interruptWhen(() => existsSync(`${out}.part`));
    const outcome = await runMatchdesk(['export', '1', '--out', out], { ...opts, ...signal });
    expect(signal.interrupted(), 'the export ended before it could be interrupted').toBe(true);
    expect(outcome.code, outcome.stderr).toBe(EXIT_CODES.interrupted);
    expect(outcome.stderr).toBe('matchdesk export: The export was cancelled: matches.xlsx was left as it was.\n');
    expect(readFileSync(out, 'utf8')).toBe('the export of last week');
    expect(readdirSync(outDir)).toEqual(['matches.xlsx']);
  });
  it('cancels `matchdesk accept`: exit 130, and every row it had accepted back in review', async () => {
    const sim = await startSimulator({ port: 0, people: 2000, seed: 3 });
    try {
      const home = join(dir, 'home-accept');
      const connection = connectionTo(sim);
      // 30,000 rows of people that name and company find (each 60 times): left for review without --auto-accept, then
      // accepted 500 at a time, several seconds in all.
      const people = findablePeople(sim).slice(0, 500);
      const confident = join(dir, 'confident.csv');
      const lines = Array.from({ length: 60 }, () => people.map((p) => `${p.name},${currentCompany(p)}`)).flat();
      writeFileSync(confident, ['Name,Company', ...lines].join('\n') + '\n');
      const matched = await runMatchdesk(['match', confident, '--out', join(dir, 'confident-out.csv'), '--yes'], { cwd: dir, home, connection });
      expect(matched.code, matched.stderr).toBe(0);
      const toReview = () => readData(home, (db) => db.prepare("SELECT count(*) FROM row_status WHERE state = 'to_review'").pluck().get() as number);
      const waiting = toReview();
      expect(waiting).toBeGreaterThan(20_000);

      // Interrupted once its first slices are written.
      const signal = interruptWhen(() => (readData(home, (db) => db.prepare("SELECT count(*) FROM row_status WHERE state = 'auto'").pluck().get() as number) ?? 0) > 0);
      const outcome = await runMatchdesk(['accept', '--project', '1', '--min-confidence', '0.5', '--yes'], { cwd: dir, home, connection, ...signal });
      expect(signal.interrupted(), 'the accept ended before it could be interrupted').toBe(true);
      expect(outcome.code, outcome.stderr).toBe(EXIT_CODES.interrupted);
      expect(outcome.stderr).toContain('matchdesk accept: Accepting the confident rows was cancelled: no row was changed.\n');
      expect(toReview()).toBe(waiting);
      expect(readData(home, (db) => db.prepare('SELECT count(*) FROM decision_log WHERE undone_at IS NULL').pluck().get())).toBe(0);
    } finally {
      await sim.close();
    }
  }, 120_000);
});
