import Database from 'better-sqlite3';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ALL_MIGRATIONS, getAnswerFacts, getLookups, migrate } from '../../../../electron/engine/store';
import { tempFolder } from '../temp-folder';
import { migratedQueryId } from './migrated-query-id';

const upTo = (v: number) => ALL_MIGRATIONS.filter((m) => m.version <= v);

describe('migration 6: candidate facts on lookups; the model\'s verdict on row statuses', () => {
  it('keeps every answer and row, puts the facts before the candidates, and leaves earlier rows without a verdict', () => {
    const db = new Database(join(tempFolder(), 'm.db'));
    try {
      migrate(db, upTo(5));
      const candidates = JSON.stringify([{ rank: 1, score: null, person: { id: 'p1', name: 'Ada' } }]);
      db.prepare("INSERT INTO lookups (query_key, query, fetched_at, status, candidate_count, top_summary, candidates) VALUES ('ok-key', '{\"fields\":[]}', 100, 'ok', 1, '{\"id\":\"p1\"}', ?)").run(candidates);
      db.prepare("INSERT INTO lookups (query_key, query, fetched_at, status, error) VALUES ('err-key', '{\"fields\":[]}', 200, 'error', '{\"kind\":\"server\",\"message\":\"boom\"}')").run();
      const project = Number(db.prepare("INSERT INTO projects (name, status, created_at, updated_at) VALUES ('p', 'ready', 't', 't')").run().lastInsertRowid);
      db.prepare("INSERT INTO rows VALUES (?, 0, '[]')").run(project);
      db.prepare("INSERT INTO row_status (project_id, row_index, state, outcome, query_key) VALUES (?, 0, 'to_review', 'to_review', 'ok-key')").run(project);

      expect(migrate(db, upTo(6)).applied).toEqual([6]);
      expect(db.pragma('user_version', { simple: true })).toBe(6);

      const columns = (table: string) => (db.pragma(`table_info(${table})`) as { name: string }[]).map((c) => c.name);
      expect(columns('lookups')).toEqual(['query_key', 'query', 'fetched_at', 'status', 'candidate_count', 'facts', 'candidates', 'error']);
      expect(columns('row_status').slice(-5)).toEqual(['confidence', 'runner_up', 'best_rank', 'reason', 'guard']);
      expect(db.prepare('SELECT state, confidence, guard FROM row_status WHERE project_id = ?').get(project)).toEqual({ state: 'to_review', confidence: null, guard: null });
      const indexColumns = (name: string) => (db.pragma(`index_info(${name})`) as { name: string }[]).map((c) => c.name);
      expect(indexColumns('row_status_by_confidence')).toEqual(['project_id', 'state', 'confidence']);
      expect(indexColumns('lookups_by_fetched_at')).toEqual(['fetched_at']);
      // The old answer is kept whole, without facts: once the file is up to date, the run makes them from its candidates.
      migrate(db);
      const [okId, errId] = [migratedQueryId(db, 'ok-key'), migratedQueryId(db, 'err-key')];
      expect(getAnswerFacts(db, [okId, errId], 0)).toEqual(new Map([[okId, null]]));
      expect(getLookups(db, [okId, errId], 0).get(okId)?.candidates).toHaveLength(1);
      expect(getLookups(db, [errId], 0).get(errId)?.error).toEqual({ kind: 'server', message: 'boom' });
    } finally {
      db.close();
    }
  });
});
