import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Profile } from '../../../shared/model';
import { deleteProfile, getProfile, listProfiles, openDatabase, saveProfile } from '../../../electron/engine/store';
import { tempFolder } from './temp-folder';

const work: Profile = {
  id: 'p-work',
  name: 'work',
  baseUrl: 'https://gotlivedata.io',
  orgId: 'org-1',
  kind: 'service_account',
  login: 'client-123',
  createdAt: '2026-01-02T03:04:05.000Z',
};
const demo: Profile = { id: 'p-demo', name: 'Demo', baseUrl: 'http://127.0.0.1:4000', orgId: 'demo', kind: 'api_key', login: null, createdAt: '2026-02-01T00:00:00.000Z' };

function open() {
  const db = openDatabase(join(tempFolder(), 'matchdesk.db'));
  return db;
}

describe('profiles', () => {
  it('saves, reads back and lists profiles by name', () => {
    const db = open();
    try {
      saveProfile(db, work);
      saveProfile(db, demo);
      expect(getProfile(db, 'p-work')).toEqual(work);
      expect(getProfile(db, 'p-demo')).toEqual(demo);
      expect(getProfile(db, 'nobody')).toBeNull();
      expect(listProfiles(db).map((p) => p.name)).toEqual(['Demo', 'work']);
    } finally {
      db.close();
    }
  });

  it('updates in place by id and keeps when the profile was created', () => {
    const db = open();
    try {
      saveProfile(db, work);
      saveProfile(db, { ...work, name: 'Work (EU)', baseUrl: 'https://eu.example.test', kind: 'password', login: 'me@example.com', createdAt: '2030-01-01T00:00:00.000Z' });
      expect(listProfiles(db)).toEqual([{ ...work, name: 'Work (EU)', baseUrl: 'https://eu.example.test', kind: 'password', login: 'me@example.com' }]);
    } finally {
      db.close();
    }
  });

  it('deletes by id and says whether anything was there', () => {
    const db = open();
    try {
      saveProfile(db, work);
      expect(deleteProfile(db, 'p-work')).toBe(true);
      expect(deleteProfile(db, 'p-work')).toBe(false);
      expect(listProfiles(db)).toEqual([]);
    } finally {
      db.close();
    }
  });

  it('never writes a secret that rides along on the object', () => {
    const db = open();
    try {
      const withSecret = { ...work, secret: 'sk-do-not-store', password: 'hunter2' } as Profile;
      saveProfile(db, withSecret);
      const dump = JSON.stringify(db.prepare('SELECT * FROM profiles').all());
      expect(dump).not.toContain('sk-do-not-store');
      expect(dump).not.toContain('hunter2');
    } finally {
      db.close();
    }
  });

  it('refuses an unknown credential kind', () => {
    const db = open();
    try {
      expect(() => saveProfile(db, { ...work, kind: 'oauth' as Profile['kind'] })).toThrow(/CHECK constraint/);
    } finally {
      db.close();
    }
  });
});
