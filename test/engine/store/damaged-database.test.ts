// A database whose header is fine but an inner page is damaged: the first statement that reads that page gives the
// move-aside guidance a damaged header gives, and the engine writes nothing more into the file.
import Database from 'better-sqlite3';
import { createHash } from 'node:crypto';
import { closeSync, existsSync, openSync, readFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DATABASE_FILE } from '../../../electron/engine/engine';
import { fails, ok, openEngine, tempDir, writeCsv } from '../core/helpers';

const fingerprint = (file: string) => (existsSync(file) ? createHash('sha256').update(readFileSync(file)).digest('hex') : 'none');

/** Overwrites the first bytes of the root page of `table`'s B-tree: the header and the schema stay readable. */
function damageTable(dbFile: string, table: string): void {
  const check = new Database(dbFile, { readonly: true });
  const pageSize = check.pragma('page_size', { simple: true }) as number;
  const root = (check.prepare('SELECT rootpage FROM sqlite_schema WHERE name = ?').get(table) as { rootpage: number }).rootpage;
  check.close();
  const fd = openSync(dbFile, 'r+');
  writeSync(fd, Buffer.alloc(64, 0xff), 0, 64, (root - 1) * pageSize);
  closeSync(fd);
}

describe('a database damaged inside', () => {
  it('gives the move-aside guidance at the first read of the damaged page, then writes nothing more to the file', async () => {
    const tmp = tempDir('matchdesk-damaged-');
    try {
      const first = await openEngine(tmp.dir);
      const rows = Array.from({ length: 3000 }, (_, i) => [`Person ${i}`, `person${i}@example.com`, `Company ${i % 50}`]);
      const project = (await ok(first, 'projects.import', { file: writeCsv(join(tmp.dir, 'people.csv'), ['Name', 'Email', 'Company'], rows) })).summary;
      await first.close();
      const dbFile = join(tmp.dir, DATABASE_FILE);
      damageTable(dbFile, 'rows');

      const engine = await openEngine(tmp.dir);
      try {
        const error = await fails(engine, 'export.run', { projectId: project.id, destination: join(tmp.dir, 'out.csv'), format: 'csv', scope: 'all', candidates: false });
        expect(error.kind, error.message).toBe('database');
        expect(error.message).toContain(dbFile);
        expect(error.message).toContain('is not a Matchdesk database or is damaged');
        expect(error.message).toContain('Move it aside or restore it from a backup');
        const files = () => [fingerprint(dbFile), fingerprint(`${dbFile}-wal`)];
        const atDetection = files();

        // Writes that touch no damaged page are refused too: the engine stops using the file.
        for (const refused of [
          await fails(engine, 'settings.update', { concurrency: 3 }),
          await fails(engine, 'projects.rename', { projectId: project.id, name: 'Renamed' }),
          await fails(engine, 'projects.delete', { projectId: project.id }),
        ]) {
          expect(refused).toMatchObject({ kind: 'database', message: error.message });
        }
        expect(files()).toEqual(atDetection);
      } finally {
        await engine.close();
      }
    } finally {
      tmp.remove();
    }
  });
});
