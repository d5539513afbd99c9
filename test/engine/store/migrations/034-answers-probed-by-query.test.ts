import Database from 'better-sqlite3';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ALL_MIGRATIONS, migrate } from '../../../../electron/engine/store';
import { tempFolder } from '../temp-folder';

const upTo = (v: number) => ALL_MIGRATIONS.filter((m) => m.version <= v);

describe('migration 34: answers probed by their query alone', () => {
  it('drops the index by fetch time, keeps every answer, and the copy probes by the query id', () => {
    const db = new Database(join(tempFolder(), 'm.db'));
    try {
      migrate(db, upTo(33));
      const insert = db.prepare('INSERT INTO lookups (query_id, fetched_at, status, candidate_count, people, ranks) VALUES (?, ?, ?, ?, ?, ?)');
      for (let i = 1; i <= 500; i++) insert.run(i, 1_000 + Math.floor(i / 100), i % 7 === 0 ? 'error' : 'ok', i % 5, i % 5 === 0 ? null : '[1]', '');
      const indexes = () => db.prepare("SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'lookups' AND sql IS NOT NULL ORDER BY name").pluck().all();
      const answers = () => db.prepare('SELECT * FROM lookups ORDER BY query_id').raw().all();
      const before = answers();
      expect(indexes()).toEqual(['lookups_by_answer']);

      expect(migrate(db, upTo(34)).applied).toEqual([34]);
      expect(indexes()).toEqual([]);
      expect(answers()).toEqual(before);
      const plan = (sql: string, ...params: unknown[]) => (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[]).map((r) => r.detail).join(' ');
      // The copy's probe (runs/copied-verdicts.ts) reads one answer by its key.
      expect(plan("SELECT 1 FROM lookups AS l WHERE l.query_id = ? AND l.fetched_at = ? AND l.status = 'ok' AND l.candidate_count = 0", 101, 1_001)).toContain(
        'USING INTEGER PRIMARY KEY (rowid=?)',
      );
      expect(db.prepare("SELECT count(*) FROM lookups WHERE query_id = 110 AND fetched_at = 1001 AND status = 'ok' AND candidate_count = 0").pluck().get()).toBe(1);
    } finally {
      db.close();
    }
  });
});
