// `matchdesk watch`, `matchdesk refresh --due` and `matchdesk export --changes-since`, the real CLI in a child process
// against a simulator whose world moves on an epoch: a due watch is refreshed, a blocked one says why and exits 0, one
// while the service cannot be reached waits and exits 0, and the changes since a day are written one row a change.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_FILE } from '../../electron/engine/engine';
import { startSimulator, type Simulator } from '../../electron/simulator';
import { writeCsv } from '../engine/core/helpers';
import { HEADERS, readCsv, truthSheet } from '../engine/refresh/refresh-fixture';
import { connectionTo, runMatchdesk, type Connection } from './matchdesk-process';

let dir: string;
let sim: Simulator;
let connection: Connection;
let home: string;
/** The people the sheet's rows are about, in sheet order. */
let people: (string | null)[];
let chosen: Set<string | null>;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'matchdesk-cli-watch-'));
  sim = await startSimulator({ port: 0, people: 6000, seed: 9, epochs: { share: 0.3, seed: 2 } });
  connection = connectionTo(sim);
  home = join(dir, 'home');
  const sheet = truthSheet(sim.dataset.people, { still: 200, moved: 0, left: 0, again: 0, near_name: 0, nobody: 0 });
  people = sheet.map((r) => r.personId);
  chosen = new Set(people);
  const file = writeCsv(join(dir, 'people.csv'), HEADERS, sheet.map((r) => r.cells));
  const matched = await run(['match', file, '--out', join(dir, 'matched.csv'), '--auto-accept', '--yes']);
  expect(matched.code, matched.stderr).toBe(0);
});
afterAll(async () => {
  await sim?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const run = (args: string[], conn: Connection = connection) => runMatchdesk(args, { cwd: dir, home, connection: conn });

/** Time passes: the watch's next refresh is moved into the past (the CLI runs on the machine's clock). */
function makeDue(): void {
  const db = new Database(join(home, DATABASE_FILE));
  try {
    db.prepare("UPDATE watches SET next_due_at = '2020-01-01T00:00:00.000Z'").run();
  } finally {
    db.close();
  }
}

describe('matchdesk watch and refresh --due', () => {
  it('sets a watch, refreshes it when due (and not before), and writes the changes since a day for a CRM', async () => {
    const set = await run(['watch', 'set', '--project', '1', '--every', '30', '--credit-ceiling', '1000']);
    expect(set.code, set.stderr).toBe(0);
    expect(set.stdout).toMatch(/Watching "people": every 30 days, up to 1000 credits a refresh, with the profile "From environment"; next refresh \d{4}-/);

    const early = await run(['refresh', '--due', '--yes']);
    expect(early.code, early.stderr).toBe(0);
    expect(early.stderr).toMatch(/No watch is due; the next is "people" at \d{4}-/);

    const epoch = sim.advance();
    const changed = new Set([...epoch.moved, ...epoch.left].filter((id) => chosen.has(id)));
    expect(changed.size).toBeGreaterThan(20);
    makeDue();
    sim.resetCounters();
    const due = await run(['refresh', '--due', '--yes']);
    expect(due.code, due.stderr).toBe(0);
    expect(due.stderr).toMatch(/Due: "people" \(project 1\)/);
    expect(due.stderr).toMatch(/200 people asked: \d+ moved, \d+ left, \d+ changed title\./);
    expect(sim.counters().queries).toBe(200);

    // The inbox names each change's row as the spreadsheet numbers it: the header is row 1.
    const inbox = await run(['watch', 'inbox', '--project', '1']);
    expect(inbox.code, inbox.stderr).toBe(0);
    const rowNumbers = [...inbox.stdout.matchAll(/^[! ] row (\d+) {2}/gm)].map((m) => Number(m[1]));
    const changedRows = people.flatMap((id, i) => (id !== null && changed.has(id) ? [i + 2] : []));
    expect(rowNumbers).toEqual(changedRows);

    const list = await run(['watch', 'list']);
    expect(list.stdout).toMatch(/1 {2}people: every 30 days, up to 1000 credits a refresh; next \d{4}-/);

    const today = new Date().toISOString().slice(0, 10);
    const out = join(dir, 'changes.csv');
    const exported = await run(['export', '1', '--changes-since', today, '--out', out]);
    expect(exported.code, exported.stderr).toBe(0);
    const rows = readCsv(out);
    expect(new Set(rows.map((r) => r.change_person_id))).toEqual(changed);
    for (const row of rows) {
      const person = sim.dataset.people.find((p) => p.id === row.change_person_id)!;
      expect(row.change_kind).toBe(epoch.left.includes(person.id) ? 'left' : 'moved');
      expect(row.change_new_company).toBe(person.jobs.find((j) => j.ended_at === null)?.company.name ?? '');
      expect(row.change_old_company).toBe(row.Company);
      expect(row.change_detected_date).toBe(today);
    }

    const bad = await run(['export', '1', '--changes-since', '2026-02-30', '--out', out]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--changes-since takes a day as YYYY-MM-DD/);
  }, 120_000);

  it('a due watch whose profile has no secret is not run: it says why, exits 0 and stays due', async () => {
    makeDue();
    sim.resetCounters();
    // No connection in the environment: the watch's profile kept its secret for that process only.
    const blocked = await run(['refresh', '--due', '--yes'], {});
    expect(blocked.code, blocked.stderr).toBe(0);
    expect(blocked.stderr).toMatch(/not refreshed: No secret is stored for the profile "From environment"/);
    expect(sim.counters().calls).toBe(0);
    const list = await run(['watch', 'list'], {});
    expect(list.stdout).toMatch(/due now\n {4}blocked: No secret is stored/);
  });

  it('refuses --due with a project, and a watch without a schedule', async () => {
    expect((await run(['refresh', '--due', '--project', '1', '--yes'])).code).toBe(2);
    const noSchedule = await run(['watch', 'set', '--project', '1']);
    expect(noSchedule.code).toBe(2);
    expect(noSchedule.stderr).toMatch(/--every DAYS \(e\.g\. 30\) or --weekly DAY/);
  });

  it('a due watch while the service cannot be reached waits: it says so, exits 0, begins no refresh and stays due', async () => {
    makeDue();
    const refreshes = () => {
      const db = new Database(join(home, DATABASE_FILE));
      try {
        return db.prepare('SELECT count(*) FROM refreshes').pluck().get() as number;
      } finally {
        db.close();
      }
    };
    const before = refreshes();
    const port = Number(new URL(sim.baseUrl).port);
    await sim.close();
    try {
      const waiting = await run(['refresh', '--due', '--yes']);
      expect(waiting.code, waiting.stderr).toBe(0);
      expect(waiting.stderr).toMatch(/not refreshed: Waiting for the service: Could not get an answer from 127\.0\.0\.1:\d+/);
      expect(refreshes()).toBe(before);
      const list = await run(['watch', 'list'], {});
      expect(list.stdout).toMatch(/due now\n {4}last \([^)]+\): Waiting for the service: /);
      expect(list.stdout).not.toMatch(/blocked/);
    } finally {
      sim = await startSimulator({ port, people: 6000, seed: 9, epochs: { share: 0.3, seed: 2 } });
    }
  });
});
