import { createHash } from 'node:crypto';
import { join } from 'node:path';
import fc from 'fast-check';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FindQuery } from '../../../shared/model';
import type { Engine } from '../../../electron/engine/engine';
import { nextStep, pendingQueryCount, pendingRowsAfter, queryFromStored, storedQuery, storedQueryText } from '../../../electron/engine/runs/query-records';
import { queryDigests } from '../../../electron/engine/store';
import { ok, openEngine, tempDir, writeCsv } from './helpers';

const byName: FindQuery = { fields: [{ field_name: 'name', search_term: 'Jane "JD" Doe' }, { field_name: 'company.name', search_term: 'Acme, Inc.' }] };
const byEmail: FindQuery = { fields: [{ field_name: 'email_address', search_term: 'jane@acme.com' }] };

describe('queries as `queries` stores them', () => {
  it('reads back what it stores', () => {
    for (const query of [byName, byEmail]) expect(queryFromStored(storedQuery(query))).toEqual(query);
    expect(storedQuery(byEmail)).toBe('[["email_address","jane@acme.com"]]');
    expect(storedQuery(byName)).not.toBe(storedQuery({ fields: [...byName.fields].reverse() }));
  });
});

describe('query digests for a whole plan', () => {
  it('are the first 64 bits of the keys of the cache before: the service and the terms in canonical order, hashed', () => {
    const term = fc.record({ field_name: fc.constantFrom('email_address', 'social', 'name', 'company.name'), search_term: fc.string({ unit: 'binary', maxLength: 12 }) });
    fc.assert(
      fc.property(fc.constantFrom('https://gotlivedata.io/', 'HTTP://127.0.0.1:9//', ''), fc.string({ maxLength: 8 }), fc.array(term, { minLength: 1, maxLength: 3 }), (baseUrl, orgId, fields) => {
        const terms = fields.map((t) => [t.field_name, t.search_term]).sort((a, b) => (a[0]! < b[0]! ? -1 : a[0]! > b[0]! ? 1 : a[1]! < b[1]! ? -1 : a[1]! > b[1]! ? 1 : 0));
        const expected = createHash('sha256').update(JSON.stringify([baseUrl.replace(/\/+$/, '').toLowerCase(), orgId, terms])).digest('hex');
        expect(queryDigests(baseUrl, orgId)({ fields })).toBe(BigInt.asIntN(64, BigInt(`0x${expected.slice(0, 16)}`)));
      }),
      { numRuns: 500 },
    );
  });
});

describe('a project planned again', () => {
  let tmp: ReturnType<typeof tempDir>;
  let engine: Engine;
  beforeEach(async () => {
    tmp = tempDir();
    engine = await openEngine(join(tmp.dir, 'data'));
  });
  afterEach(async () => {
    await engine.close();
    tmp.remove();
  });

  it('keeps its decisions and its query ids, stores no query again, and its queries read the same', async () => {
    const file = writeCsv(join(tmp.dir, 'old.csv'), ['Name', 'Email', 'Company'], [
      ['Jane Doe', 'jane@acme.com', 'Acme'],
      ['No Mail', '', 'Acme'],
      ['Bob Roe', 'bob@roe.org', ''],
    ]);
    const { summary, mapping, strategies } = await ok(engine, 'projects.import', { file });
    const id = summary.id;
    await ok(engine, 'mapping.save', { projectId: id, mapping, strategies });
    await ok(engine, 'decisions.skip', { projectId: id, rowIndex: 1 });

    const db = new Database(engine.dbPath);
    try {
      const before = db.prepare('SELECT row_index, step, query_id FROM row_queries WHERE project_id = ? ORDER BY row_index, step').all(id);
      const queries = db.prepare('SELECT id, digest, query FROM queries ORDER BY id').safeIntegers(true).all();
      // The rows waiting, each with the query of its current step, as a run walks them.
      const pendingQueries = () => pendingRowsAfter(db, id, -1, 100).map((r) => ({ ...r, query: queryFromStored(r.query!) }));
      const pending = pendingQueries();
      expect(pending.map((r) => r.rowIndex)).toEqual([0, 2]);
      expect(pendingQueryCount(db, id)).toBe(2);
      expect(pending[0]).toMatchObject({ step: 0, query: byEmail });

      const saved = await ok(engine, 'mapping.save', { projectId: id, mapping, strategies });
      expect(saved.summary.counts).toMatchObject({ skipped: 1, pending: 2 });
      expect(db.prepare('SELECT row_index, step, query_id FROM row_queries WHERE project_id = ? ORDER BY row_index, step').all(id)).toEqual(before);
      expect(db.prepare('SELECT id, digest, query FROM queries ORDER BY id').safeIntegers(true).all()).toEqual(queries);
      expect(pendingQueries()).toEqual(pending);
    } finally {
      db.close();
    }
  });

  it("reads a waiting row's query text only above the walk's threshold, and reads the others' by id when asked", async () => {
    const file = writeCsv(join(tmp.dir, 'texts.csv'), ['Name', 'Email', 'Company'], [
      ['Jane Doe', 'jane@acme.com', 'Acme'],
      ['Bob Roe', 'bob@roe.org', ''],
      ['Ann Lee', 'ann@lee.io', ''],
    ]);
    const { summary, mapping, strategies } = await ok(engine, 'projects.import', { file });
    await ok(engine, 'mapping.save', { projectId: summary.id, mapping, strategies });
    const db = new Database(engine.dbPath);
    try {
      const whole = pendingRowsAfter(db, summary.id, -1, 100);
      const stored = db.prepare('SELECT id, query FROM queries').raw().all() as [number, string][];
      expect(whole.map((r) => r.query)).toEqual(whole.map((r) => stored.find(([id]) => id === r.queryId)![1]));
      const ids = whole.map((r) => r.queryId).sort((a, b) => a - b);
      // Above the middle id only: the rows asking the lower ones come without their text, and nothing else differs.
      const middle = ids[1]!;
      const page = pendingRowsAfter(db, summary.id, -1, 100, middle);
      expect(page.map((r) => (r.queryId > middle ? r.query : null))).toEqual(page.map((r) => r.query));
      expect(page.filter((r) => r.query === null)).toHaveLength(2);
      expect(page.map(({ query: _text, ...rest }) => rest)).toEqual(whole.map(({ query: _text, ...rest }) => rest));
      for (const row of page) expect(storedQueryText(db, row.queryId)).toBe(whole.find((r) => r.rowIndex === row.rowIndex)!.query);
      expect(storedQueryText(db, ids[2]! + 1000)).toBeNull();
    } finally {
      db.close();
    }
  });

  it("gives a row's next step with its query, none after its last step, and none where the step's query is gone", async () => {
    const file = writeCsv(join(tmp.dir, 'steps.csv'), ['Name', 'Email', 'Company'], [
      ['Jane Doe', 'jane@acme.com', 'Acme'],
      ['Bob Roe', 'bob@roe.org', ''],
    ]);
    const { summary, mapping, strategies } = await ok(engine, 'projects.import', { file });
    await ok(engine, 'mapping.save', { projectId: summary.id, mapping, strategies });
    const db = new Database(engine.dbPath);
    try {
      const [jane, bob] = pendingRowsAfter(db, summary.id, -1, 100);
      const planned = db.prepare('SELECT query_id FROM row_queries WHERE project_id = ? AND row_index = 0 AND step = 1').pluck().get(summary.id) as number;
      const next = nextStep(db, summary.id, jane!);
      expect(next).toMatchObject({ rowIndex: 0, step: 1, queryId: planned, strategy: 'name+company', cells: jane!.cells });
      expect(queryFromStored(next!.query)).toEqual({ fields: [{ field_name: 'name', search_term: 'Jane Doe' }, { field_name: 'company.name', search_term: 'Acme' }] });
      expect(nextStep(db, summary.id, bob!)).toBeNull();
      db.prepare('DELETE FROM queries WHERE id = ?').run(planned);
      expect(nextStep(db, summary.id, jane!)).toBeNull();
    } finally {
      db.close();
    }
  });
});
