// Every find reply shape seen in use (bare arrays, {people}, {results}, {matches}, {data}) gives the
// same rows, candidates and export: the engine reads them all the same way, end to end.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../../../electron/engine/engine';
import { FIND_SHAPES, type Simulator } from '../../../electron/simulator';
import { connect, currentCompany, findablePeople, ok, openEngine, runToEnd, startSim, tempDir, writeCsv } from './helpers';

let tmp: ReturnType<typeof tempDir>;
let sim: Simulator;
let sheet: string;

beforeAll(async () => {
  tmp = tempDir();
  sim = await startSim();
  const people = findablePeople(sim).slice(0, 30);
  const rows = [
    ...people.slice(0, 10).map((p) => [p.name, p.email_address, '', '']),
    ...people.slice(10, 20).map((p) => ['', '', `https://www.linkedin.com/in/${p.linkedin}/`, '']),
    ...people.slice(20).map((p) => [p.name, '', '', currentCompany(p)]),
    ['Nobody Known', 'nobody@nowhere.example', '', 'Nowhere Ltd'],
  ];
  sheet = writeCsv(join(tmp.dir, 'shapes.csv'), ['Name', 'Email', 'LinkedIn', 'Company'], rows);
});
afterAll(async () => {
  await sim.close();
  tmp.remove();
});

/** The export without its timestamp columns, which differ from run to run (parsed as CSV: cells hold commas). */
function exportedWithoutTimes(path: string): string[] {
  const [header, ...rows] = Papa.parse<string[]>(readFileSync(path, 'utf8').replace(/^\uFEFF/, ''), { skipEmptyLines: true }).data;
  const keep = header!.map((c, i) => (c.includes('match_fetched_at') || c.includes('match_decided_at') ? -1 : i)).filter((i) => i >= 0);
  return rows.map((cells) => JSON.stringify(keep.map((i) => cells[i])));
}

describe('find reply shapes', () => {
  it('each shape yields the same states, candidates and export', async () => {
    const results: { shape: string; counts: unknown; export: string[]; calls: number }[] = [];
    for (const shape of FIND_SHAPES) {
      sim.setFindShape(shape);
      sim.resetCounters();
      const engine: Engine = await openEngine(join(tmp.dir, `data-${shape}`));
      try {
        await connect(engine, sim);
        const projectId = (await ok(engine, 'projects.import', { file: sheet })).summary.id;
        const end = await runToEnd(engine, projectId);
        expect(end).toMatchObject({ status: 'done', errors: 0 });
        const page = await ok(engine, 'review.page', { projectId, offset: 0, limit: 1 });
        const exported = await ok(engine, 'export.run', { projectId, format: 'csv', scope: 'all', destination: join(tmp.dir, `${shape}.csv`) });
        results.push({ shape, counts: page.counts, export: exportedWithoutTimes(exported.path!), calls: sim.counters().findCalls });
      } finally {
        await engine.close();
      }
    }
    const [first, ...others] = results;
    // Every row finds its person: by e-mail, by profile, or as the only one with the name at the employer.
    expect(first!.counts).toMatchObject({ auto: 30, to_review: 0, no_candidates: 1 });
    expect(results.map((r) => r.shape)).toEqual(['array', 'people', 'results', 'matches', 'data', 'data-matches']);
    for (const other of others) {
      expect({ shape: other.shape, counts: other.counts }).toEqual({ shape: other.shape, counts: first!.counts });
      expect(other.export).toEqual(first!.export);
      expect(other.calls).toBe(first!.calls);
    }
  });
});
