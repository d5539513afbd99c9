import Database from 'better-sqlite3';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ALL_MIGRATIONS, migrate } from '../../../../electron/engine/store';
import { tempFolder } from '../temp-folder';

const upTo = (v: number) => ALL_MIGRATIONS.filter((m) => m.version <= v);

describe('migration 5: answer digests, and the query index without state', () => {
  it('keeps every stored answer and row, puts the digest before the candidates, and leaves old answers undigested', () => {
    const db = new Database(join(tempFolder(), 'm.db'));
    try {
      migrate(db, upTo(4));
      const candidates = JSON.stringify([{ rank: 1, score: 0.9, person: { id: 'p1' } }]);
      db.prepare("INSERT INTO lookups VALUES ('ok-key', '{\"fields\":[]}', 100, 'ok', ?, NULL)").run(candidates);
      db.prepare("INSERT INTO lookups VALUES ('err-key', '{\"fields\":[]}', 200, 'error', NULL, '{\"kind\":\"server\",\"message\":\"boom\"}')").run();
      const project = Number(db.prepare("INSERT INTO projects (name, status, created_at, updated_at) VALUES ('p', 'ready', 't', 't')").run().lastInsertRowid);
      db.prepare("INSERT INTO rows VALUES (?, 0, '[]')").run(project);
      db.prepare("INSERT INTO row_status (project_id, row_index, state, outcome, query_key) VALUES (?, 0, 'pending', 'pending', 'ok-key')").run(project);

      expect(migrate(db, upTo(5)).applied).toEqual([5]);
      expect(db.pragma('user_version', { simple: true })).toBe(5);

      const columns = (db.pragma('table_info(lookups)') as { name: string }[]).map((c) => c.name);
      expect(columns).toEqual(['query_key', 'query', 'fetched_at', 'status', 'candidate_count', 'top_score', 'second_score', 'top_summary', 'candidates', 'error']);
      expect(db.prepare('SELECT query_key, fetched_at, status, candidates, error FROM lookups ORDER BY query_key').all()).toEqual([
        { query_key: 'err-key', fetched_at: 200, status: 'error', candidates: null, error: '{"kind":"server","message":"boom"}' },
        { query_key: 'ok-key', fetched_at: 100, status: 'ok', candidates, error: null },
      ]);
      // An answer from before this step has no digest: the run reads it whole instead.
      expect(db.prepare("SELECT candidate_count, top_summary FROM lookups WHERE query_key = 'ok-key'").get()).toEqual({ candidate_count: null, top_summary: null });

      const indexColumns = (name: string) => (db.pragma(`index_info(${name})`) as { name: string }[]).map((c) => c.name);
      expect(indexColumns('lookups_by_fetched_at')).toEqual(['fetched_at']);
      expect(indexColumns('row_status_by_query')).toEqual(['project_id', 'query_key']);
      expect(db.prepare('SELECT query_key FROM row_status WHERE project_id = ?').pluck().all(project)).toEqual(['ok-key']);
      expect(() => db.prepare("INSERT INTO lookups (query_key, query, fetched_at, status) VALUES ('k', '{}', 1, 'maybe')").run()).toThrow(/CHECK constraint/);
    } finally {
      db.close();
    }
  });
});
