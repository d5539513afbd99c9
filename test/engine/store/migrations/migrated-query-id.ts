import type { Database } from 'better-sqlite3';
import { hash } from 'node:crypto';

/**
 * The id migration 28 gave the query stored before it under `key`: found by the key's first 64 bits (of its SHA-256
 * for a key that is not a digest already, as tests wrote them).
 */
export function migratedQueryId(db: Database, key: string): number {
  const hex = /^[0-9a-f]{64}$/.test(key) ? key : hash('sha256', key);
  const id = db.prepare('SELECT id FROM queries WHERE digest = ?').pluck().get(BigInt.asIntN(64, BigInt(`0x${hex.slice(0, 16)}`))) as number | undefined;
  if (id === undefined) throw new Error(`No query was migrated from the key ${key}`);
  return id;
}
