import Database from 'better-sqlite3';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { freshStatus, type PlannedStep } from '../../../electron/engine/runs/replan-row';
import { NEW_STATUS_SQL, newStatusValues, readRowStatus, REPLACE_STATUS_SQL, rowStatusValues, type RowStatusRecord } from '../../../electron/engine/rows/row-status';
import { migrate } from '../../../electron/engine/store';
import { tempFolder } from '../store/temp-folder';

const plan: PlannedStep[] = [{ id: 3, signature: '[["email_address","jane@acme.com"]]', strategy: 'email' }];

describe("a new row's status", () => {
  it('reads back from the lean insert exactly as from a full write, job change included', () => {
    const db = new Database(join(tempFolder(), 'statuses.sqlite'));
    try {
      migrate(db);
      // Statuses of projects 1 and 2 side by side, with no project rows to hang them on.
      db.pragma('foreign_keys = OFF');
      const fresh = [freshStatus(0, plan, 'Jane Doe'), freshStatus(1, [], 'row 2')];
      for (const status of fresh) db.prepare(NEW_STATUS_SQL).run(1, ...newStatusValues(status)!);
      for (const status of fresh) db.prepare(REPLACE_STATUS_SQL).run(2, ...rowStatusValues(status));
      const columns = 'SELECT * FROM row_status WHERE project_id = ? ORDER BY row_index';
      const stored = (projectId: number) => (db.prepare(columns).all(projectId) as Record<string, unknown>[]).map(({ project_id: _, ...rest }) => rest);
      expect(stored(1)).toEqual(stored(2));
      expect(fresh.map((s) => readRowStatus(db, 1, s.rowIndex))).toEqual(fresh);
    } finally {
      db.close();
    }
  });

  it('is written in full when it carries anything beyond its query and label', () => {
    const pending = freshStatus(0, plan, 'Jane Doe');
    const more: Partial<RowStatusRecord>[] = [
      { fetchedAt: 1_700_000_000_000 },
      { candidateCount: 2 },
      { chosenRank: 0 },
      { source: 'manual' },
      { decidedAt: '2026-11-28T12:00:00.000Z' },
      { verdict: { confidence: 0.9, runnerUp: 0.1, bestRank: 0, reason: 'same e-mail', guard: null } },
    ];
    expect(newStatusValues(pending)).not.toBeNull();
    for (const extra of more) expect(newStatusValues({ ...pending, ...extra })).toBeNull();
  });
});
