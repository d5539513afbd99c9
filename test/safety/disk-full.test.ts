// A full disk, for real: the data folder on a small tmpfs, filled with files. A write the disk has no room for says
// so in words the user can act on, the run stops keeping what it stored, and once space is freed the work goes on.
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Engine } from '../../electron/engine/engine';
import type { Simulator } from '../../electron/simulator';
import { connect, fails, ok, openEngine, runToEnd, startSim, tempDir, writeCsv } from '../engine/core/helpers';
import { skipBecause } from '../support/skips';

/** Mounts a tmpfs of `megabytes` at `dir`; the reason it cannot, or null. */
function mountTmpfs(dir: string, megabytes: number): string | null {
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${megabytes}m`, 'tmpfs', dir], { stdio: 'pipe' });
    return null;
  } catch (error) {
    return `a small file system cannot be mounted here (${String((error as { stderr?: unknown }).stderr ?? error).trim() || 'mount failed'})`;
  }
}

const probe = tempDir('matchdesk-disk-probe-');
const cannotMount = process.platform === 'linux' ? mountTmpfs(probe.dir, 1) : 'not on Linux';
if (cannotMount === null) execFileSync('umount', [probe.dir]);
probe.remove();
const skipped = skipBecause('the full-disk tests', cannotMount && `${cannotMount}; they need Linux and the right to mount a tmpfs (root)`);

let tmp: ReturnType<typeof tempDir>;
let disk: string;
let sim: Simulator | null = null;
let engine: Engine | null = null;
let fillers: string[] = [];

/** Fills the disk with 256 KB files until it is full. */
function fillTheDisk(): void {
  for (let n = 0; ; n++) {
    const file = join(disk, `filler-${n}`);
    try {
      writeFileSync(file, Buffer.alloc(256 * 1024));
      fillers.push(file);
    } catch {
      rmSync(file, { force: true });
      return;
    }
  }
}

function freeTheDisk(): void {
  for (const file of fillers) rmSync(file, { force: true });
  fillers = [];
}

beforeEach(() => {
  if (skipped) return;
  tmp = tempDir('matchdesk-disk-');
  disk = join(tmp.dir, 'disk');
  mkdirSync(disk);
  const failed = mountTmpfs(disk, 24);
  if (failed) throw new Error(failed);
});
afterEach(async () => {
  if (skipped) return;
  await engine?.close();
  await sim?.close();
  engine = null;
  sim = null;
  fillers = [];
  execFileSync('umount', ['-l', disk]);
  tmp.remove();
});

describe.skipIf(skipped)('a full disk', () => {
  it('stops a run with words the user can act on; once space is freed, the run resumes where it stopped', async () => {
    sim = await startSim({ people: 3000 });
    engine = await openEngine(join(disk, 'data'));
    await connect(engine, sim);
    const file = writeCsv(join(tmp.dir, 'people.csv'), ['Email'], sim.dataset.people.map((p) => [p.email_address]));
    const projectId = (await ok(engine, 'projects.import', { file })).summary.id;
    await ok(engine, 'mapping.save', { projectId, mapping: { email: 0 }, strategies: ['email'] });

    fillTheDisk();
    // Room (2 MB) for the first few calls' answers (~6 MB in all), not for all of them.
    for (const filler of fillers.splice(0, 8)) rmSync(filler);
    const stopped = await runToEnd(engine, projectId);
    expect(stopped.status).toBe('failed');
    expect(stopped.message).toBe("The run stopped: the disk holding Matchdesk's data is full; free some space on it first");
    expect(stopped.rowsResolved).toBeGreaterThan(0);
    // What it stored, part of the sheet (its counters may count a last call's rows whose commit the disk refused).
    const kept = (await ok(engine, 'projects.get', { projectId })).summary.counts;
    expect(kept.auto).toBeGreaterThan(0);
    expect(kept.auto).toBeLessThan(3000);

    freeTheDisk();
    const resumed = await runToEnd(engine, projectId);
    expect(resumed.status).toBe('done');
    expect(resumed.rowsResolved).toBe(3000);
    const after = (await ok(engine, 'projects.get', { projectId })).summary.counts;
    expect(after.auto).toBeGreaterThanOrEqual(kept.auto);
    expect(after.auto).toBe(3000);
  });

  it('refuses an import the disk has no room for, naming the folder, and leaves the other projects as they were', async () => {
    engine = await openEngine(join(disk, 'data'));
    const small = writeCsv(join(tmp.dir, 'small.csv'), ['Name', 'Email'], [['Ada Lovelace', 'ada@example.com']]);
    const kept = (await ok(engine, 'projects.import', { file: small })).summary.id;
    const note = 'x'.repeat(400);
    const large = writeCsv(join(tmp.dir, 'large.csv'), ['Name', 'Email', 'Notes'], Array.from({ length: 60_000 }, (_, i) => [`P ${i}`, `p${i}@example.com`, note]));

    const refused = await fails(engine, 'projects.import', { file: large });
    expect(refused).toEqual({
      kind: 'database',
      code: 'disk_full',
      message: `The disk holding Matchdesk's data (${join(disk, 'data')}) is full. Free some space on it, then try again: nothing saved before is lost.`,
    });
    expect((await ok(engine, 'projects.list')).map((p) => p.id)).toEqual([kept]);
    expect((await ok(engine, 'projects.get', { projectId: kept })).summary.rowCount).toBe(1);
  });
});
