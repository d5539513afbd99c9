import Database from 'better-sqlite3';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ALL_MIGRATIONS, migrate } from '../../../../electron/engine/store';
import { tempFolder } from '../temp-folder';

const upTo = (v: number) => ALL_MIGRATIONS.filter((m) => m.version <= v);

describe('migration 18: answers indexed by when they were fetched, then their query', () => {
  it('takes the place of the index by fetch time, and leaves the reads by key on the key', () => {
    const db = new Database(join(tempFolder(), 'm.db'));
    try {
      migrate(db, upTo(17));
      const insert = db.prepare("INSERT INTO lookups (query_key, query, fetched_at, status, candidate_count) VALUES (?, '{}', ?, ?, ?)");
      for (let i = 0; i < 500; i++) insert.run(`key-${i}`, 1_000 + Math.floor(i / 100), i % 7 === 0 ? 'error' : 'ok', i % 5);
      const indexes = () => db.prepare("SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'lookups' AND sql IS NOT NULL ORDER BY name").pluck().all();
      expect(indexes()).toEqual(['lookups_by_fetched_at']);

      expect(migrate(db, upTo(18)).applied).toEqual([18]);
      expect(indexes()).toEqual(['lookups_by_answer']);
      const plan = (sql: string, ...params: unknown[]) => (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[]).map((r) => r.detail).join(' ');
      // The copy's probe (runs/copied-verdicts.ts) names the index, which it reads alone: left to itself, the planner
      // takes the key's (a unique column) and reads the table too. Clearing old answers walks it by time.
      const probe = "FROM lookups WHERE fetched_at = ? AND query_key = ? AND status = 'ok' AND candidate_count = 0";
      expect(plan(`SELECT 1 ${probe}`, 1_001, 'key-100')).toContain('sqlite_autoindex_lookups_1');
      expect(plan(`SELECT 1 ${probe.replace('lookups', 'lookups INDEXED BY lookups_by_answer')}`, 1_001, 'key-100')).toContain(
        'COVERING INDEX lookups_by_answer (fetched_at=? AND query_key=? AND status=? AND candidate_count=?)',
      );
      expect(plan('DELETE FROM lookups WHERE fetched_at < ?', 1_002)).toContain('lookups_by_answer (fetched_at<?)');
      // A run's reads of fresh answers by key (store/lookups.ts) stay on the key's own index.
      expect(plan("SELECT query_key, facts FROM lookups WHERE status = 'ok' AND fetched_at >= ? AND query_key IN (?, ?, ?)", 0, 'key-1', 'key-2', 'key-3')).toContain(
        'sqlite_autoindex_lookups_1',
      );
      expect(db.prepare("SELECT count(*) FROM lookups INDEXED BY lookups_by_answer WHERE fetched_at = 1002 AND status = 'ok'").pluck().get()).toBe(
        db.prepare("SELECT count(*) FROM lookups NOT INDEXED WHERE fetched_at = 1002 AND status = 'ok'").pluck().get(),
      );
    } finally {
      db.close();
    }
  });
});
