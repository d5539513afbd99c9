import Database from 'better-sqlite3';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ALL_MIGRATIONS, migrate } from '../../../../electron/engine/store';
import { tempFolder } from '../temp-folder';

const upTo = (v: number) => ALL_MIGRATIONS.filter((m) => m.version <= v);

describe("migration 17: a copied run's rows are timed apart from a run's", () => {
  it('keeps the figures timed before, takes a copied run as work of its own and still refuses any other', () => {
    const db = new Database(join(tempFolder(), 'm.db'));
    try {
      migrate(db, upTo(16));
      const insert = db.prepare('INSERT INTO row_timings (work, seconds_per_row, updated_at) VALUES (?, ?, ?)');
      insert.run('run', 30e-6, 't1');
      insert.run('refresh', 70e-6, 't2');
      expect(() => insert.run('copy', 20e-6, 't3')).toThrow(/CHECK/);

      expect(migrate(db, upTo(17)).applied).toEqual([17]);
      insert.run('copy', 20e-6, 't3');
      expect(db.prepare('SELECT work, seconds_per_row, updated_at FROM row_timings ORDER BY work').raw().all()).toEqual([
        ['copy', 20e-6, 't3'],
        ['refresh', 70e-6, 't2'],
        ['run', 30e-6, 't1'],
      ]);
      expect(() => insert.run('export', 1e-6, 't4')).toThrow(/CHECK/);
    } finally {
      db.close();
    }
  });
});
