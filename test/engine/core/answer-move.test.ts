// An engine opened on a data folder an older version made moves its cached answers to the current layout in the
// background, saying how far it is, and answers from them meanwhile and after as before.
import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rankedFacts, storedFacts } from '../../../electron/engine/matching';
import { ALL_MIGRATIONS, migrate } from '../../../electron/engine/store';
import type { JobProgress } from '../../../shared/contract';
import type { Candidate } from '../../../shared/model';
import { ok, openEngine, tempDir } from './helpers';

let tmp: ReturnType<typeof tempDir>;
beforeAll(() => (tmp = tempDir('matchdesk-answer-move-')));
afterAll(() => tmp.remove());

describe('an engine on a data folder from before migration 25', () => {
  it('moves its answers to the new layout in the background, with progress, and its cache reads the same', async () => {
    const dataDir = join(tmp.dir, 'old');
    mkdirSync(dataDir, { recursive: true });
    const file = join(dataDir, 'matchdesk.sqlite');
    const old = new Database(file);
    migrate(old, ALL_MIGRATIONS.filter((m) => m.version <= 24));
    const insert = old.prepare("INSERT INTO lookups (query_key, query, fetched_at, status, candidate_count, facts, candidates) VALUES (?, '{\"fields\":[]}', ?, 'ok', ?, ?, ?)");
    old.transaction(() => {
      for (let i = 0; i < 700; i++) {
        const candidates: Candidate[] = [{ rank: 1, score: null, person: { name: `Person ${i % 350}`, jobs: [{ title: 'Engineer', company: { name: 'Globex' } }] } }];
        insert.run(`k${i}`, Date.now(), 1, storedFacts(rankedFacts(candidates)), JSON.stringify(candidates));
      }
    })();
    old.close();

    const engine = await openEngine(dataDir);
    try {
      // The move is a job like any long work: one event shape, on no project, ending done with every answer moved.
      const progress: JobProgress[] = [];
      await new Promise<void>((resolve) => {
        engine.on('job.progress', (p) => {
          if (p.kind !== 'answerMove') return;
          progress.push(p);
          if (p.state === 'done') resolve();
        });
      });
      expect(progress.at(-1)).toMatchObject({ kind: 'answerMove', projectId: null, state: 'done', done: 700, total: 700 });
      expect(progress.map((p) => p.done)).toEqual([...progress.map((p) => p.done)].sort((a, b) => a - b));
      expect(await ok(engine, 'cache.stats', {})).toMatchObject({ entries: 700, fresh: 700 });
    } finally {
      await engine.close();
    }
    const db = new Database(file, { readonly: true });
    try {
      expect(db.prepare('SELECT count(*) FROM lookups WHERE people IS NULL OR candidates IS NOT NULL OR facts IS NOT NULL').pluck().get()).toBe(0);
      expect(db.prepare('SELECT count(*) FROM people').pluck().get()).toBe(350);
    } finally {
      db.close();
    }
  });
});
