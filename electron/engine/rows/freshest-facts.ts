import type { Database } from 'better-sqlite3';
import type { CandidateFacts } from '../matching';
import { refreshedPeople, type RefreshedPerson } from './refreshed-people';

/**
 * Which record of a person to read for a row: a refresh's, when it is at least as new as the answer the row was
 * settled by, else that answer's. So a decision made after a refresh, a reassessment after a mapping change and the
 * review's timeline never bring back jobs a refresh has seen end.
 */
export class FreshestFacts {
  private constructor(
    private readonly people: Map<string, RefreshedPerson>,
    private readonly fetchedAt: Map<number, number>,
  ) {}

  static none(): FreshestFacts {
    return new FreshestFacts(new Map(), new Map());
  }

  /** The refreshed records of these rows' people on the project's service (`scope`, its plan scope). */
  static load(db: Database, scope: string | null, rows: readonly { slug: string | null; queryId: number | null }[]): FreshestFacts {
    const slugs = rows.map((r) => r.slug).filter((s): s is string => typeof s === 'string' && s !== '');
    if (scope === null || slugs.length === 0) return FreshestFacts.none();
    const people = refreshedPeople(db, scope, slugs);
    if (people.size === 0) return FreshestFacts.none();
    const ids = [...new Set(rows.filter((r) => r.slug && people.has(r.slug) && r.queryId !== null).map((r) => r.queryId!))];
    const fetchedAt = new Map<number, number>();
    for (let i = 0; i < ids.length; i += 500) {
      const chunk = ids.slice(i, i + 500);
      const found = db.prepare('SELECT query_id, fetched_at FROM lookups WHERE query_id IN (SELECT value FROM json_each(?))').raw().all(JSON.stringify(chunk)) as [number, number][];
      for (const [id, at] of found) fetchedAt.set(id, at);
    }
    return new FreshestFacts(people, fetchedAt);
  }

  /** The refreshed record of the person with `slug` when it is the freshest for a row settled by `queryId`. */
  record(slug: string | null, queryId: number | null): RefreshedPerson | null {
    if (!slug) return null;
    const person = this.people.get(slug);
    if (!person) return null;
    const answered = queryId === null ? undefined : this.fetchedAt.get(queryId);
    return answered === undefined || person.refreshedAt >= answered ? person : null;
  }

  facts(slug: string | null, queryId: number | null): CandidateFacts | null {
    return this.record(slug, queryId)?.facts ?? null;
  }
}
