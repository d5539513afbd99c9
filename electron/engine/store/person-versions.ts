import type { Database } from 'better-sqlite3';
import { hash } from 'node:crypto';
import { DigestIds } from './digest-ids';

/**
 * The 64-bit digest of a person's state as a refresh saw it (rows/person-history.ts), read from its SHA-256's hex as
 * a query's is. Stored in `person_versions.digest` (migration 35): a different digest needs a migration.
 */
export function personVersionDigest(scope: string, slug: string, company: string | null, title: string | null, since: string | null): bigint {
  return BigInt.asIntN(64, BigInt(`0x${hash('sha256', JSON.stringify([scope, slug, company, title, since]), 'hex').slice(0, 16)}`));
}

/**
 * The person versions stored, by digest (migration 35): read into memory rather than indexed (store/digest-ids.ts).
 * An index by scope, slug and state put each new version at a random page of it, and every call of a refresh
 * rewrote a hundred of its pages.
 */
export const PersonVersions = { of: (db: Database): DigestIds => DigestIds.of(db, 'person_versions') };
