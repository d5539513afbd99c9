import type { Database, Statement } from 'better-sqlite3';
import { readStoredPersonFacts, storedPersonFacts, type CandidateFacts } from '../matching/candidate-facts';

/** A person as the last refresh that asked for them found them (table refreshed_people, migration 8). */
export interface RefreshedPerson {
  slug: string;
  personId: string | null;
  facts: CandidateFacts;
  /** What the refresh before found; null until the person was refreshed twice. */
  previousFacts: CandidateFacts | null;
  /** Milliseconds since the epoch. */
  refreshedAt: number;
}

/** Slugs per statement: long IN lists prepare slowly (as in store/lookups.ts). */
const SLUGS_PER_READ = 500;

/**
 * The refreshed people among `slugs` on one service. Facts stored by another version of Matchdesk are left out:
 * the row's own answer is read instead, until the person is refreshed again.
 */
export function refreshedPeople(db: Database, scope: string, slugs: Iterable<string>): Map<string, RefreshedPerson> {
  const found = new Map<string, RefreshedPerson>();
  const unique = [...new Set(slugs)];
  for (let i = 0; i < unique.length; i += SLUGS_PER_READ) {
    const chunk = unique.slice(i, i + SLUGS_PER_READ);
    const rows = db
      .prepare(
        `SELECT slug, person_id, facts, previous_facts, refreshed_at, person FROM refreshed_people
         WHERE scope = ? AND slug IN (SELECT value FROM json_each(?))`,
      )
      .raw()
      .all(scope, JSON.stringify(chunk)) as [string, string | null, string, string | null, number, number | null][];
    for (const [slug, personId, facts, previous, refreshedAt, stored] of rows) {
      const read = readStoredPersonFacts(facts);
      if (read && stored !== null) read.personId = stored;
      if (read) found.set(slug, { slug, personId, facts: read, previousFacts: previous === null ? null : readStoredPersonFacts(previous), refreshedAt });
    }
  }
  return found;
}

// A refresh writes one person after another: the statement is prepared once per database.
const upserts = new WeakMap<Database, Statement>();

/**
 * The person as a refresh found them now; what was there before becomes the previous facts. In the caller's
 * transaction. `stored`: the facts as storedPersonFacts writes them, when the caller has them already; `facts.personId`,
 * the `people` row the refresh's answer stored them in.
 */
export function putRefreshedPerson(db: Database, scope: string, slug: string, facts: CandidateFacts, refreshedAt: number, stored = storedPersonFacts(facts)): void {
  let upsert = upserts.get(db);
  if (!upsert) {
    upsert = db.prepare(
      `INSERT INTO refreshed_people (scope, slug, person_id, facts, previous_facts, refreshed_at, person) VALUES (?, ?, ?, ?, NULL, ?, ?)
       ON CONFLICT (scope, slug) DO UPDATE SET
         person_id = excluded.person_id, previous_facts = refreshed_people.facts, facts = excluded.facts, refreshed_at = excluded.refreshed_at,
         person = excluded.person`,
    );
    upserts.set(db, upsert);
  }
  upsert.run(scope, slug, facts.summary.id, stored, Math.trunc(refreshedAt), facts.personId ?? null);
}
