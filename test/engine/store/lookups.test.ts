import fc from 'fast-check';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Candidate, FindQuery } from '../../../shared/model';
import { cacheStats, clearCache, getAnswerFacts, getLookups, openDatabase, putLookups, queryKey, type AnswerFacts, type Lookup } from '../../../electron/engine/store';
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
  return { queryKey: queryKey(base, 'org', q), query: q, fetchedAt, status: 'ok', candidates, error: null };
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
      for (const r of rows) expect(got.get(r.queryKey)).toEqual(r);
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
      expect(got.get(rows[1233].queryKey)).toEqual(rows[1233]);
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
      expect(getLookups(db, [good.queryKey], 0).get(good.queryKey)).toEqual(good);

      putLookups(db, [failed('a@example.com', now, 429)]);
      expect(getLookups(db, [good.queryKey], 0).get(good.queryKey)).toEqual(good);

      const newer = ok('a@example.com', now, [candidate(1, 'Someone else')]);
      putLookups(db, [newer]);
      expect(getLookups(db, [good.queryKey], 0).get(good.queryKey)).toEqual(newer);

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
      expect(got.get(fresh.queryKey)).toEqual(fresh);
    } finally {
      db.close();
    }
  });

  it("keeps an answer's candidate facts beside it, read without the candidates; an answer stored without them reads as null", () => {
    const db = open();
    try {
      const facts = '{"v":1,"c":[{"rank":1,"name":"Ada"},{"rank":2,"name":"Ada L."}]}';
      const withFacts = { ...ok('ada@example.com', now, [candidate(1, 'Ada'), candidate(2, 'Ada L.')]), facts };
      const empty = { ...ok('nobody@example.com', now, []), facts: '{"v":1,"c":[]}' };
      const plain = ok('plain@example.com', now);
      const stale = { ...ok('old@example.com', now - 31 * DAY), facts };
      putLookups(db, [withFacts, empty, plain, stale, failed('slow@example.com', now)]);
      const keys = [withFacts, empty, plain, stale].map((r) => r.queryKey);
      const got = getAnswerFacts(db, [...keys, failed('slow@example.com', now).queryKey, 'unknown'], now - 30 * DAY);
      expect(got).toEqual(
        new Map<string, AnswerFacts | null>([
          [withFacts.queryKey, { count: 2, facts, fetchedAt: now }],
          [empty.queryKey, { count: 0, facts: '{"v":1,"c":[]}', fetchedAt: now }],
          [plain.queryKey, null],
        ]),
      );
      // getLookups still returns the candidates themselves.
      expect(getLookups(db, [withFacts.queryKey], 0).get(withFacts.queryKey)?.candidates).toEqual(withFacts.candidates);

      // An error replacing an old answer takes its facts with it.
      putLookups(db, [failed('old@example.com', now)], { keepOkAfterMs: now - 30 * DAY });
      expect(getAnswerFacts(db, [stale.queryKey], 0).size).toBe(0);
      expect(db.prepare('SELECT candidate_count, facts FROM lookups WHERE query_key = ?').get(stale.queryKey)).toEqual({ candidate_count: null, facts: null });
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
      db.prepare("UPDATE lookups SET candidates = '[{broken' WHERE query_key = ?").run(row.queryKey);
      expect(getLookups(db, [row.queryKey], 0).size).toBe(0);
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
      const stored = db.prepare("SELECT sum(length(CAST(query || coalesce(candidates, '') || coalesce(error, '') AS BLOB))) FROM lookups").pluck().get();
      expect(stats.bytes).toBe(stored);

      expect(clearCache(db, { olderThanMs: cutoff })).toBe(2);
      expect(cacheStats(db, cutoff)).toMatchObject({ entries: 2, fresh: 1, stale: 0, errors: 1 });
      expect(clearCache(db)).toBe(2);
      expect(cacheStats(db, cutoff).entries).toBe(0);
    } finally {
      db.close();
    }
  });
});
