import fc from 'fast-check';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Candidate, FindQuery } from '../../../shared/model';
import { answerPeople, rankedFacts, readStoredFacts } from '../../../electron/engine/matching';
import { cacheStats, clearCache, getAnswerFacts, getLookups, openDatabase, putLookups, queryKey, type Lookup } from '../../../electron/engine/store';
import { tempFolder } from './temp-folder';

const DAY = 86_400_000;
const now = Date.UTC(2026, 0, 31);
const base = 'https://gotlivedata.io';

function open() {
  return openDatabase(join(tempFolder(), 'matchdesk.db'));
}

function query(email: string): FindQuery {
  return { fields: [{ field_name: 'email_address', search_term: email }] };
}

function candidate(rank: number, name: string): Candidate {
  return { rank, score: rank === 1 ? 0.97 : null, person: { id: `id-${name}`, name, jobs: [{ title: 'Engineer', company: { name: 'Acme' } }] } };
}

function ok(email: string, fetchedAt: number, candidates: Candidate[] = [candidate(1, email)]): Lookup {
  const q = query(email);
  const { people, ranks } = answerPeople(candidates);
  return { queryKey: queryKey(base, 'org', q), query: q, fetchedAt, status: 'ok', candidates, error: null, stored: { people, ranks } };
}

/** A lookup as getLookups reads it back: its candidates, not how they were stored. */
function read({ stored: _stored, ...lookup }: Lookup): Lookup {
  return lookup;
}

function failed(email: string, fetchedAt: number, status = 503): Lookup {
  const q = query(email);
  return { queryKey: queryKey(base, 'org', q), query: q, fetchedAt, status: 'error', candidates: null, error: { kind: 'server', message: 'Service Unavailable', status } };
}

describe('queryKey', () => {
  const q: FindQuery = {
    fields: [
      { field_name: 'name', search_term: 'Ada Lovelace' },
      { field_name: 'company.name', search_term: 'Analytical Engines' },
    ],
  };

  it('is a sha256 hex digest that stays the same across releases', () => {
    // Keys are stored in users' files: a change here would silently empty every cache.
    expect(queryKey('https://gotlivedata.io', 'org-1', q)).toMatch(/^[0-9a-f]{64}$/);
    // sha256 of ["https://gotlivedata.io","org-1",[["company.name","Analytical Engines"],["name","Ada Lovelace"]]]
    expect(queryKey('https://gotlivedata.io', 'org-1', q)).toBe('b6b913bdf1571f3bbfba8a03e6b5a6860e4aba97ee3c56c82f681f57017340c8');
  });

  it('ignores term order, a trailing slash and the letter case of the base URL', () => {
    const reversed: FindQuery = { fields: [...q.fields].reverse() };
    const k = queryKey('https://gotlivedata.io', 'org-1', q);
    expect(queryKey('https://gotlivedata.io', 'org-1', reversed)).toBe(k);
    expect(queryKey('https://GotLiveData.io/', 'org-1', q)).toBe(k);
    expect(queryKey('https://gotlivedata.io//', 'org-1', reversed)).toBe(k);
  });

  it('tells apart different organizations, services, fields and terms', () => {
    const k = queryKey(base, 'org-1', q);
    expect(queryKey(base, 'org-2', q)).not.toBe(k);
    expect(queryKey('https://staging.gotlivedata.io', 'org-1', q)).not.toBe(k);
    expect(queryKey(base, 'org-1', { fields: [q.fields[0]] })).not.toBe(k);
    expect(queryKey(base, 'org-1', { fields: [{ field_name: 'name', search_term: 'ada lovelace' }, q.fields[1]] })).not.toBe(k);
    // Field and term must not run together: ("ab", "c") is not ("a", "bc").
    expect(queryKey(base, 'o', { fields: [{ field_name: 'ab', search_term: 'c' }] })).not.toBe(
      queryKey(base, 'o', { fields: [{ field_name: 'a', search_term: 'bc' }] }),
    );
  });

  it('gives every ordering of the same terms the same key', () => {
    const term = fc.record({ field_name: fc.constantFrom('name', 'email_address', 'social', 'company.name'), search_term: fc.string() });
    fc.assert(
      fc.property(fc.array(term, { maxLength: 6 }), fc.func(fc.integer()), (terms, rank) => {
        const shuffled = [...terms].sort((a, b) => rank(a) - rank(b) || 0);
        expect(queryKey(base, 'o', { fields: shuffled })).toBe(queryKey(base, 'o', { fields: terms }));
      }),
      { numRuns: 200 },
    );
  });
});

describe('lookups cache', () => {
  it('round-trips ok and error rows exactly', () => {
    const db = open();
    try {
      const rows = [ok('ada@example.com', now, [candidate(1, 'Ada'), candidate(2, 'Ada L.')]), ok('nobody@example.com', now, []), failed('slow@example.com', now)];
      putLookups(db, rows);
      const got = getLookups(db, rows.map((r) => r.queryKey), 0);
      expect(got.size).toBe(3);
      for (const r of rows) expect(got.get(r.queryKey)).toEqual(read(r));
    } finally {
      db.close();
    }
  });

  it('returns only rows fetched at or after the freshness cutoff, and nothing for unknown keys', () => {
    const db = open();
    try {
      const old = ok('old@example.com', now - 31 * DAY);
      const edge = ok('edge@example.com', now - 30 * DAY);
      const recent = failed('recent@example.com', now - DAY);
      putLookups(db, [old, edge, recent]);
      const got = getLookups(db, [old.queryKey, edge.queryKey, recent.queryKey, 'unknown'], now - 30 * DAY);
      expect([...got.keys()].sort()).toEqual([edge.queryKey, recent.queryKey].sort());
      expect(got.get(recent.queryKey)?.status).toBe('error');
    } finally {
      db.close();
    }
  });

  it('reads more keys than fit in one statement', () => {
    const db = open();
    try {
      const rows = Array.from({ length: 1234 }, (_, i) => ok(`p${i}@example.com`, now));
      putLookups(db, rows);
      const keys = [...rows.map((r) => r.queryKey), ...rows.slice(0, 10).map((r) => r.queryKey), 'missing'];
      const got = getLookups(db, keys, 0);
      expect(got.size).toBe(1234);
      expect(got.get(rows[1233].queryKey)).toEqual(read(rows[1233]));
    } finally {
      db.close();
    }
  });

  it('reads exactly the keys asked, at every length a key list is padded to and around it', () => {
    const db = open();
    try {
      const rows = Array.from({ length: 1004 }, (_, i) => ok(`p${i}@example.com`, now));
      putLookups(db, rows);
      for (const length of [1, 2, 9, 10, 11, 49, 51, 199, 201, 499, 500, 501]) {
        // Every other stored key, so a list padded with any key but its own would read one it was not asked for.
        const asked = rows.filter((_, i) => i % 2 === 0).slice(0, length).map((r) => r.queryKey);
        const expected = [...asked].sort();
        expect(asked).toHaveLength(length);
        expect([...getLookups(db, asked, 0).keys()].sort(), `getLookups, ${length} keys`).toEqual(expected);
        expect([...getAnswerFacts(db, asked, 0).keys()].sort(), `getAnswerFacts, ${length} keys`).toEqual(expected);
      }
    } finally {
      db.close();
    }
  });

  it('lets an ok row replace an error row, but never an error row replace an ok row', () => {
    const db = open();
    try {
      putLookups(db, [failed('a@example.com', now - 2 * DAY)]);
      const good = ok('a@example.com', now - DAY);
      putLookups(db, [good]);
      expect(getLookups(db, [good.queryKey], 0).get(good.queryKey)).toEqual(read(good));

      putLookups(db, [failed('a@example.com', now, 429)]);
      expect(getLookups(db, [good.queryKey], 0).get(good.queryKey)).toEqual(read(good));

      const newer = ok('a@example.com', now, [candidate(1, 'Someone else')]);
      putLookups(db, [newer]);
      expect(getLookups(db, [good.queryKey], 0).get(good.queryKey)).toEqual(read(newer));

      const newerError = failed('b@example.com', now, 500);
      putLookups(db, [failed('b@example.com', now - DAY, 503), newerError]);
      expect(getLookups(db, [newerError.queryKey], 0).get(newerError.queryKey)).toEqual(newerError);
    } finally {
      db.close();
    }
  });

  it('lets an error row replace an ok row only when that ok row is older than keepOkAfterMs', () => {
    const db = open();
    try {
      const stale = ok('a@example.com', now - 40 * DAY);
      const fresh = ok('b@example.com', now - DAY);
      putLookups(db, [stale, fresh]);
      const cutoff = now - 30 * DAY;
      putLookups(db, [failed('a@example.com', now), failed('b@example.com', now)], { keepOkAfterMs: cutoff });
      const got = getLookups(db, [stale.queryKey, fresh.queryKey], 0);
      expect(got.get(stale.queryKey)?.status).toBe('error');
      expect(got.get(fresh.queryKey)).toEqual(read(fresh));
    } finally {
      db.close();
    }
  });

  it("reads an answer's candidate facts composed of its people's, with its own ranks and scores, without their records", () => {
    const db = open();
    try {
      const candidates = [candidate(2, 'Ada L.'), candidate(1, 'Ada')];
      const found = ok('ada@example.com', now, candidates);
      const empty = ok('nobody@example.com', now, []);
      const stale = ok('old@example.com', now - 31 * DAY);
      putLookups(db, [found, empty, stale, failed('slow@example.com', now)]);
      const got = getAnswerFacts(db, [found.queryKey, empty.queryKey, stale.queryKey, failed('slow@example.com', now).queryKey, 'unknown'], now - 30 * DAY);
      expect([...got.keys()].sort()).toEqual([found.queryKey, empty.queryKey].sort());
      expect(got.get(found.queryKey)).toMatchObject({ count: 2, fetchedAt: now });
      // Each candidate names the `people` row it was read from, as the answer lists them.
      const ids = JSON.parse(db.prepare('SELECT people FROM lookups WHERE query_key = ?').pluck().get(found.queryKey) as string) as number[];
      expect(readStoredFacts(got.get(found.queryKey)!.facts)).toEqual(rankedFacts(candidates).map((f, i) => ({ ...f, personId: ids[i] })));
      expect(readStoredFacts(got.get(empty.queryKey)!.facts)).toEqual([]);
      expect(got.get(empty.queryKey)?.count).toBe(0);

      // An error replacing an old answer takes its people's ids with it.
      putLookups(db, [failed('old@example.com', now)], { keepOkAfterMs: now - 30 * DAY });
      expect(getAnswerFacts(db, [stale.queryKey], 0).size).toBe(0);
      expect(db.prepare('SELECT candidate_count, people, ranks FROM lookups WHERE query_key = ?').get(stale.queryKey)).toEqual({ candidate_count: null, people: null, ranks: null });
    } finally {
      db.close();
    }
  });

  it('stores a person found by several answers once, each answer with its own rank and score for them', () => {
    const db = open();
    try {
      const ada = candidate(1, 'Ada');
      const first = ok('a@example.com', now, [ada, candidate(2, 'Bob')]);
      const second = ok('b@example.com', now, [{ ...candidate(1, 'Cy'), score: 0.5 }, { ...ada, rank: 2, score: 0.4 }]);
      putLookups(db, [first, second]);
      expect(db.prepare('SELECT count(*) FROM people').pluck().get()).toBe(3);
      const got = getLookups(db, [first.queryKey, second.queryKey], 0);
      expect(got.get(first.queryKey)).toEqual(read(first));
      expect(got.get(second.queryKey)).toEqual(read(second));
      const facts = readStoredFacts(getAnswerFacts(db, [second.queryKey], 0).get(second.queryKey)!.facts)!;
      expect(facts.map((f) => [f.rank, f.score, f.name])).toEqual([
        [1, 0.5, 'Cy'],
        [2, 0.4, 'Ada'],
      ]);
      // Another version of Ada (a new job) is another person row; the answer asked again names it instead.
      const moved = { ...ada, person: { ...ada.person, jobs: [{ title: 'CTO', company: { name: 'Hooli' } }] } };
      putLookups(db, [ok('a@example.com', now + 1, [moved])]);
      expect(db.prepare('SELECT count(*) FROM people').pluck().get()).toBe(4);
      expect(getLookups(db, [first.queryKey], 0).get(first.queryKey)?.candidates).toEqual([moved]);
    } finally {
      db.close();
    }
  });

  it('finds a person another connection stored, and never names one another connection removed', () => {
    const file = join(tempFolder(), 'matchdesk.db');
    const db = openDatabase(file);
    const other = openDatabase(file);
    try {
      const ada = candidate(1, 'Ada');
      putLookups(db, [ok('a@example.com', now, [ada])]);
      // Another process (the CLI beside the app) stores Bob, then this one finds him stored rather than adding him again.
      putLookups(other, [ok('b@example.com', now, [candidate(1, 'Bob')])]);
      putLookups(db, [ok('c@example.com', now, [candidate(1, 'Bob'), { ...ada, rank: 2 }])]);
      expect(db.prepare('SELECT count(*) FROM people').pluck().get()).toBe(2);
      // The other process clears the cache: Ada stored again here is a new row, and the answer reads whole.
      clearCache(other);
      const again = ok('a@example.com', now + 1, [ada]);
      putLookups(db, [again]);
      expect(db.prepare('SELECT count(*) FROM people').pluck().get()).toBe(1);
      expect(getLookups(db, [again.queryKey], 0).get(again.queryKey)).toEqual(read(again));
    } finally {
      other.close();
      db.close();
    }
  });

  it('reads an answer stored before people were stored once (its candidates and facts beside it) as it was stored', () => {
    const db = open();
    try {
      const candidates = [candidate(1, 'Ada'), candidate(2, 'Ada L.')];
      const facts = '{"v":3,"c":[]}';
      const insert = db.prepare("INSERT INTO lookups (query_key, query, fetched_at, status, candidate_count, facts, candidates) VALUES (?, '{\"fields\":[]}', ?, 'ok', ?, ?, ?)");
      insert.run('old-with-facts', now, 2, facts, JSON.stringify(candidates));
      insert.run('old-without', now, 2, null, JSON.stringify(candidates));
      expect(getAnswerFacts(db, ['old-with-facts', 'old-without'], 0)).toEqual(
        new Map([
          ['old-with-facts', { count: 2, facts, fetchedAt: now }],
          ['old-without', null],
        ]),
      );
      expect(getLookups(db, ['old-without'], 0).get('old-without')?.candidates).toEqual(candidates);
    } finally {
      db.close();
    }
  });

  it('refuses to store an answer without its people', () => {
    const db = open();
    try {
      const { stored: _stored, ...bare } = ok('a@example.com', now);
      expect(() => putLookups(db, [bare])).toThrow(/without its people/);
      expect(getLookups(db, [bare.queryKey], 0).size).toBe(0);
    } finally {
      db.close();
    }
  });

  it("writes in the caller's transaction when one is open, and goes when it is rolled back", () => {
    const db = open();
    try {
      const row = ok('a@example.com', now);
      expect(() =>
        db.transaction(() => {
          putLookups(db, [row]);
          expect(getLookups(db, [row.queryKey], 0).size).toBe(1);
          throw new Error('the rows it settles could not be written');
        })(),
      ).toThrow(/could not be written/);
      expect(getLookups(db, [row.queryKey], 0).size).toBe(0);
    } finally {
      db.close();
    }
  });

  it('treats a row whose JSON was damaged as a miss', () => {
    const db = open();
    try {
      const row = ok('a@example.com', now);
      putLookups(db, [row]);
      db.prepare("UPDATE people SET person = '{broken'").run();
      expect(getLookups(db, [row.queryKey], 0).size).toBe(0);
      // An answer naming a person no longer stored is a miss too.
      db.prepare('DELETE FROM people').run();
      expect(getLookups(db, [row.queryKey], 0).size).toBe(0);
      expect(getAnswerFacts(db, [row.queryKey], 0).get(row.queryKey)).toBeNull();
    } finally {
      db.close();
    }
  });

  it('counts fresh, stale and error rows and their size, and clears by age or entirely', () => {
    const db = open();
    try {
      expect(cacheStats(db, now)).toEqual({ entries: 0, fresh: 0, stale: 0, errors: 0, bytes: 0 });
      putLookups(db, [ok('a@example.com', now), ok('b@example.com', now - 40 * DAY), ok('c@example.com', now - 50 * DAY), failed('d@example.com', now)]);
      const cutoff = now - 30 * DAY;
      const stats = cacheStats(db, cutoff);
      expect({ ...stats, bytes: undefined }).toEqual({ entries: 4, fresh: 1, stale: 2, errors: 1, bytes: undefined });
      const stored = db.prepare("SELECT sum(length(CAST(query || coalesce(error, '') || coalesce(people || ranks, '') AS BLOB))) FROM lookups").pluck().get() as number;
      const people = db.prepare('SELECT sum(length(CAST(person AS BLOB))) FROM people').pluck().get() as number;
      expect(stats.bytes).toBe(stored + people);

      // Clearing by age takes the people only the cleared answers named, and keeps those an answer left still names.
      putLookups(db, [ok('e@example.com', now - 45 * DAY, [candidate(1, 'a@example.com')])]);
      expect(clearCache(db, { olderThanMs: cutoff })).toBe(3);
      expect(cacheStats(db, cutoff)).toMatchObject({ entries: 2, fresh: 1, stale: 0, errors: 1 });
      expect(db.prepare('SELECT count(*) FROM people').pluck().get()).toBe(1);
      expect(getLookups(db, [ok('a@example.com', now).queryKey], 0).get(ok('a@example.com', now).queryKey)).toEqual(read(ok('a@example.com', now)));
      expect(clearCache(db)).toBe(2);
      expect(cacheStats(db, cutoff)).toEqual({ entries: 0, fresh: 0, stale: 0, errors: 0, bytes: 0 });
      expect(db.prepare('SELECT count(*) FROM people').pluck().get()).toBe(0);
    } finally {
      db.close();
    }
  });
});
