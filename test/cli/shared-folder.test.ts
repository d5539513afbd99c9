// The desktop app, the browser host and the CLI may share one data folder (README). Two `matchdesk match` at once on
// one folder, as a user's scripts or a script beside the open app do: both finish, neither "database is locked".
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../../electron/simulator/server';
import { connectionTo, runMatchdesk } from './matchdesk-process';

let sim: Simulator;
let dir: string;
/** Each sheet's rows: enough for the two runs' imports, calls and writes to interleave throughout. */
const ROWS = 10_000;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'matchdesk-cli-shared-'));
  sim = await startSimulator({ port: 0, people: 3000, seed: 5 });
});
afterAll(async () => {
  await sim?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('one data folder, two commands at once', () => {
  it('runs two matches side by side to the end, each writing its file', async () => {
    const people = sim.dataset.people;
    const sheet = (name: string, offset: number) => {
      const lines = ['Name,Email,Company'];
      for (let i = 0; i < ROWS; i++) {
        const p = people[(offset + i) % people.length]!;
        lines.push(`${p.name},${i % 3 === 0 ? p.email_address : `${name}-${i}@nowhere.example`},Company ${i % 400}`);
      }
      const file = join(dir, `${name}.csv`);
      writeFileSync(file, `${lines.join('\n')}\n`);
      return file;
    };
    const connection = connectionTo(sim);
    const opts = { cwd: dir, home: join(dir, 'home'), connection };
    // The folder is made first, as an app already open would have it.
    expect((await runMatchdesk(['projects'], opts)).code).toBe(0);
    const runs = await Promise.all(
      ['first', 'second'].map((name, n) => runMatchdesk(['match', sheet(name, n * 1000), '--out', join(dir, `${name}-out.csv`), '--yes'], opts)),
    );
    for (const [n, run] of runs.entries()) {
      expect(run.stderr).not.toContain('database is locked');
      expect(run.code, run.stderr).toBe(0);
      expect(readFileSync(join(dir, `${['first', 'second'][n]}-out.csv`), 'utf8').split('\n').filter(Boolean)).toHaveLength(ROWS + 1);
    }
  }, 120_000);
});
