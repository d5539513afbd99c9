import type { Database } from 'better-sqlite3';
import type { CredentialKind, Profile } from '../../../shared/model';

interface ProfileRow {
  id: string;
  name: string;
  base_url: string;
  org_id: string;
  kind: CredentialKind;
  login: string | null;
  created_at: string;
}

const columns = 'id, name, base_url, org_id, kind, login, created_at';

export function listProfiles(db: Database): Profile[] {
  const rows = db.prepare(`SELECT ${columns} FROM profiles ORDER BY name COLLATE NOCASE, created_at, id`).all() as ProfileRow[];
  return rows.map(toProfile);
}

export function getProfile(db: Database, id: string): Profile | null {
  const row = db.prepare(`SELECT ${columns} FROM profiles WHERE id = ?`).get(id) as ProfileRow | undefined;
  return row ? toProfile(row) : null;
}

/** Inserts or updates by id. An update keeps the original created_at: it records when the profile was made. */
export function saveProfile(db: Database, p: Profile): void {
  db.prepare(
    `INSERT INTO profiles (${columns}) VALUES (@id, @name, @baseUrl, @orgId, @kind, @login, @createdAt)
     ON CONFLICT (id) DO UPDATE SET
       name = excluded.name, base_url = excluded.base_url, org_id = excluded.org_id,
       kind = excluded.kind, login = excluded.login`,
  ).run({ id: p.id, name: p.name, baseUrl: p.baseUrl, orgId: p.orgId, kind: p.kind, login: p.login ?? null, createdAt: p.createdAt });
}

/** True when a profile was deleted. The caller removes its keychain secret. */
export function deleteProfile(db: Database, id: string): boolean {
  return db.prepare('DELETE FROM profiles WHERE id = ?').run(id).changes > 0;
}

function toProfile(row: ProfileRow): Profile {
  return {
    id: row.id,
    name: row.name,
    baseUrl: row.base_url,
    orgId: row.org_id,
    kind: row.kind,
    login: row.login,
    createdAt: row.created_at,
  };
}
