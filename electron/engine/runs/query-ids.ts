import type { Database } from 'better-sqlite3';
import type { FindQuery } from '../../../shared/model';
import { DigestIds } from '../store/digest-ids';
import { statement } from '../store/statements';
import { queryFromStored, storedQuery } from '../store/query-text';

/**
 * The queries stored, each once, with an integer id (migration 28): answers are keyed by it, and the rows and plan
 * steps of every project keep it rather than the query's key or text. A new query gets the next id as planning meets
 * it (row order, a page's later steps before its first: runs/plan-queries.ts idsByStep), so the entries of a
 * sheet's rows and answers, filed by query id, land near the ends of their indexes instead of at random pages as the
 * keys (hashes) put them. A query is found again by its digest
 * (store/lookups.ts queryDigest), kept in memory rather than indexed (store/digest-ids.ts).
 */
export class QueryIds {
  private readonly digests: DigestIds;
  /** Whether a deleted project's queries are listed for removal (projects/project-cleanup.ts), as last looked. */
  private cleaning = false;

  private constructor(private readonly db: Database) {
    this.digests = DigestIds.of(db, 'queries');
  }

  /** This connection's query ids. */
  static of(db: Database): QueryIds {
    return new QueryIds(db);
  }

  /**
   * Reads the queries stored since the last look (by this connection or another process): once in each transaction
   * that finds ids, before the first. `atStart`: the transaction has written nothing yet, so the ids found then need
   * no check against the table until a query is removed (store/digest-ids.ts).
   */
  catchUp(atStart = false): this {
    this.digests.catchUp(atStart);
    this.cleaning = (statement(this.db, 'SELECT EXISTS (SELECT 1 FROM query_cleanup) AS listed').get() as { listed: number }).listed === 1;
    return this;
  }

  /** The transaction that caught up at its start has committed the queries it stored (DigestIds.committed). */
  committed(): void {
    this.digests.committed();
  }

  /** The id of the query with this digest, stored (with its text, as storedQuery writes it) when it is new. */
  idOf(digest: bigint, text: string): number {
    const known = this.digests.idOf(digest);
    if (known !== undefined) {
      // Named again: no longer the deleted project's alone.
      if (this.cleaning) statement(this.db, 'DELETE FROM query_cleanup WHERE id = ?').run(known);
      return known;
    }
    const id = Number(statement(this.db, 'INSERT INTO queries (digest, query) VALUES (?, ?)').run(digest, text).lastInsertRowid);
    this.digests.add(digest, id);
    return id;
  }
}

/** The id of one query, stored when it is new, in the caller's transaction (reads what was stored since it last looked first). */
export function storedQueryId(db: Database, digest: bigint, query: FindQuery): number {
  return QueryIds.of(db).catchUp().idOf(digest, storedQuery(query));
}

/** The queries with these ids that have a text (see migration 28), by id. */
export function queriesById(db: Database, ids: readonly number[]): Map<number, FindQuery> {
  const found = new Map<number, FindQuery>();
  const read = statement(db, 'SELECT id, query FROM queries WHERE id IN (SELECT value FROM json_each(?)) AND query IS NOT NULL');
  for (const { id, query } of read.all(JSON.stringify([...new Set(ids)])) as { id: number; query: string }[]) found.set(id, queryFromStored(query));
  return found;
}
