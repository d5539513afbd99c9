import type { Database } from 'better-sqlite3';
import { DigestIds } from './digest-ids';

/**
 * The people stored, by the digest of their record: which id a person version already has. Kept in `person_digests`
 * (migration 25), read into memory rather than indexed (store/digest-ids.ts).
 */
export const PersonDigests = { of: (db: Database): DigestIds => DigestIds.of(db, 'person_digests') };
