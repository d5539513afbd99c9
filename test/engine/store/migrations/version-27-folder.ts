import { ALL_MIGRATIONS, openDatabase } from '../../../../electron/engine/store';

/**
 * Writes a data file at version 27 with two projects' plans, rows and answers (120 rows, 55 answers): queries shared
 * between them, keys a row names that no plan does, answers no row names, texts in both older forms.
 */
export function writeVersion27Folder(file: string): void {
  const db = openDatabase(file, { migrations: ALL_MIGRATIONS.filter((m) => m.version <= 27) });
  try {
    db.transaction(() => {
      const project = (name: string) => Number(db.prepare("INSERT INTO projects (name, status, created_at, updated_at) VALUES (?, 'ready', 't', 't')").run(name).lastInsertRowid);
      const key = (n: number) => n.toString(16).padStart(64, '0');
      const pairs = (n: number) => JSON.stringify([['email_address', `p${n}@example.com`]]);
      const find = (n: number) => JSON.stringify({ fields: [{ field_name: 'email_address', search_term: `p${n}@example.com` }] });
      const step = db.prepare('INSERT INTO row_queries (project_id, row_index, step, strategy, query_key, query, query_id) VALUES (?, ?, ?, ?, ?, ?, ?)');
      const status = db.prepare('INSERT INTO row_status (project_id, row_index, state, outcome, step, strategy, query_key, query_id, fetched_at, candidate_count, label) VALUES (?, ?, ?, ?, 0, ?, ?, ?, ?, ?, ?)');
      const answer = db.prepare('INSERT INTO lookups (query_key, query, fetched_at, status, candidate_count, people, ranks) VALUES (?, ?, ?, ?, ?, ?, ?)');
      for (const [p, offset] of [[project('first'), 0], [project('second'), 40]] as const) {
        for (let r = 0; r < 60; r++) {
          const q = (offset + r) % 70;
          step.run(p, r, 0, 'email', key(q), r % 3 === 0 ? find(q) : pairs(q), r);
          if (r % 4 === 0) step.run(p, r, 1, 'name+company', key(q + 1000), pairs(q + 1000), r + 100);
          // Every fifth row names a key of no plan (an earlier service's); every seventh has none.
          const own = r % 7 === 0 ? null : r % 5 === 0 ? key(q + 5000) : key(q);
          status.run(p, r, own ? 'to_review' : 'no_query', own ? 'to_review' : 'no_query', own ? 'email' : null, own, own ? r : null, own ? 1000 + r : null, r % 3, `row ${r}`);
        }
      }
      for (let q = 0; q < 90; q += 2) answer.run(key(q), find(q), 2000 + q, q % 10 === 0 ? 'error' : 'ok', q % 4, '[]', '[]');
      for (let q = 1000; q < 1010; q++) answer.run(key(q), find(q), 3000 + q, 'ok', 1, '[]', '[]');
    })();
    db.pragma('wal_checkpoint(TRUNCATE)');
  } finally {
    db.close();
  }
}
