import Database from 'better-sqlite3';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ALL_MIGRATIONS, migrate, openDatabase } from '../../../../electron/engine/store';
import { tempFolder } from '../temp-folder';

const upTo = (v: number) => ALL_MIGRATIONS.filter((m) => m.version <= v);
const columnNames = (db: Database.Database, table: string) => (db.pragma(`table_info(${table})`) as { name: string }[]).map((c) => c.name);

function addSearch(db: Database.Database, status = 'running'): number {
  return Number(
    db
      .prepare(
        `INSERT INTO searches (name, filters, request_key, filters_key, base_url, org_id, status, chunk_size, page_size, created_at, updated_at)
         VALUES ('s', '[]', 'k', 'f', 'http://x', 'o_x', ?, 100, 100, 't', 't')`,
      )
      .run(status).lastInsertRowid,
  );
}

describe('migration 3: searches, their parts and their results', () => {
  it('runs after migrations 1 and 2 and sets user_version 3', () => {
    const db = new Database(join(tempFolder(), 'm.db'));
    try {
      migrate(db, upTo(2));
      expect(migrate(db, upTo(3)).applied).toEqual([3]);
      expect(db.pragma('user_version', { simple: true })).toBe(3);
      expect(columnNames(db, 'searches')).toEqual([
        'id', 'name', 'filters', 'request_key', 'filters_key', 'base_url', 'org_id', 'status', 'message', 'chunk_size', 'page_size',
        'pages', 'calls', 'people', 'created_at', 'updated_at', 'finished_at',
      ]);
      expect(columnNames(db, 'search_chunks')).toEqual(['search_id', 'chunk_index', 'filters', 'status', 'pages', 'service_count', 'last_token']);
      expect(columnNames(db, 'search_results')).toEqual(['search_id', 'person_id', 'name', 'title', 'company', 'person', 'job', 'first_page']);
    } finally {
      db.close();
    }
  });

  it('keeps each person once per search, checks statuses, and deletes parts and results with their search', () => {
    const db = openDatabase(':memory:', { migrations: upTo(3) });
    try {
      const id = addSearch(db);
      expect(() => addSearch(db, 'paused')).toThrow(/CHECK constraint/);
      db.prepare(`INSERT INTO search_chunks (search_id, chunk_index, filters, status) VALUES (?, 0, '[]', 'pending')`).run(id);
      const insert = db.prepare(`INSERT INTO search_results (search_id, person_id, person, first_page) VALUES (?, ?, '{}', 1)`);
      insert.run(id, 'p1');
      expect(() => insert.run(id, 'p1')).toThrow(/UNIQUE constraint/);
      insert.run(addSearch(db), 'p1');
      db.prepare('DELETE FROM searches WHERE id = ?').run(id);
      expect(db.prepare('SELECT count(*) FROM search_chunks').pluck().get()).toBe(0);
      expect(db.prepare('SELECT count(*) FROM search_results').pluck().get()).toBe(1);
    } finally {
      db.close();
    }
  });

  it('reads a page of results in first-seen order without sorting', () => {
    const db = openDatabase(':memory:', { migrations: upTo(3) });
    try {
      const plan = db
        .prepare('EXPLAIN QUERY PLAN SELECT person_id FROM search_results WHERE search_id = ? ORDER BY rowid LIMIT 50 OFFSET 100')
        .all(1) as { detail: string }[];
      expect(plan.map((p) => p.detail).join('\n')).not.toMatch(/TEMP B-TREE/);
    } finally {
      db.close();
    }
  });

  it('has no column that could hold a secret', () => {
    const db = openDatabase(':memory:', { migrations: upTo(3) });
    try {
      const names = ['searches', 'search_chunks', 'search_results'].flatMap((t) => columnNames(db, t));
      expect(names.filter((n) => /secret|password|api_?key|access/i.test(n))).toEqual([]);
    } finally {
      db.close();
    }
  });
});
