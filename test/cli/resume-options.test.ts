// `matchdesk match` stopped with Ctrl-C part-way and run again as it says to go on (`--project N --out F --yes`, none of
// the first command's options): the run goes on under the options it started with, so the file it writes is the
// file the same run left alone writes.
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT_CODES } from '../../electron/cli/exit-codes';
import { buildEvaluationSet } from '../../electron/simulator/evaluation-set';
import { startSimulator, type Simulator } from '../../electron/simulator';
import { writeCsv } from '../engine/core/helpers';
import { connectionTo, runMatchdesk, type Connection } from './matchdesk-process';

let dir: string;
let sim: Simulator;
let connection: Connection;
let sheet: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'matchdesk-cli-resume-'));
  sim = await startSimulator({ port: 0, people: 3000, seed: 1, latencyMs: 60 });
  connection = connectionTo(sim);
  const set = buildEvaluationSet(sim.dataset, { seed: 7, rowsPerCategory: 40 });
  sheet = writeCsv(join(dir, 'people.csv'), set.headers, set.rows);
});
afterAll(async () => {
  await sim.close();
  rmSync(dir, { recursive: true, force: true });
});

const FIRST = ['--auto-accept', '--min-confidence', '0.99', '--concurrency', '1', '--map', 'profile=3', '--yes'];

/** The rows of an exported CSV, without the columns that say when (fetched, decided). */
function exported(file: string): string[][] {
  const rows = Papa.parse<string[]>(readFileSync(file, 'utf8'), { skipEmptyLines: true }).data;
  const drop = new Set(['match_fetched_at', 'match_decided_at'].map((c) => rows[0]!.indexOf(c)));
  return rows.map((r) => r.filter((_, i) => !drop.has(i)));
}

describe('matchdesk match, stopped and run again to go on', () => {
  it('writes what the same run left alone writes, with the options it started with', async () => {
    const aloneHome = join(dir, 'alone');
    const alone = await runMatchdesk(['match', sheet, '--out', join(dir, 'alone.csv'), ...FIRST], { cwd: dir, home: aloneHome, connection });
    expect(alone.code, alone.stderr).toBe(EXIT_CODES.ok);
    const expected = exported(join(dir, 'alone.csv'));
    const statuses = new Set(expected.slice(1).map((r) => r[expected[0]!.indexOf('match_status')]));
    expect(statuses.has('auto') && statuses.has('to_review')).toBe(true);

    const home = join(dir, 'stopped');
    const out = join(dir, 'stopped.csv');
    // Ctrl-C once the service has answered two of the run's six calls, four calls (60 ms each) before its end. The
    // run's stored counters would say so only when next saved (every 2 s), which can be after the run has ended.
    const findCallsBefore = sim.counters().findCalls;
    const first = await runMatchdesk(['match', sheet, '--out', out, ...FIRST], {
      cwd: dir,
      home,
      connection,
      whileRunning: (child: ChildProcess) => {
        const timer = setInterval(() => {
          if (child.exitCode !== null || child.signalCode !== null) return clearInterval(timer);
          if (sim.counters().findCalls - findCallsBefore < 2) return;
          child.kill('SIGINT');
          clearInterval(timer);
        }, 20);
      },
    });
    expect(first.code, first.stderr).toBe(EXIT_CODES.interrupted);
    const goOn = /run "(matchdesk match --project (\d+) --out \S+ --yes)"/.exec(first.stderr);
    expect(goOn, first.stderr).not.toBeNull();

    const again = await runMatchdesk(['match', '--project', goOn![2]!, '--out', out, '--yes'], { cwd: dir, home, connection });
    expect(again.code, again.stderr).toBe(EXIT_CODES.ok);
    expect(again.stderr).toMatch(/Going on with run \d+, which stopped part-way, under the options it started with \(auto-accept at 99%\)/);
    expect(again.stderr).toMatch(/--auto-accept\/--min-confidence are not applied/);
    expect(exported(out)).toEqual(expected);
  });
});
