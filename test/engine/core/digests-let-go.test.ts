// The digests the engine keeps in memory to find queries and people by what they hold (store/digest-ids.ts) are let go
// once no run, plan or refresh goes: a 1M sheet's are ~25 MB, under the peak of the export that often follows. Read
// again when next needed, they still find what was stored: a sheet imported again asks nothing and adds no query.
import type { Database } from 'better-sqlite3';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../../../electron/engine/engine';
import { DigestIds } from '../../../electron/engine/store/digest-ids';
import type { Simulator } from '../../../electron/simulator';
import { connect, currentCompany, eventually, findablePeople, ok, openEngine, runToEnd, startSim, tempDir, writeCsv } from './helpers';

let tmp: ReturnType<typeof tempDir>;
let sim: Simulator;

beforeAll(async () => {
  tmp = tempDir('matchdesk-digests-');
  sim = await startSim();
});
afterAll(async () => {
  await sim.close();
  tmp.remove();
});

const held = (db: Database) => ({
  queries: DigestIds.of(db, 'queries').held,
  people: DigestIds.of(db, 'person_digests').held,
  versions: DigestIds.of(db, 'person_versions').held,
});
const NONE = { queries: 0, people: 0, versions: 0 };

describe("the engine's digests", () => {
  it('are let go after a run and after a refresh, and found again when next needed', async () => {
    const engine: Engine = await openEngine(join(tmp.dir, 'data'));
    const db = (engine as unknown as { db: Database }).db;
    try {
      await connect(engine, sim);
      const rows = findablePeople(sim)
        .slice(0, 300)
        .map((p, i) => (i % 2 ? [p.name, '', currentCompany(p)] : ['', p.email_address, '']));
      const file = writeCsv(join(tmp.dir, 'people.csv'), ['Name', 'Email', 'Company'], rows);
      const first = (await ok(engine, 'projects.import', { file })).summary;
      expect((await runToEnd(engine, first.id)).status).toBe('done');
      const countQueries = () => db.prepare('SELECT count(*) FROM queries').pluck().get() as number;
      expect(countQueries()).toBeGreaterThan(100);
      await eventually(() => held(db).queries === 0 && held(db).people === 0);
      expect(held(db)).toEqual(NONE);

      await ok(engine, 'refresh.start', { projectId: first.id });
      expect((await engine.refreshSettled(first.id))!.status).toBe('done');
      await eventually(() => held(db).versions === 0);
      expect(held(db)).toEqual(NONE);
      // The refresh asked each person by profile: queries of their own.
      const queries = countQueries();

      // Read again from the tables: the same queries, each found by its digest, nothing asked twice.
      const again = (await ok(engine, 'projects.import', { file, name: 'people again' })).summary;
      expect(await runToEnd(engine, again.id)).toMatchObject({ status: 'done', calls: 0 });
      expect(countQueries()).toBe(queries);
    } finally {
      await engine.close();
    }
  });
});
