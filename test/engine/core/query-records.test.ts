import { createHash } from 'node:crypto';
import { join } from 'node:path';
import fc from 'fast-check';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FindQuery } from '../../../shared/model';
import type { Engine } from '../../../electron/engine/engine';
import { pendingQueryCount, pendingRowsAfter, plannedQuery, queryFromStored, storedForm, storedQuery } from '../../../electron/engine/runs/query-records';
import { queryKeys } from '../../../electron/engine/store';
import { ok, openEngine, tempDir, writeCsv } from './helpers';

const byName: FindQuery = { fields: [{ field_name: 'name', search_term: 'Jane "JD" Doe' }, { field_name: 'company.name', search_term: 'Acme, Inc.' }] };
const byEmail: FindQuery = { fields: [{ field_name: 'email_address', search_term: 'jane@acme.com' }] };

describe('queries as row_queries stores them', () => {
  it('reads back what it stores, and the FindQuery JSON rows planned earlier hold', () => {
    for (const query of [byName, byEmail]) {
      expect(queryFromStored(storedQuery(query))).toEqual(query);
      expect(queryFromStored(JSON.stringify(query))).toEqual(query);
      expect(storedForm(JSON.stringify(query))).toBe(storedQuery(query));
      expect(storedForm(storedQuery(query))).toBe(storedQuery(query));
    }
    expect(storedQuery(byEmail)).toBe('[["email_address","jane@acme.com"]]');
    expect(storedQuery(byName)).not.toBe(storedQuery({ fields: [...byName.fields].reverse() }));
  });
});

describe('query keys for a whole plan', () => {
  it('are the keys of the cache: the service and the terms in canonical order, hashed', () => {
    const term = fc.record({ field_name: fc.constantFrom('email_address', 'social', 'name', 'company.name'), search_term: fc.string({ unit: 'binary', maxLength: 12 }) });
    fc.assert(
      fc.property(fc.constantFrom('https://gotlivedata.io/', 'HTTP://127.0.0.1:9//', ''), fc.string({ maxLength: 8 }), fc.array(term, { minLength: 1, maxLength: 3 }), (baseUrl, orgId, fields) => {
        const terms = fields.map((t) => [t.field_name, t.search_term]).sort((a, b) => (a[0]! < b[0]! ? -1 : a[0]! > b[0]! ? 1 : a[1]! < b[1]! ? -1 : a[1]! > b[1]! ? 1 : 0));
        const expected = createHash('sha256').update(JSON.stringify([baseUrl.replace(/\/+$/, '').toLowerCase(), orgId, terms])).digest('hex');
        expect(queryKeys(baseUrl, orgId)({ fields })).toBe(expected);
      }),
      { numRuns: 500 },
    );
  });
});

describe('a project planned before queries were stored as pairs', () => {
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

  it('keeps its decisions and its keys when planned again, and its queries read the same', async () => {
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
      const before = db.prepare('SELECT row_index, step, query_key, query FROM row_queries WHERE project_id = ? ORDER BY row_index, step').all(id) as { row_index: number; step: number; query_key: string; query: string }[];
      // The rows waiting, each with the query of its current step, as a run walks them.
      const pendingQueries = () => pendingRowsAfter(db, id, -1, 100).map((r) => ({ ...r, query: queryFromStored(r.query) }));
      const pending = pendingQueries();
      expect(pending.map((r) => r.rowIndex)).toEqual([0, 2]);
      expect(pendingQueryCount(db, id)).toBe(2);
      // As an earlier version stored them: the FindQuery JSON.
      for (const r of before) {
        db.prepare('UPDATE row_queries SET query = ? WHERE project_id = ? AND query = ?').run(JSON.stringify(queryFromStored(r.query)), id, r.query);
      }
      expect(db.prepare("SELECT count(*) FROM row_queries WHERE project_id = ? AND query LIKE '{%'").pluck().get(id)).toBe(before.length);
      expect(pendingQueries()).toEqual(pending);
      expect(plannedQuery(db, id, 0, before[0]!.query_key)).toEqual(byEmail);

      const saved = await ok(engine, 'mapping.save', { projectId: id, mapping, strategies });
      expect(saved.summary.counts).toMatchObject({ skipped: 1, pending: 2 });
      const after = db.prepare('SELECT row_index, step, query_key FROM row_queries WHERE project_id = ? ORDER BY row_index, step').all(id);
      expect(after).toEqual(before.map(({ query: _query, ...rest }) => rest));
      expect(pendingQueries()).toEqual(pending);
    } finally {
      db.close();
    }
  });
});
