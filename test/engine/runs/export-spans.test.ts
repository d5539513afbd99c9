import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { answerPeople, candidateFacts } from '../../../electron/engine/matching';
import { readProject } from '../../../electron/engine/rows/project-record';
import { CHOSEN_SQL, chosenValues, type ChosenPerson } from '../../../electron/engine/rows/row-status';
import { exportProject, type ExportRequest } from '../../../electron/engine/runs/export-project';
import type { TwoThreads } from '../../../electron/engine/runs/export-spans';
import { storedQueryId } from '../../../electron/engine/runs/query-ids';
import { VerdictThread } from '../../../electron/engine/runs/verdict-thread';
import { openDatabase, putLookups } from '../../../electron/engine/store';
import type { ExportProgress } from '../../../shared/contract';
import type { Candidate } from '../../../shared/model';
import { tempFolder } from '../store/temp-folder';

const ada: Candidate = {
  rank: 1,
  score: 0.8,
  person: { id: 'p-ada', name: 'Ada Lovelace Zoë', linkedin: 'ada', location: 'London, United Kingdom', jobs: [{ title: 'Analyst', company: { name: 'Engines Ltd' }, started_at: '1842-01' }] },
};
const grace: Candidate = {
  rank: 2,
  score: null,
  person: { id: 'p-grace', name: 'Grace Hopper 葛丽丝', linkedin: 'grace', location: null, jobs: [{ title: 'Admiral', company: { name: 'Navy, "the"' }, started_at: '1943-12-01' }] },
};
const ROWS = 1000;
const SPAN_ROWS = 40;

/**
 * A project of ROWS rows in a file: every fifth matched (Ada or Grace, one decided before people were stored apart),
 * every seventh blank, every eleventh failed, the rest without candidates; cells that need quoting, formulas, text
 * beyond Latin-1 and ragged widths.
 */
function projectFile(): { db: Database.Database; projectId: number; dir: string } {
  const dir = tempFolder();
  const db = openDatabase(join(dir, 'matchdesk.db'));
  const queryId = storedQueryId(db, 1n, { fields: [] });
  putLookups(db, [{ queryId, query: { fields: [] }, fetchedAt: 1000, status: 'ok', candidates: [ada, grace], error: null, stored: answerPeople([ada, grace]) }]);
  const [adaId, graceId] = JSON.parse(db.prepare('SELECT people FROM lookups').pluck().get() as string) as number[];
  const projectId = Number(
    db
      .prepare(`INSERT INTO projects (name, status, created_at, updated_at, headers, row_count, blank_rows) VALUES ('p', 'ready', 't', 't', '["Name","Notes"]', ?, ?)`)
      .run(ROWS - Math.ceil(ROWS / 7), Math.ceil(ROWS / 7)).lastInsertRowid,
  );
  const insertRow = db.prepare('INSERT INTO rows (project_id, row_index, cells) VALUES (?, ?, ?)');
  const insertStatus = db.prepare('INSERT INTO row_status (project_id, row_index, state, outcome, strategy, fetched_at, decided_at) VALUES (?, ?, ?, ?, ?, ?, ?)');
  const cells = (i: number) => [`row ${i}`, ['plain', 'a, b', '=SUM(A1)', 'say "hi"', ' padded ', 'line\nbreak', 'Łódź ✓', '-5'][i % 8]!, ...(i % 13 === 0 ? ['wider'] : [])];
  db.transaction(() => {
    for (let i = 0; i < ROWS; i++) {
      if (i % 7 === 0) {
        insertRow.run(projectId, i, '[]');
        continue;
      }
      insertRow.run(projectId, i, JSON.stringify(cells(i)));
      const state = i % 5 === 0 ? 'accepted' : i % 11 === 0 ? 'error' : 'no_candidates';
      insertStatus.run(projectId, i, state, state === 'accepted' ? 'to_review' : state, 'email', 1000 + (i % 3) * 60_000, '');
      if (state !== 'accepted') continue;
      const chosen: ChosenPerson =
        i % 15 === 0
          ? { rank: 1, score: 0.5, summary: { id: 'p-old', name: 'Old Decision', title: null, company: 'Then Inc', social: 'old', location: null } }
          : { ...(i % 2 ? { rank: 1, score: 0.8 } : { rank: 2, score: null }), summary: candidateFacts(i % 2 ? ada : grace).summary, personId: i % 2 ? adaId! : graceId!, confidence: 0.9 };
      db.prepare(`UPDATE row_status SET source = 'manual', ${CHOSEN_SQL} WHERE project_id = ? AND row_index = ?`).run(...chosenValues('accepted', chosen), projectId, i);
    }
  })();
  // Rows wider than the header: the import warned of them, so the export reads the widest.
  db.prepare(`UPDATE projects SET warnings = '[{"code":"ragged_rows","message":"ragged"}]' WHERE id = ?`).run(projectId);
  return { db, projectId, dir };
}

const request = (destination: string, scope: ExportRequest['scope'] = 'all'): ExportRequest => ({ format: 'csv', scope, candidates: false, bom: true, delimiter: ',', destination, candidatesDestination: null });

/** The project exported to `name` in `dir`, on two threads as `threads` says (null: on the engine's thread alone). */
async function exported(db: Database.Database, projectId: number, dir: string, name: string, threads: TwoThreads | null, scope: ExportRequest['scope'] = 'all', onProgress?: (p: ExportProgress) => void, signal?: AbortSignal): Promise<Buffer> {
  const path = join(dir, name);
  await exportProject(db, readProject(db, projectId)!, request(path, scope), dir, onProgress, signal, undefined, threads);
  return readFileSync(path);
}

/** Two threads from the first row, in spans of SPAN_ROWS, the worker joined before any span is made; `by` counts each thread's spans. */
function twoThreads(db: Database.Database, start: () => VerdictThread | null = () => VerdictThread.start(db.name)): TwoThreads & { by: Record<'engine' | 'worker', number> } {
  const by = { engine: 0, worker: 0 };
  return { start, fromRows: 0, spanRows: SPAN_ROWS, waitForWorker: true, by, onSpan: (thread) => void by[thread]++ };
}

describe('a CSV export on two threads', () => {
  it("has the worker make some spans, and writes the bytes the engine's thread alone writes, for every scope", async () => {
    const { db, projectId, dir } = projectFile();
    try {
      for (const scope of ['all', 'matched'] as const) {
        const alone = await exported(db, projectId, dir, `alone-${scope}.csv`, null, scope);
        const threads = twoThreads(db);
        const progress: number[] = [];
        const both = await exported(db, projectId, dir, `both-${scope}.csv`, threads, scope, (p) => progress.push(p.rowsDone));
        expect(both.equals(alone), scope).toBe(true);
        expect(threads.by.worker, scope).toBeGreaterThan(0);
        expect(threads.by.engine + threads.by.worker, scope).toBe(Math.ceil(ROWS / SPAN_ROWS));
        expect(progress.at(-1)).toBe(ROWS);
        expect(progress.every((done, i) => i === 0 || done >= progress[i - 1]!)).toBe(true);
      }
      const text = readFileSync(join(dir, 'both-all.csv'), 'utf8');
      expect(text.split('\r\n').length).toBe(ROWS + 2);
      expect(text).toContain('"Navy, ""the"""');
      expect(text).toContain("'=SUM(A1)");
    } finally {
      db.close();
    }
  });

  it('writes what the export began with, however the engine writes meanwhile', async () => {
    const { db, projectId, dir } = projectFile();
    try {
      const before = await exported(db, projectId, dir, 'before.csv', null);
      const threads = twoThreads(db);
      const onSpan = threads.onSpan!;
      let changed = false;
      threads.onSpan = (thread, from, to) => {
        onSpan(thread, from, to);
        if (changed) return;
        changed = true;
        // A decision taken as the export writes its first span: the rows past it are still written as they were.
        db.prepare("UPDATE row_status SET state = 'rejected', chosen_person = NULL WHERE project_id = ? AND state = 'accepted'").run(projectId);
      };
      expect((await exported(db, projectId, dir, 'during.csv', threads)).equals(before)).toBe(true);
      expect(threads.by.worker).toBeGreaterThan(0);
      expect((await exported(db, projectId, dir, 'after.csv', null)).equals(before)).toBe(false);
    } finally {
      db.close();
    }
  });

  it('leaves the worker out when a commit comes between its snapshot and the engine’s, and writes the engine’s', async () => {
    const { db, projectId, dir } = projectFile();
    try {
      const before = await exported(db, projectId, dir, 'before.csv', null);
      const threads = twoThreads(db, () => {
        // Committed after the engine took its snapshot, before the worker takes its own.
        db.prepare("UPDATE row_status SET state = 'rejected', chosen_person = NULL WHERE project_id = ? AND state = 'accepted'").run(projectId);
        return VerdictThread.start(db.name);
      });
      expect((await exported(db, projectId, dir, 'both.csv', threads)).equals(before)).toBe(true);
      expect(threads.by).toEqual({ engine: Math.ceil(ROWS / SPAN_ROWS), worker: 0 });
    } finally {
      db.close();
    }
  });

  it('makes the spans of a worker that fails part way, or cannot open the database, on the engine’s thread: the same bytes', async () => {
    const { db, projectId, dir } = projectFile();
    try {
      const alone = await exported(db, projectId, dir, 'alone.csv', null);
      let thread: VerdictThread | null = null;
      const failing = twoThreads(db, () => (thread = VerdictThread.start(db.name)));
      const onSpan = failing.onSpan!;
      failing.onSpan = (by, from, to) => {
        onSpan(by, from, to);
        // The worker stops once it has made a span: those it was asked for since are the engine's.
        if (by === 'worker') void thread?.close();
      };
      expect((await exported(db, projectId, dir, 'failing.csv', failing)).equals(alone)).toBe(true);
      // The one it made, and perhaps those it had made by the time it stopped (it is asked for four at a time).
      expect(failing.by.worker).toBeGreaterThanOrEqual(1);
      expect(failing.by.worker).toBeLessThanOrEqual(4);
      expect(failing.by.engine + failing.by.worker).toBe(Math.ceil(ROWS / SPAN_ROWS));

      const unopened = twoThreads(db, () => VerdictThread.start(join(dir, 'no such folder', 'matchdesk.db')));
      expect((await exported(db, projectId, dir, 'unopened.csv', unopened)).equals(alone)).toBe(true);
      expect(unopened.by.worker).toBe(0);

      const none = twoThreads(db, () => null);
      expect((await exported(db, projectId, dir, 'none.csv', none)).equals(alone)).toBe(true);
    } finally {
      db.close();
    }
  });

  it('stops at once when cancelled, and leaves no file', async () => {
    const { db, projectId, dir } = projectFile();
    try {
      const threads = twoThreads(db);
      const cancel = new AbortController();
      const onSpan = threads.onSpan!;
      threads.onSpan = (by, from, to) => {
        onSpan(by, from, to);
        if (threads.by.engine + threads.by.worker === 3) cancel.abort();
      };
      await expect(exported(db, projectId, dir, 'cancelled.csv', threads, 'all', undefined, cancel.signal)).rejects.toMatchObject({ kind: 'cancelled' });
      expect(threads.by.engine + threads.by.worker).toBe(3);
      expect(readdirSync(dir).filter((name) => name.endsWith('.csv') || name.endsWith('.part'))).toEqual([]);
    } finally {
      db.close();
    }
  });
});
