import type { Migration } from '../migration';

// No secret column on purpose: secrets live only in the OS keychain, never in the database file.
export const profilesSettingsLookups: Migration = {
  version: 1,
  name: 'profiles, settings and the lookups cache',
  up(db) {
    db.exec(`
      CREATE TABLE settings (
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL
      );

      CREATE TABLE profiles (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        base_url TEXT NOT NULL,
        org_id TEXT NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('service_account', 'password', 'api_key')),
        login TEXT,
        created_at TEXT NOT NULL
      );

      CREATE TABLE lookups (
        query_key TEXT PRIMARY KEY,
        query TEXT NOT NULL,
        fetched_at INTEGER NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('ok', 'error')),
        candidates TEXT,
        error TEXT
      );

      CREATE INDEX lookups_by_fetched_at ON lookups (fetched_at);
    `);
  },
};
