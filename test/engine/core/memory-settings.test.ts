import type Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { TEMP_CACHE_KB, type Engine } from '../../../electron/engine/engine';
import { openEngine, tempDir } from './helpers';

// What the engine's connection holds in memory, as it opens: read from the connection itself.

let engine: Engine | null = null;
let folder: ReturnType<typeof tempDir> | null = null;

afterEach(async () => {
  await engine?.close();
  engine = null;
  folder?.remove();
});

describe("the engine's connection", () => {
  it("keeps 16 MB of the file's pages and 4 MB of temporary tables' pages, also once a temporary table is made", async () => {
    folder = tempDir('matchdesk-memory-');
    engine = await openEngine(folder.dir);
    const db = (engine as unknown as { db: Database.Database }).db;
    expect(db.pragma('cache_size', { simple: true })).toBe(-16384);
    expect(TEMP_CACHE_KB).toBe(4096);
    expect(db.pragma('temp.cache_size', { simple: true })).toBe(-4096);
    // SQLite opens the temporary database with the first temporary table: the setting holds for it.
    db.exec('CREATE TEMP TABLE memory_probe (x INTEGER)');
    db.exec('DROP TABLE temp.memory_probe');
    expect(db.pragma('temp.cache_size', { simple: true })).toBe(-4096);
  });
});
