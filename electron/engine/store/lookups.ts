import type { Database, Statement } from 'better-sqlite3';
import { createHash } from 'node:crypto';
import type { Candidate, FindQuery } from '../../../shared/model';
import type { CacheStats } from '../../../shared/contract';

export interface LookupError {
  kind: string;
  message: string;
  status?: number;
}

/** One cached answer to a find query: the candidates, or the error the service gave. */
export interface Lookup {
  queryKey: string;
  query: FindQuery;
  /** Milliseconds since the epoch. */
  fetchedAt: number;
  status: 'ok' | 'error';
  candidates: Candidate[] | null;
  error: LookupError | null;
}

export type { CacheStats };

/** SQLite's default limit on bound parameters is far higher, but long IN lists plan and prepare slowly. */
const MAX_KEYS_PER_STATEMENT = 500;

/**
 * The cache key of a find query: identical questions to the same service and organization share it,
 * whatever the term order or the base URL's trailing slash and letter case.
 */
export function queryKey(baseUrl: string, orgId: string, query: FindQuery): string {
  const terms = query.fields
    .map((t) => [t.field_name, t.search_term] as const)
    .sort((a, b) => compare(a[0], b[0]) || compare(a[1], b[1]));
  const canonical = JSON.stringify([baseUrl.replace(/\/+$/, '').toLowerCase(), orgId, terms]);
  return createHash('sha256').update(canonical).digest('hex');
}

/** The stored lookups among `keys` fetched at or after `freshAfterMs`, errors included. Missing keys are absent. */
export function getLookups(db: Database, keys: readonly string[], freshAfterMs: number): Map<string, Lookup> {
  const found = new Map<string, Lookup>();
  const unique = [...new Set(keys)];
  for (let i = 0; i < unique.length; i += MAX_KEYS_PER_STATEMENT) {
    const chunk = unique.slice(i, i + MAX_KEYS_PER_STATEMENT);
    const rows = selectStatement(db, chunk.length).all(freshAfterMs, ...chunk) as LookupRow[];
    for (const row of rows) {
      const lookup = toLookup(row);
      if (lookup) found.set(lookup.queryKey, lookup);
    }
  }
  return found;
}

/**
 * Stores many lookups in one transaction. An 'ok' row replaces anything; an 'error' row never replaces an
 * 'ok' row fetched at or after `keepOkAfterMs` (default: any 'ok' row), so a failed refresh never throws
 * away candidates the user could still review.
 */
export function putLookups(db: Database, rows: readonly Lookup[], opts: { keepOkAfterMs?: number } = {}): void {
  const keepOkAfterMs = opts.keepOkAfterMs ?? Number.MIN_SAFE_INTEGER;
  const upsert = db.prepare(
    `INSERT INTO lookups (query_key, query, fetched_at, status, candidates, error)
     VALUES (@queryKey, @query, @fetchedAt, @status, @candidates, @error)
     ON CONFLICT (query_key) DO UPDATE SET
       query = excluded.query, fetched_at = excluded.fetched_at, status = excluded.status,
       candidates = excluded.candidates, error = excluded.error
     WHERE NOT (excluded.status = 'error' AND lookups.status = 'ok' AND lookups.fetched_at >= @keepOkAfterMs)`,
  );
  db.transaction(() => {
    for (const r of rows) {
      upsert.run({
        queryKey: r.queryKey,
        query: JSON.stringify(r.query),
        fetchedAt: Math.trunc(r.fetchedAt),
        status: r.status,
        candidates: r.status === 'ok' ? JSON.stringify(r.candidates ?? []) : null,
        error: r.status === 'error' ? JSON.stringify(r.error ?? { kind: 'unknown', message: 'No error detail was recorded.' }) : null,
        keepOkAfterMs,
      });
    }
  })();
}

export function cacheStats(db: Database, freshAfterMs: number): CacheStats {
  const row = db
    .prepare(
      `SELECT
         count(*) AS entries,
         coalesce(sum(status = 'ok' AND fetched_at >= @fresh), 0) AS fresh,
         coalesce(sum(status = 'ok' AND fetched_at < @fresh), 0) AS stale,
         coalesce(sum(status = 'error'), 0) AS errors,
         coalesce(sum(length(CAST(query AS BLOB)) + coalesce(length(CAST(candidates AS BLOB)), 0)
                      + coalesce(length(CAST(error AS BLOB)), 0)), 0) AS bytes
       FROM lookups`,
    )
    .get({ fresh: freshAfterMs }) as CacheStats;
  return { entries: row.entries, fresh: row.fresh, stale: row.stale, errors: row.errors, bytes: row.bytes };
}

/** Deletes every lookup, or only those fetched before `olderThanMs`. Returns how many were deleted. */
export function clearCache(db: Database, opts: { olderThanMs?: number } = {}): number {
  const result =
    opts.olderThanMs === undefined
      ? db.prepare('DELETE FROM lookups').run()
      : db.prepare('DELETE FROM lookups WHERE fetched_at < ?').run(opts.olderThanMs);
  return result.changes;
}

interface LookupRow {
  query_key: string;
  query: string;
  fetched_at: number;
  status: 'ok' | 'error';
  candidates: string | null;
  error: string | null;
}

const selectCache = new WeakMap<Database, Map<number, Statement>>();

function selectStatement(db: Database, count: number): Statement {
  let byCount = selectCache.get(db);
  if (!byCount) selectCache.set(db, (byCount = new Map()));
  let statement = byCount.get(count);
  if (!statement) {
    statement = db.prepare(
      `SELECT query_key, query, fetched_at, status, candidates, error FROM lookups
       WHERE fetched_at >= ? AND query_key IN (${new Array(count).fill('?').join(', ')})`,
    );
    // Only the full-size statement is reused often enough to be worth keeping.
    if (count === MAX_KEYS_PER_STATEMENT) byCount.set(count, statement);
  }
  return statement;
}

/** A row whose JSON no longer parses counts as a miss, so the next run fetches it again. */
function toLookup(row: LookupRow): Lookup | null {
  try {
    return {
      queryKey: row.query_key,
      query: JSON.parse(row.query) as FindQuery,
      fetchedAt: row.fetched_at,
      status: row.status,
      candidates: row.candidates === null ? null : (JSON.parse(row.candidates) as Candidate[]),
      error: row.error === null ? null : (JSON.parse(row.error) as LookupError),
    };
  } catch {
    return null;
  }
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
