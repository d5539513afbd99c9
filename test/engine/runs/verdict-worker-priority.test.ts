// The verdict worker gives way to the engine's thread where both wait for a core (runs/verdict-worker.ts): on Linux
// its thread, and only its thread, runs at a higher nice value than the rest of the process.
import { readdirSync, readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import type { VerdictContext } from '../../../electron/engine/runs/row-verdict';
import { VerdictThread } from '../../../electron/engine/runs/verdict-thread';
import { skipBecause } from '../../support/skips';

/** Each thread of this process (its task id) with its nice value, read from /proc (the 19th field of its stat). */
function niceByThread(): Map<number, number> {
  const threads = new Map<number, number>();
  for (const tid of readdirSync('/proc/self/task')) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
    } catch {
      continue; // the thread ended meanwhile
    }
    // The command name, in parentheses, may hold spaces: fields are counted after its closing one.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    threads.set(Number(tid), Number(fields[16]));
  }
  return threads;
}

let thread: VerdictThread | null = null;
afterEach(async () => {
  await thread?.close();
  thread = null;
});

const skipped = skipBecause("the verdict worker's thread priority", process.platform === 'linux' ? null : 'only Linux gives a thread a nice value of its own');

describe.skipIf(skipped)('the verdict worker on Linux', () => {
  it("runs at a lower priority than the engine's thread, which keeps its own", async () => {
    const before = niceByThread();
    const engineNice = before.get(process.pid)!;
    thread = VerdictThread.start();
    expect(thread, 'the worker starts').not.toBeNull();
    // Once it has answered, its entry has run (the nice value is set there).
    const context: VerdictContext = { mapping: { fullName: 0 }, rule: { enabled: true, minConfidence: 0.9, minLead: 0.3 }, at: '2026-01-02T03:04:05.000Z' };
    await expect(thread!.verdicts([], context)).resolves.toEqual([]);
    const after = niceByThread();
    const added = [...after].filter(([tid]) => !before.has(tid));
    expect(added.length, 'the worker is a thread of its own').toBeGreaterThan(0);
    expect(added.some(([, nice]) => nice > engineNice), `a new thread runs nicer than ${engineNice}: ${JSON.stringify(added)}`).toBe(true);
    expect(after.get(process.pid), "the engine's thread keeps its priority").toBe(engineNice);
    for (const [tid, nice] of before) if (after.has(tid)) expect(after.get(tid), `thread ${tid} before the worker`).toBe(nice);
  });
});

