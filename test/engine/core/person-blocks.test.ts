// People's records in blocks, through the engine: a run stores one block a call, the review and a refresh read and
// store through them, clearing the cache keeps the blocks of the people still named, and a damaged block does not
// stop the engine.
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Engine } from '../../../electron/engine/engine';
import { personRecord } from '../../../electron/engine/store/person-records';
import { publicPerson, type Simulator } from '../../../electron/simulator';
import { connect, currentCompany, findablePeople, ok, openEngine, runToEnd, startSim, tempDir, writeCsv } from './helpers';

let tmp: ReturnType<typeof tempDir>;
let sim: Simulator | null = null;
let engine: Engine | null = null;

beforeEach(() => {
  tmp = tempDir();
});
afterEach(async () => {
  await engine?.close();
  engine = null;
  await sim?.close();
  sim = null;
  tmp.remove();
});

/** What the data file holds, read beside the engine. */
function onFile<T>(dbPath: string, read: (db: Database.Database) => T): T {
  const db = new Database(dbPath, { readonly: true });
  try {
    return read(db);
  } finally {
    db.close();
  }
}

describe("people's records in blocks, through the engine", () => {
  it('a run stores a block a call; the review, a refresh, clearing the cache and a damaged block keep working', async () => {
    sim = await startSim();
    engine = await openEngine(join(tmp.dir, 'data'));
    await connect(engine, sim);
    const people = findablePeople(sim).slice(0, 240);
    const file = writeCsv(join(tmp.dir, 'people.csv'), ['Name', 'Company'], people.map((p) => [p.name, currentCompany(p)]));
    const projectId = (await ok(engine, 'projects.import', { file })).summary.id;
    const end = await runToEnd(engine, projectId);
    expect(end.status).toBe('done');
    expect(end.calls).toBeGreaterThan(1);

    // Every person's record in a block, a block for each call; each reads back as the service sent it.
    const dbPath = engine.dbPath;
    const stored = onFile(dbPath, (db) => ({
      people: db.prepare('SELECT count(*) FROM people').pluck().get() as number,
      inBlocks: db.prepare("SELECT count(*) FROM people WHERE block IS NOT NULL AND typeof(person) = 'blob' AND length(person) = 0").pluck().get() as number,
      blocks: db.prepare('SELECT count(*) FROM person_blocks').pluck().get() as number,
      records: (db.prepare('SELECT id FROM people ORDER BY id').pluck().all() as number[]).map((id) => personRecord(db, id)),
    }));
    expect(stored.inBlocks).toBe(stored.people);
    expect(stored.blocks).toBe(end.calls);
    const sent = new Map(sim.dataset.people.map((p) => [p.id, JSON.stringify(publicPerson(p))]));
    for (const record of stored.records) expect(JSON.stringify(record)).toBe(sent.get((record as { id: string }).id));

    // The review shows a row's candidates; accept one so a decision names its person.
    const page = await ok(engine, 'review.page', { projectId, offset: 0, limit: 500 });
    const reviewed = page.rows.find((r) => r.candidateCount > 1)!;
    const detail = await ok(engine, 'review.row', { projectId, rowIndex: reviewed.rowIndex });
    expect(detail.candidates.length).toBe(reviewed.candidateCount);
    expect(detail.fetchedAt).not.toBeNull();
    await ok(engine, 'decisions.choose', { projectId, rowIndex: reviewed.rowIndex, rank: detail.candidates[0]!.rank });

    // A refresh stores the new versions of the people who moved: in blocks too.
    sim.moveOn({ share: 0.5, seed: 3 });
    await ok(engine, 'refresh.start', { projectId });
    expect(await engine.refreshSettled(projectId)).toMatchObject({ status: 'done' });
    const afterRefresh = onFile(dbPath, (db) => db.prepare('SELECT count(*), count(block) FROM people WHERE id > ?').raw().get(stored.people) as [number, number]);
    expect(afterRefresh[0]).toBeGreaterThan(0);
    expect(afterRefresh[1]).toBe(afterRefresh[0]);

    // Clearing the cache keeps the people decisions and refreshes name, and the blocks they are in; their records read.
    await ok(engine, 'cache.clear', {});
    const kept = onFile(dbPath, (db) => ({
      blocks: db.prepare('SELECT count(*) FROM person_blocks').pluck().get() as number,
      orphans: db.prepare('SELECT count(*) FROM person_blocks WHERE id NOT IN (SELECT block FROM people WHERE block IS NOT NULL)').pluck().get() as number,
      read: (db.prepare('SELECT id FROM people').pluck().all() as number[]).map((id) => personRecord(db, id)).length,
    }));
    expect(kept.blocks).toBeGreaterThan(0);
    expect(kept.orphans).toBe(0);
    expect(kept.read).toBeGreaterThan(0);

    // A damaged block: the engine goes on; the row still shows its decision, read from its person's facts.
    const writer = new Database(dbPath);
    try {
      writer.pragma('busy_timeout = 30000');
      writer.prepare("UPDATE person_blocks SET data = x'28b52ffd0058'").run();
    } finally {
      writer.close();
    }
    const again = await ok(engine, 'review.row', { projectId, rowIndex: reviewed.rowIndex });
    expect(again).toMatchObject({ state: 'accepted', chosenRank: detail.candidates[0]!.rank });
    onFile(dbPath, (db) => {
      const id = db.prepare('SELECT min(id) FROM people').pluck().get() as number;
      expect(() => personRecord(db, id)).toThrow(new RegExp(`^The stored record of person ${id} does not read \\(block \\d+: its compressed data is damaged`));
    });
  });
});
