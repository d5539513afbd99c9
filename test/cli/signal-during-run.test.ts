// SIGTERM while `matchdesk match` waits on a reply that trickles in (a slow loris): the real CLI in a child process
// ends at once instead of waiting the reply out, and what had landed is kept. Before, it went on for minutes.
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT_CODES } from '../../electron/cli/exit-codes';
import { startSimulator, type Simulator } from '../../electron/simulator/server';
import { connectionTo, runMatchdesk } from './matchdesk-process';

let dir: string;
let sim: Simulator;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'matchdesk-cli-signal-'));
  // Each call waits a while before its reply: time to switch the trickle on between the first call and the second.
  sim = await startSimulator({ port: 0, people: 1000, seed: 5, latencyMs: 300 });
});
afterAll(async () => {
  await sim.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Rows of the data file beside the CLI that are no longer waiting on the service. */
function settledRows(home: string): number {
  const db = new Database(join(home, 'matchdesk.sqlite'), { readonly: true, fileMustExist: true });
  try {
    return db.prepare("SELECT COUNT(*) FROM row_status WHERE state <> 'pending'").pluck().get() as number;
  } finally {
    db.close();
  }
}

describe('SIGTERM while a reply trickles in', () => {
  it('ends the run at once with exit 130, keeping the rows that landed, and hangs up on the trickle', async () => {
    const rows = sim.dataset.people.slice(0, 500).map((p) => `${p.name},${p.email_address}`);
    const sheet = join(dir, 'people.csv');
    writeFileSync(sheet, ['Name,Email', ...rows].join('\n') + '\n');
    const home = join(dir, 'home');
    const connection = connectionTo(sim);
    let signalledAt = 0;
    const outcome = await runMatchdesk(['match', sheet, '--out', join(dir, 'out.csv'), '--concurrency', '1', '--yes'], {
      cwd: dir,
      home,
      connection,
      whileRunning: (child) => {
        const timer = setInterval(() => {
          if (child.exitCode !== null || child.signalCode !== null) return clearInterval(timer);
          const { queries, hostile } = sim.counters();
          // The first call's 100 answers have gone out: every reply from now on trickles, 10 bytes a second.
          if (queries >= 100 && hostile.bytesSent === 0) sim.setHostile({ trickleBytesPerSecond: 10 });
          // A trickling reply is in flight: stop the run.
          if (hostile.bytesSent > 0) {
            clearInterval(timer);
            signalledAt = performance.now();
            child.kill('SIGTERM');
          }
        }, 10);
      },
    });
    const exitSeconds = (performance.now() - signalledAt) / 1000;
    expect(signalledAt, 'the run ended before a reply trickled').toBeGreaterThan(0);
    expect(outcome.code, outcome.stderr).toBe(EXIT_CODES.interrupted);
    expect(outcome.stderr).toContain('Stopped. Everything that landed is kept');
    // Far below the minutes a trickle held it before, with room for a loaded machine; the target is 2 s.
    expect(exitSeconds).toBeLessThan(10);
    process.stderr.write(`matchdesk match exited ${exitSeconds.toFixed(2)} s after SIGTERM\n`);
    expect(settledRows(home)).toBe(100);
    await expect.poll(() => sim.counters().hostile.cutShort).toBe(1);
  });
});
