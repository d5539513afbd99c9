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
    private readonly fetchedAt: Map<string, number>,
  ) {}

  static none(): FreshestFacts {
    return new FreshestFacts(new Map(), new Map());
  }

  /** The refreshed records of these rows' people on the project's service (`scope`, its plan scope). */
  static load(db: Database, scope: string | null, rows: readonly { slug: string | null; queryKey: string | null }[]): FreshestFacts {
    const slugs = rows.map((r) => r.slug).filter((s): s is string => typeof s === 'string' && s !== '');
    if (scope === null || slugs.length === 0) return FreshestFacts.none();
    const people = refreshedPeople(db, scope, slugs);
    if (people.size === 0) return FreshestFacts.none();
    const keys = [...new Set(rows.filter((r) => r.slug && people.has(r.slug) && r.queryKey).map((r) => r.queryKey!))];
    const fetchedAt = new Map<string, number>();
    for (let i = 0; i < keys.length; i += 500) {
      const chunk = keys.slice(i, i + 500);
      const found = db.prepare('SELECT query_key, fetched_at FROM lookups WHERE query_key IN (SELECT value FROM json_each(?))').raw().all(JSON.stringify(chunk)) as [string, number][];
      for (const [key, at] of found) fetchedAt.set(key, at);
    }
    return new FreshestFacts(people, fetchedAt);
  }

  /** The refreshed record of the person with `slug` when it is the freshest for a row settled by `queryKey`. */
  record(slug: string | null, queryKey: string | null): RefreshedPerson | null {
    if (!slug) return null;
    const person = this.people.get(slug);
    if (!person) return null;
    const answered = queryKey === null ? undefined : this.fetchedAt.get(queryKey);
    return answered === undefined || person.refreshedAt >= answered ? person : null;
  }

  facts(slug: string | null, queryKey: string | null): CandidateFacts | null {
    return this.record(slug, queryKey)?.facts ?? null;
  }
}
