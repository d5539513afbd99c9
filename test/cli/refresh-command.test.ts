// `matchdesk refresh` and `matchdesk export --changes-only`, the real CLI in a child process against a simulator
// whose world moves on: the preview first, one query per person, what changed written out; killed part-way with
// SIGKILL and run again, it goes on where it stopped and asks nobody whose answer had landed.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_FILE, createEngine } from '../../electron/engine/engine';
import { SessionSecretStore } from '../../electron/engine/secrets';
import { startSimulator, type Simulator } from '../../electron/simulator';
import { HEADERS, readCsv, truthSheet } from '../engine/refresh/refresh-fixture';
import { writeCsv } from '../engine/core/helpers';
import { cliBundle } from '../support/cli-bundle';
import { connectionTo, runMatchdesk, type Connection } from './matchdesk-process';

let dir: string;
let sim: Simulator;
let connection: Connection;
const children = new Set<ChildProcess>();

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'matchdesk-cli-refresh-'));
  sim = await startSimulator({ port: 0, people: 6000, seed: 9 });
  connection = connectionTo(sim);
});
afterAll(async () => {
  for (const child of children) child.kill('SIGKILL');
  await sim?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const run = (home: string, args: string[]) => runMatchdesk(args, { cwd: dir, home, connection });

/** A sheet of people with their e-mail and current company, matched and auto-accepted by the CLI. */
async function matchedHome(name: string, rows: number): Promise<string> {
  const home = join(dir, name);
  const sheet = truthSheet(sim.dataset.people, { still: rows, moved: 0, left: 0, again: 0, near_name: 0, nobody: 0 });
  const file = writeCsv(join(dir, `${name}.csv`), HEADERS, sheet.map((r) => r.cells));
  const matched = await run(home, ['match', file, '--out', join(dir, `${name}-matched.csv`), '--auto-accept', '--yes']);
  expect(matched.code, matched.stderr).toBe(0);
  return home;
}

function socialAsked(): Map<string, number> {
  return new Map([...sim.counters().queryKeys].filter(([key]) => key.includes('"social"')).map(([key, n]) => [JSON.parse(key)[0].search_term as string, n]));
}

describe('matchdesk refresh', () => {
  it('previews, asks each chosen person once, says what changed, and export --changes-only writes those rows', async () => {
    const home = await matchedHome('plain', 250);
    const report = sim.moveOn({ share: 0.3, seed: 21 });
    const changedPeople = new Set([...report.moved, ...report.left]);
    sim.resetCounters();

    const refreshed = await run(home, ['refresh', '--project', '1', '--yes']);
    expect(refreshed.code, refreshed.stderr).toBe(0);
    expect(refreshed.stderr).toMatch(/Matched rows:\s+250/);
    expect(refreshed.stderr).toMatch(/People to ask:\s+250 \(each once, by profile\)/);
    expect(refreshed.stderr).toMatch(/Calls:\s+3/);
    expect(refreshed.stderr).toMatch(/Estimated time:/);
    expect(refreshed.stderr).toMatch(/Asked 250 people in 3 calls: 250 matched rows brought up to date, \d+ of them with a job change since\./);
    expect(refreshed.stderr).toMatch(/Matched rows now: \d+ moved, \d+ left, \d+ still there, 0 unknown\./);
    expect([...socialAsked().values()]).toEqual(new Array(250).fill(1));

    const out = join(dir, 'changes.csv');
    const exported = await run(home, ['export', '1', '--changes-only', '--out', out]);
    expect(exported.code, exported.stderr).toBe(0);
    const rows = readCsv(out);
    const byEmail = new Map(sim.dataset.people.map((p) => [p.email_address, p]));
    expect(rows.length).toBeGreaterThan(30);
    expect(rows.every((r) => r.match_changed_since_refresh === 'yes' && changedPeople.has(byEmail.get(r['Work Email']!)!.id))).toBe(true);
    const sheetRows = readCsv(join(dir, 'plain-matched.csv'));
    expect(rows.map((r) => r['Work Email'])).toEqual(sheetRows.map((r) => r['Work Email']).filter((email) => changedPeople.has(byEmail.get(email!)!.id)));
    expect(exported.stdout).toContain(`Wrote ${rows.length} rows`);
  });

  it('refuses to send without --yes off a terminal, and an --older-than that is no number', async () => {
    const home = join(dir, 'refusals');
    const noYes = await run(home, ['refresh', '--project', '1']);
    expect(noYes.code).toBe(2);
    expect(noYes.stderr).toMatch(/add --yes/);
    const bad = await run(home, ['refresh', '--project', '1', '--older-than', 'soon', '--yes']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--older-than takes a number of days/);
  });

  it('a refresh every call of which failed exits 3 saying so, and the next run goes on with it', async () => {
    const home = await matchedHome('outage', 40);
    sim.setFaults('outage');
    try {
      const failed = await run(home, ['refresh', '--project', '1', '--yes']);
      expect(failed.code, failed.stderr).toBe(3);
      expect(failed.stderr).toMatch(/matchdesk refresh: Every call failed, so nobody was refreshed: The service failed with HTTP 5\d\d/);
      expect(failed.stderr).toMatch(/Go on with "matchdesk refresh --project 1 --yes"/);
      expect(failed.stderr).not.toMatch(/Asked \d+ people/);
    } finally {
      sim.setFaults('none');
    }
    const again = await run(home, ['refresh', '--project', '1', '--yes']);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toMatch(/Going on with the refresh started .*: 0 of 40 people already asked, 40 to go\./);
    expect(again.stderr).toMatch(/Asked 40 people in \d+ calls?: 40 matched rows brought up to date/);
  }, 60_000);

  it('killed part-way and run again: goes on, asking nobody whose answer had landed', async () => {
    const home = await matchedHome('killed', 900);
    // One call at a time, slowly: the kill lands between calls that have committed and calls still to make.
    const engine = await createEngine({ dataDir: home, host: 'cli', secrets: new SessionSecretStore(), version: 'test' });
    await engine.invoke('settings.update', { concurrency: 1 });
    await engine.close();
    sim.moveOn({ share: 0.3, seed: 22 });
    sim.setLatency(300);
    sim.resetCounters();

    const child = spawn(process.execPath, [await cliBundle(), 'refresh', '--project', '1', '--yes'], {
      cwd: dir,
      env: { ...process.env, MATCHDESK_HOME: home, DBUS_SESSION_BUS_ADDRESS: 'disabled:', ...connection },
      stdio: ['ignore', 'ignore', 'ignore'],
    });
    children.add(child);
    const exited = new Promise<void>((done) => child.on('exit', () => done()));
    const found = () => {
      const db = new Database(join(home, DATABASE_FILE), { readonly: true });
      try {
        return db.prepare("SELECT slug FROM refresh_people WHERE state = 'found'").pluck().all() as string[];
      } catch {
        return [];
      } finally {
        db.close();
      }
    };
    const deadline = Date.now() + 60_000;
    while (found().length < 200 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    child.kill('SIGKILL');
    await exited;
    children.delete(child);
    const landed = found();
    expect(landed.length).toBeGreaterThanOrEqual(200);
    expect(landed.length).toBeLessThan(900);

    sim.setLatency(0);
    const again = await run(home, ['refresh', '--project', '1', '--yes']);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toMatch(/Going on with the refresh started/);
    const asked = socialAsked();
    expect(asked.size).toBe(900);
    expect(landed.filter((slug) => asked.get(slug) !== 1)).toEqual([]);
    // Only the call in flight at the kill is asked again.
    expect(sim.counters().queries).toBeLessThanOrEqual(900 + 100);
  });
});
