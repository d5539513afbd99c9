// A run must not need several times its database's size free: the WAL is checkpointed in step with the file's size
// (electron/engine/store/wal-budget.ts). Sampled at each of the run's progress events, on a real run against the simulator.
import { statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../../../electron/engine/engine';
import { walPagesFor } from '../../../electron/engine/store/wal-budget';
import type { Simulator } from '../../../electron/simulator';
import { onJobDetail } from '../../support/job-events';
import { connect, currentCompany, ok, openEngine, startSim, tempDir } from '../core/helpers';

const ROWS = 8_000;
const tmp = tempDir('matchdesk-wal-');
let sim: Simulator;
let engine: Engine;

beforeAll(async () => {
  sim = await startSim({ people: 8_000 });
  engine = await openEngine(tmp.dir);
  await connect(engine, sim);
});
afterAll(async () => {
  await engine?.close();
  await sim?.close();
  tmp.remove();
});

describe('the WAL during long work', () => {
  it('lets the WAL grow to a quarter of the database, within SQLite default and the 30,000 pages measured fastest', () => {
    expect(walPagesFor(0)).toBe(1_000);
    expect(walPagesFor(40_000)).toBe(10_000);
    expect(walPagesFor(10_000_000)).toBe(30_000);
  });

  it('moves the bound in steps of 250 4 KB pages: set again once the database has grown by 1,000, not at every commit', () => {
    expect(walPagesFor(40_999)).toBe(10_000);
    expect(walPagesFor(41_000)).toBe(10_250);
    const bounds = new Set(Array.from({ length: 120_001 }, (_, pages) => walPagesFor(pages)));
    expect(bounds.size).toBe(1 + (30_000 - 1_000) / 250);
  });

  it('keeps those bounds in bytes for a file of smaller pages: the same checkpoint cadence', () => {
    expect(walPagesFor(0, 2048)).toBe(2_000);
    expect(walPagesFor(80_000, 2048)).toBe(20_000);
    expect(walPagesFor(20_000_000, 2048)).toBe(60_000);
  });

  it('keeps the database and its WAL within 1.5x the final database through a run', async () => {
    const db = join(tmp.dir, 'matchdesk.sqlite');
    const size = (file: string) => statSync(file, { throwIfNoEntry: false })?.size ?? 0;
    const samples: number[] = [];
    const sample = () => samples.push(size(db) + size(`${db}-wal`));
    const stop = onJobDetail(engine, 'run', sample);
    const lines = ['Name,Email,Company'];
    for (let i = 0; i < ROWS; i++) {
      const p = sim.dataset.people[i % sim.dataset.people.length]!;
      lines.push(`"${p.name}",${i % 3 === 0 ? p.email_address : `row-${i}@nowhere.example`},"${currentCompany(p)}"`);
    }
    const sheet = join(tmp.dir, 'people.csv');
    writeFileSync(sheet, `${lines.join('\n')}\n`);
    const project = (await ok(engine, 'projects.import', { file: sheet })).summary;
    sample();
    await ok(engine, 'run.start', { projectId: project.id });
    const end = await engine.runSettled(project.id);
    stop();
    expect(end?.status).toBe('done');
    expect(samples.length).toBeGreaterThan(10);
    await engine.close();
    const final = size(db);
    // Before, the WAL grew to 30,000 pages whatever the file's size: about twice this database at its peak.
    expect(Math.max(...samples)).toBeLessThanOrEqual(1.5 * final);
  }, 120_000);
});
