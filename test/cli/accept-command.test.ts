// The confidence threshold from the command line: `match --min-confidence` for the run, then `accept` showing how
// many rows each threshold takes and accepting at one. The real CLI in a child process against a simulator.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../../electron/simulator/server';

const BIN = resolve(__dirname, '../../bin/matchdesk.mjs');

let sim: Simulator;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'matchdesk-cli-accept-'));
  sim = await startSimulator({ port: 0, people: 3000, seed: 5 });
});

afterAll(async () => {
  await sim?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

function matchdesk(args: string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: dir,
      env: {
        ...process.env,
        MATCHDESK_HOME: join(dir, 'home'),
        MATCHDESK_BASE_URL: sim.baseUrl,
        MATCHDESK_ORG_ID: sim.orgId,
        MATCHDESK_CLIENT_ID: sim.demo.clientId,
        MATCHDESK_CLIENT_SECRET: sim.demo.clientSecret,
        DBUS_SESSION_BUS_ADDRESS: 'disabled:',
      },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdin.end();
    child.on('error', fail);
    child.on('close', (code) => done({ code, stderr }));
  });
}

/** People the service finds by name + company alone: a name nobody else has, and a current employer. */
function uniquePeople(count: number) {
  const names = new Map<string, number>();
  for (const p of sim.dataset.people) names.set(p.name, (names.get(p.name) ?? 0) + 1);
  return sim.dataset.people.filter((p) => names.get(p.name) === 1 && p.jobs[0]?.ended_at === null).slice(0, count);
}

function statuses(path: string): string[] {
  const rows = Papa.parse<Record<string, string>>(readFileSync(path, 'utf8').replace(/^\uFEFF/, ''), { header: true, skipEmptyLines: true }).data;
  return rows.map((r) => r.match_status!);
}

describe('matchdesk match --min-confidence, then matchdesk accept', () => {
  it('leaves rows below the run\'s threshold for review, counts them per threshold, and accepts them at a lower one', async () => {
    const people = uniquePeople(8);
    const sheet = join(dir, 'people.csv');
    writeFileSync(sheet, `Name,Company\r\n${people.map((p) => `${p.name},${p.jobs[0]!.company.name}`).join('\r\n')}\r\n`);

    // Name and employer alone never reach 0.9999 (an e-mail or profile hit can): every row waits for review.
    const run = await matchdesk(['match', sheet, '--out', join(dir, 'strict.csv'), '--auto-accept', '--min-confidence', '0.9999', '--yes']);
    expect(run.code, run.stderr).toBe(0);
    expect(statuses(join(dir, 'strict.csv'))).toEqual(people.map(() => 'to_review'));
    expect(run.stderr).toContain('Rows waiting for review that a threshold would accept');
    expect(run.stderr).toMatch(/at or above 0\.95:\s+8 row\(s\) \(setting\)/);
    expect(run.stderr).toContain('To accept at a threshold: matchdesk accept --project 1 --min-confidence X');

    const accepted = await matchdesk(['accept', '--project', '1', '--min-confidence', '0.95', '--yes']);
    expect(accepted.code, accepted.stderr).toBe(0);
    expect(accepted.stderr).toContain('Accepted 8 row(s) at or above 0.95');
    const exported = await matchdesk(['export', '1', '--out', join(dir, 'after.csv')]);
    expect(exported.code, exported.stderr).toBe(0);
    expect(statuses(join(dir, 'after.csv'))).toEqual(people.map(() => 'auto'));

    const nothingLeft = await matchdesk(['accept', '--project', '1', '--yes']);
    expect(nothingLeft.stderr).toContain('nothing changed');
  });

  it('refuses a threshold outside 0.5 to 1 before doing anything', async () => {
    const result = await matchdesk(['match', join(dir, 'people.csv'), '--out', join(dir, 'x.csv'), '--min-confidence', '0.3', '--yes']);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain('--min-confidence takes a confidence from 0.5 to 1 (e.g. 0.9), not "0.3"');
  });
});
