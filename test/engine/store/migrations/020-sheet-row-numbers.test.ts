import Database from 'better-sqlite3';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ALL_MIGRATIONS, migrate } from '../../../../electron/engine/store';
import { readProject, sheetRowNumber } from '../../../../electron/engine/rows/project-record';
import { tempFolder } from '../temp-folder';

const upTo = (v: number) => ALL_MIGRATIONS.filter((m) => m.version <= v);

describe("migration 20: a project's rows numbered as its sheet's, blank rows kept", () => {
  it('leaves a project imported before (blank rows dropped) with its rows and the numbers it showed: data row 1 = Row 1', () => {
    const db = new Database(join(tempFolder(), 'm.db'));
    try {
      db.pragma('foreign_keys = ON');
      migrate(db, upTo(19));
      const project = Number(
        db.prepare("INSERT INTO projects (name, headers, row_count, status, created_at, updated_at) VALUES ('old', '[\"Name\"]', 2, 'ready', 't', 't')").run()
          .lastInsertRowid,
      );
      const row = db.prepare('INSERT INTO rows (project_id, row_index, cells) VALUES (?, ?, ?)');
      row.run(project, 0, '["Ann"]');
      row.run(project, 1, '["Bo"]');

      expect(migrate(db, upTo(20)).applied).toEqual([20]);
      const record = readProject(db, project)!;
      expect({ rowCount: record.rowCount, blankRows: record.blankRows, firstRow: record.firstRow }).toEqual({ rowCount: 2, blankRows: 0, firstRow: 1 });
      expect([0, 1].map((i) => sheetRowNumber(record, i))).toEqual([1, 2]);
      expect(db.prepare('SELECT cells FROM rows WHERE project_id = ? ORDER BY row_index').pluck().all(project)).toEqual(['["Ann"]', '["Bo"]']);
    } finally {
      db.close();
    }
  });
});
