import fc from 'fast-check';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Candidate, FindQuery } from '../../../shared/model';
import { answerPeople, rankedFacts, readStoredFacts } from '../../../electron/engine/matching';
import { storedQueryId } from '../../../electron/engine/runs/query-ids';
import { cacheStats, clearCache, getAnswerFacts, getLookups, openDatabase, putLookups, queryDigest, type Database, type Lookup } from '../../../electron/engine/store';
import { PersonDigests } from '../../../electron/engine/store/person-digests';
import { tempFolder } from './temp-folder';
import { version3Row } from '../matching/version3-facts';

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

/** The query's id in this database, stored when it is new. */
function idOf(db: Database, q: FindQuery): number {
  return storedQueryId(db, queryDigest(base, 'org', q), q);
}

function ok(db: Database, email: string, fetchedAt: number, candidates: Candidate[] = [candidate(1, email)]): Lookup {
  const q = query(email);
  const { people, ranks } = answerPeople(candidates);
  return { queryId: idOf(db, q), query: q, fetchedAt, status: 'ok', candidates, error: null, stored: { people, ranks } };
}

/** A lookup as getLookups reads it back: its candidates, not how they were stored. */
function read({ stored: _stored, ...lookup }: Lookup): Lookup {
  return lookup;
}

function failed(db: Database, email: string, fetchedAt: number, status = 503): Lookup {
  const q = query(email);
  return { queryId: idOf(db, q), query: q, fetchedAt, status: 'error', candidates: null, error: { kind: 'server', message: 'Service Unavailable', status } };
}

describe('queryDigest', () => {
  const q: FindQuery = {
    fields: [
      { field_name: 'name', search_term: 'Ada Lovelace' },
      { field_name: 'company.name', search_term: 'Analytical Engines' },
    ],
  };

  it('is the first 64 bits of a sha256 that stay the same across releases', () => {
    // Digests are stored in users' files (and migration 28 read them off the keys stored before): a change here
    // would silently empty every cache.
    // sha256 of ["https://gotlivedata.io","org-1",[["company.name","Analytical Engines"],["name","Ada Lovelace"]]]
    // is b6b913bdf1571f3bbfba8a03e6b5a6860e4aba97ee3c56c82f681f57017340c8, the key before migration 28.
    expect(queryDigest('https://gotlivedata.io', 'org-1', q)).toBe(BigInt.asIntN(64, 0xb6b913bdf1571f3bn));
  });

  it('ignores term order, a trailing slash and the letter case of the base URL', () => {
    const reversed: FindQuery = { fields: [...q.fields].reverse() };
    const k = queryDigest('https://gotlivedata.io', 'org-1', q);
    expect(queryDigest('https://gotlivedata.io', 'org-1', reversed)).toBe(k);
    expect(queryDigest('https://GotLiveData.io/', 'org-1', q)).toBe(k);
    expect(queryDigest('https://gotlivedata.io//', 'org-1', reversed)).toBe(k);
  });

  it('tells apart different organizations, services, fields and terms', () => {
    const k = queryDigest(base, 'org-1', q);
    expect(queryDigest(base, 'org-2', q)).not.toBe(k);
    expect(queryDigest('https://staging.gotlivedata.io', 'org-1', q)).not.toBe(k);
    expect(queryDigest(base, 'org-1', { fields: [q.fields[0]] })).not.toBe(k);
    expect(queryDigest(base, 'org-1', { fields: [{ field_name: 'name', search_term: 'ada lovelace' }, q.fields[1]] })).not.toBe(k);
    // Field and term must not run together: ("ab", "c") is not ("a", "bc").
    expect(queryDigest(base, 'o', { fields: [{ field_name: 'ab', search_term: 'c' }] })).not.toBe(
      queryDigest(base, 'o', { fields: [{ field_name: 'a', search_term: 'bc' }] }),
    );
  });

  it('gives every ordering of the same terms the same key', () => {
    const term = fc.record({ field_name: fc.constantFrom('name', 'email_address', 'social', 'company.name'), search_term: fc.string() });
    fc.assert(
      fc.property(fc.array(term, { maxLength: 6 }), fc.func(fc.integer()), (terms, rank) => {
        const shuffled = [...terms].sort((a, b) => rank(a) - rank(b) || 0);
        expect(queryDigest(base, 'o', { fields: shuffled })).toBe(queryDigest(base, 'o', { fields: terms }));
      }),
      { numRuns: 200 },
    );
  });
});

describe('lookups cache', () => {
  it('round-trips ok and error rows exactly', () => {
    const db = open();
    try {
      const rows = [ok(db, 'ada@example.com', now, [candidate(1, 'Ada'), candidate(2, 'Ada L.')]), ok(db, 'nobody@example.com', now, []), failed(db, 'slow@example.com', now)];
      putLookups(db, rows);
      const got = getLookups(db, rows.map((r) => r.queryId), 0);
      expect(got.size).toBe(3);
      for (const r of rows) expect(got.get(r.queryId)).toEqual(read(r));
    } finally {
      db.close();
    }
  });

  it('returns only rows fetched at or after the freshness cutoff, and nothing for unknown keys', () => {
    const db = open();
    try {
      const old = ok(db, 'old@example.com', now - 31 * DAY);
      const edge = ok(db, 'edge@example.com', now - 30 * DAY);
      const recent = failed(db, 'recent@example.com', now - DAY);
      putLookups(db, [old, edge, recent]);
      const got = getLookups(db, [old.queryId, edge.queryId, recent.queryId, 999_999], now - 30 * DAY);
      expect([...got.keys()].sort()).toEqual([edge.queryId, recent.queryId].sort());
      expect(got.get(recent.queryId)?.status).toBe('error');
    } finally {
      db.close();
    }
  });

  it('reads more keys than fit in one statement', () => {
    const db = open();
    try {
      const rows = Array.from({ length: 1234 }, (_, i) => ok(db, `p${i}@example.com`, now));
      putLookups(db, rows);
      const keys = [...rows.map((r) => r.queryId), ...rows.slice(0, 10).map((r) => r.queryId), 999_999];
      const got = getLookups(db, keys, 0);
      expect(got.size).toBe(1234);
      expect(got.get(rows[1233].queryId)).toEqual(read(rows[1233]));
    } finally {
      db.close();
    }
  });

  it('reads exactly the keys asked, at every length a key list is padded to and around it', () => {
    const db = open();
    try {
      const rows = Array.from({ length: 1004 }, (_, i) => ok(db, `p${i}@example.com`, now));
      putLookups(db, rows);
      for (const length of [1, 2, 9, 10, 11, 49, 51, 199, 201, 499, 500, 501]) {
        // Every other stored key, so a list padded with any key but its own would read one it was not asked for.
        const asked = rows.filter((_, i) => i % 2 === 0).slice(0, length).map((r) => r.queryId);
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
      putLookups(db, [failed(db, 'a@example.com', now - 2 * DAY)]);
      const good = ok(db, 'a@example.com', now - DAY);
      putLookups(db, [good]);
      expect(getLookups(db, [good.queryId], 0).get(good.queryId)).toEqual(read(good));

      putLookups(db, [failed(db, 'a@example.com', now, 429)]);
      expect(getLookups(db, [good.queryId], 0).get(good.queryId)).toEqual(read(good));

      const newer = ok(db, 'a@example.com', now, [candidate(1, 'Someone else')]);
      putLookups(db, [newer]);
      expect(getLookups(db, [good.queryId], 0).get(good.queryId)).toEqual(read(newer));

      const newerError = failed(db, 'b@example.com', now, 500);
      putLookups(db, [failed(db, 'b@example.com', now - DAY, 503), newerError]);
      expect(getLookups(db, [newerError.queryId], 0).get(newerError.queryId)).toEqual(newerError);
    } finally {
      db.close();
    }
  });

  it('lets an error row replace an ok row only when that ok row is older than keepOkAfterMs', () => {
    const db = open();
    try {
      const stale = ok(db, 'a@example.com', now - 40 * DAY);
      const fresh = ok(db, 'b@example.com', now - DAY);
      putLookups(db, [stale, fresh]);
      const cutoff = now - 30 * DAY;
      putLookups(db, [failed(db, 'a@example.com', now), failed(db, 'b@example.com', now)], { keepOkAfterMs: cutoff });
      const got = getLookups(db, [stale.queryId, fresh.queryId], 0);
      expect(got.get(stale.queryId)?.status).toBe('error');
      expect(got.get(fresh.queryId)).toEqual(read(fresh));
    } finally {
      db.close();
    }
  });

  it('keeps those rules for every answer of a call written a hundred or ten a statement, in the order given', () => {
    const db = open();
    try {
      // 123 answers: a statement of 100, two of 10, three of one.
      const emails = Array.from({ length: 123 }, (_, i) => `p${i}@example.com`);
      const stale = emails.map((e, i) => ok(db, e, i % 2 === 0 ? now - 40 * DAY : now - DAY));
      putLookups(db, stale);
      const cutoff = now - 30 * DAY;
      // Each query twice in one write: its error, then (every third) a new answer after it, which wins.
      const second = emails.map((e, i) => (i % 3 === 0 ? ok(db, e, now, [candidate(1, `New ${i}`)]) : null));
      putLookups(db, emails.flatMap((e, i) => [failed(db, e, now), ...(second[i] ? [second[i]!] : [])]), { keepOkAfterMs: cutoff });
      const got = getLookups(db, stale.map((l) => l.queryId), 0);
      emails.forEach((_, i) => {
        const expected = second[i] ? read(second[i]!) : i % 2 === 0 ? 'error' : read(stale[i]!);
        const row = got.get(stale[i]!.queryId)!;
        if (expected === 'error') expect(row.status).toBe('error');
        else expect(row).toEqual(expected);
      });
    } finally {
      db.close();
    }
  });

  it("reads an answer's candidate facts composed of its people's, with its own ranks and scores, without their records", () => {
    const db = open();
    try {
      const candidates = [candidate(2, 'Ada L.'), candidate(1, 'Ada')];
      const found = ok(db, 'ada@example.com', now, candidates);
      const empty = ok(db, 'nobody@example.com', now, []);
      const stale = ok(db, 'old@example.com', now - 31 * DAY);
      putLookups(db, [found, empty, stale, failed(db, 'slow@example.com', now)]);
      const got = getAnswerFacts(db, [found.queryId, empty.queryId, stale.queryId, failed(db, 'slow@example.com', now).queryId, 999_999], now - 30 * DAY);
      expect([...got.keys()].sort()).toEqual([found.queryId, empty.queryId].sort());
      expect(got.get(found.queryId)).toMatchObject({ count: 2, fetchedAt: now });
      // Each candidate names the `people` row it was read from, as the answer lists them.
      const ids = JSON.parse(db.prepare('SELECT people FROM lookups WHERE query_id = ?').pluck().get(found.queryId) as string) as number[];
      expect(readStoredFacts(got.get(found.queryId)!.facts)).toEqual(rankedFacts(candidates).map((f, i) => ({ ...f, personId: ids[i] })));
      // A run's page binds an accepted row's person by these ids, read with the facts (matching-run.ts lookUp).
      expect(got.get(found.queryId)!.people).toEqual(ids);
      expect(ids).toHaveLength(2);
      expect(readStoredFacts(got.get(empty.queryId)!.facts)).toEqual([]);
      expect(got.get(empty.queryId)?.count).toBe(0);

      // An error replacing an old answer takes its people's ids with it.
      putLookups(db, [failed(db, 'old@example.com', now)], { keepOkAfterMs: now - 30 * DAY });
      expect(getAnswerFacts(db, [stale.queryId], 0).size).toBe(0);
      expect(db.prepare('SELECT candidate_count, people, ranks FROM lookups WHERE query_id = ?').get(stale.queryId)).toEqual({ candidate_count: null, people: null, ranks: null });
    } finally {
      db.close();
    }
  });

  it("composes an answer whose people were stored by facts versions 3 and 4 into the same facts, and not one with version 2's", () => {
    const db = open();
    try {
      const candidates = [candidate(1, 'Ada Lovelace'), candidate(2, 'Grace Hopper')];
      const found = ok(db, 'ada@example.com', now, candidates);
      putLookups(db, [found]);
      const ids = JSON.parse(db.prepare('SELECT people FROM lookups WHERE query_id = ?').pluck().get(found.queryId) as string) as number[];
      const expected = rankedFacts(candidates).map((f, i) => ({ ...f, personId: ids[i] }));
      // Grace was found first by an older version, which stored her facts as version 3 did.
      db.prepare('UPDATE people SET facts_version = 3, facts = ? WHERE id = ?').run(version3Row(expected[1]!), ids[1]);
      const composed = getAnswerFacts(db, [found.queryId], 0).get(found.queryId)!.facts!;
      expect(composed.startsWith('{"v":4,')).toBe(true);
      expect(readStoredFacts(composed)).toEqual(expected);
      db.prepare('UPDATE people SET facts_version = 3, facts = ? WHERE id = ?').run(version3Row(expected[0]!), ids[0]);
      expect(readStoredFacts(getAnswerFacts(db, [found.queryId], 0).get(found.queryId)!.facts)).toEqual(expected);
      // Version 2's objects do not compose with rows: the answer is read whole instead.
      db.prepare('UPDATE people SET facts_version = 2, facts = ? WHERE id = ?').run(JSON.stringify(expected[0]), ids[0]);
      expect(getAnswerFacts(db, [found.queryId], 0).get(found.queryId)).toBeNull();
      expect(getLookups(db, [found.queryId], 0).get(found.queryId)).toEqual(read(found));
    } finally {
      db.close();
    }
  });

  it("stores an answer's ranks 1 to n without scores as nothing, and reads them back as the service sent them", () => {
    const db = open();
    try {
      const plain = (n: number) => Array.from({ length: n }, (_, i) => ({ ...candidate(i + 1, `P${i}`), score: null }));
      const answers = [ok(db, 'one@example.com', now, plain(1)), ok(db, 'five@example.com', now, plain(5)), ok(db, 'scored@example.com', now, [candidate(1, 'S')]), ok(db, 'none@example.com', now, [])];
      const skipped = ok(db, 'skip@example.com', now, [plain(2)[0]!, { ...plain(2)[1]!, rank: 3 }]);
      putLookups(db, [...answers, skipped]);
      expect(db.prepare('SELECT ranks FROM lookups ORDER BY query_id').pluck().all()).toEqual(['', '', '[[1,0.97]]', '[]', '[[1,null],[3,null]]']);
      const ids = [...answers, skipped].map((a) => a.queryId);
      const whole = getLookups(db, ids, 0);
      const facts = getAnswerFacts(db, ids, 0);
      for (const answer of [...answers, skipped]) {
        expect(whole.get(answer.queryId)).toEqual(read(answer));
        expect(readStoredFacts(facts.get(answer.queryId)!.facts)!.map((f) => [f.rank, f.score])).toEqual(answer.candidates!.map((c) => [c.rank, c.score]));
      }
    } finally {
      db.close();
    }
  });

  it('stores a person found by several answers once, each answer with its own rank and score for them', () => {
    const db = open();
    try {
      const ada = candidate(1, 'Ada');
      const first = ok(db, 'a@example.com', now, [ada, candidate(2, 'Bob')]);
      const second = ok(db, 'b@example.com', now, [{ ...candidate(1, 'Cy'), score: 0.5 }, { ...ada, rank: 2, score: 0.4 }]);
      putLookups(db, [first, second]);
      expect(db.prepare('SELECT count(*) FROM people').pluck().get()).toBe(3);
      const got = getLookups(db, [first.queryId, second.queryId], 0);
      expect(got.get(first.queryId)).toEqual(read(first));
      expect(got.get(second.queryId)).toEqual(read(second));
      const facts = readStoredFacts(getAnswerFacts(db, [second.queryId], 0).get(second.queryId)!.facts)!;
      expect(facts.map((f) => [f.rank, f.score, f.name])).toEqual([
        [1, 0.5, 'Cy'],
        [2, 0.4, 'Ada'],
      ]);
      // Another version of Ada (a new job) is another person row; the answer asked again names it instead.
      const moved = { ...ada, person: { ...ada.person, jobs: [{ title: 'CTO', company: { name: 'Hooli' } }] } };
      putLookups(db, [ok(db, 'a@example.com', now + 1, [moved])]);
      expect(db.prepare('SELECT count(*) FROM people').pluck().get()).toBe(4);
      expect(getLookups(db, [first.queryId], 0).get(first.queryId)?.candidates).toEqual([moved]);
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
      putLookups(db, [ok(db, 'a@example.com', now, [ada])]);
      // Another process (the CLI beside the app) stores Bob, then this one finds him stored rather than adding him again.
      putLookups(other, [ok(other, 'b@example.com', now, [candidate(1, 'Bob')])]);
      putLookups(db, [ok(db, 'c@example.com', now, [candidate(1, 'Bob'), { ...ada, rank: 2 }])]);
      expect(db.prepare('SELECT count(*) FROM people').pluck().get()).toBe(2);
      // The other process clears the cache: Ada stored again here is a new row, and the answer reads whole.
      clearCache(other);
      const again = ok(db, 'a@example.com', now + 1, [ada]);
      putLookups(db, [again]);
      expect(db.prepare('SELECT count(*) FROM people').pluck().get()).toBe(1);
      expect(getLookups(db, [again.queryId], 0).get(again.queryId)).toEqual(read(again));
    } finally {
      other.close();
      db.close();
    }
  });

  it("takes a person read at a write's start without a look, yet never names one removed since or one of a rolled-back write", () => {
    const file = join(tempFolder(), 'matchdesk.db');
    const db = openDatabase(file);
    const other = openDatabase(file);
    // As a run commits a landed call (runs/matching-run.ts commitLanded): a look at its start, then its answers.
    const people = PersonDigests.of(db);
    const commit = (lookups: () => Lookup[], fail = false): (number[] | null)[] => {
      const ids = db.transaction(() => {
        people.catchUp(true);
        const stored = putLookups(db, lookups());
        if (fail) throw new Error('the commit failed');
        return stored;
      })();
      people.committed();
      return ids;
    };
    const personId = (name: string) => db.prepare("SELECT id FROM people WHERE facts LIKE '%' || ? || '%'").pluck().get(name) as number | undefined;
    try {
      const [[ada]] = commit(() => [ok(db, 'a@example.com', now, [candidate(1, 'Ada')])]) as [number[]];
      // Ada's stored digest changed under this connection (not a removal): a hit taken without a look still names her.
      const digest = other.prepare('SELECT digest FROM person_digests WHERE id = ?').safeIntegers(true).pluck().get(ada) as bigint;
      other.prepare('UPDATE person_digests SET digest = 0 WHERE id = ?').run(ada);
      expect(commit(() => [ok(db, 'b@example.com', now, [candidate(1, 'Ada')])])).toEqual([[ada]]);
      other.prepare('UPDATE person_digests SET digest = ? WHERE id = ?').run(digest, ada);

      // Another process clears the cache (Ada goes) and stores Bob, who takes her id: Ada met again here is a new row.
      clearCache(other);
      putLookups(other, [ok(other, 'c@example.com', now, [candidate(1, 'Bob')])]);
      expect(personId('Bob')).toBe(ada);
      const [[adaAgain]] = commit(() => [ok(db, 'a@example.com', now + 1, [candidate(1, 'Ada')])]) as [number[]];
      expect(adaAgain).not.toBe(ada);
      expect(personId('Ada')).toBe(adaAgain);

      // A commit that stored Cy rolled back; another process stores Dee, who takes his id: Cy met again is a new row.
      expect(() => commit(() => [ok(db, 'd@example.com', now, [candidate(1, 'Cy')])], true)).toThrow('the commit failed');
      putLookups(other, [ok(other, 'e@example.com', now, [candidate(1, 'Dee')])]);
      const [[cy]] = commit(() => [ok(db, 'd@example.com', now, [candidate(1, 'Cy')])]) as [number[]];
      expect(cy).not.toBe(personId('Dee'));
      expect(personId('Cy')).toBe(cy);
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
      const [withFacts, without] = [idOf(db, query('with@example.com')), idOf(db, query('without@example.com'))];
      const insert = db.prepare("INSERT INTO lookups (query_id, fetched_at, status, candidate_count, facts, candidates) VALUES (?, ?, 'ok', ?, ?, ?)");
      insert.run(withFacts, now, 2, facts, JSON.stringify(candidates));
      insert.run(without, now, 2, null, JSON.stringify(candidates));
      expect(getAnswerFacts(db, [withFacts, without], 0)).toEqual(
        new Map([
          [withFacts, { count: 2, facts, fetchedAt: now, people: null }],
          [without, null],
        ]),
      );
      expect(getLookups(db, [without], 0).get(without)?.candidates).toEqual(candidates);
    } finally {
      db.close();
    }
  });

  it('refuses to store an answer without its people', () => {
    const db = open();
    try {
      const { stored: _stored, ...bare } = ok(db, 'a@example.com', now);
      expect(() => putLookups(db, [bare])).toThrow(/without its people/);
      expect(getLookups(db, [bare.queryId], 0).size).toBe(0);
    } finally {
      db.close();
    }
  });

  it("writes in the caller's transaction when one is open, and goes when it is rolled back", () => {
    const db = open();
    try {
      const row = ok(db, 'a@example.com', now);
      expect(() =>
        db.transaction(() => {
          putLookups(db, [row]);
          expect(getLookups(db, [row.queryId], 0).size).toBe(1);
          throw new Error('the rows it settles could not be written');
        })(),
      ).toThrow(/could not be written/);
      expect(getLookups(db, [row.queryId], 0).size).toBe(0);
    } finally {
      db.close();
    }
  });

  it('treats a row whose JSON was damaged as a miss', () => {
    const db = open();
    try {
      const row = ok(db, 'a@example.com', now);
      putLookups(db, [row]);
      // A record in a block whose data is damaged, and one stored before as text that no longer parses.
      db.prepare("UPDATE person_blocks SET data = x'28b52ffd0058'").run();
      expect(getLookups(db, [row.queryId], 0).size).toBe(0);
      db.prepare("UPDATE people SET person = '{broken', block = NULL").run();
      expect(getLookups(db, [row.queryId], 0).size).toBe(0);
      // An answer naming a person no longer stored is a miss too.
      db.prepare('DELETE FROM people').run();
      expect(getLookups(db, [row.queryId], 0).size).toBe(0);
      expect(getAnswerFacts(db, [row.queryId], 0).get(row.queryId)).toBeNull();
    } finally {
      db.close();
    }
  });

  it('counts fresh, stale and error rows and their size, and clears by age or entirely', () => {
    const db = open();
    try {
      expect(cacheStats(db, now)).toEqual({ entries: 0, fresh: 0, stale: 0, errors: 0, bytes: 0 });
      putLookups(db, [ok(db, 'a@example.com', now), ok(db, 'b@example.com', now - 40 * DAY), ok(db, 'c@example.com', now - 50 * DAY), failed(db, 'd@example.com', now)]);
      const cutoff = now - 30 * DAY;
      const stats = cacheStats(db, cutoff);
      expect({ ...stats, bytes: undefined }).toEqual({ entries: 4, fresh: 1, stale: 2, errors: 1, bytes: undefined });
      const stored = db
        .prepare("SELECT sum(length(CAST(q.query || coalesce(error, '') || coalesce(people || ranks, '') AS BLOB))) FROM lookups JOIN queries AS q ON q.id = query_id")
        .pluck()
        .get() as number;
      const people = db.prepare('SELECT sum(length(CAST(person AS BLOB))) + (SELECT sum(length(data)) FROM person_blocks) FROM people').pluck().get() as number;
      expect(stats.bytes).toBe(stored + people);
      expect(db.prepare('SELECT count(*) FROM person_blocks').pluck().get()).toBe(1);

      // Clearing by age takes the people only the cleared answers named, and keeps those an answer left still names.
      putLookups(db, [ok(db, 'e@example.com', now - 45 * DAY, [candidate(1, 'a@example.com')])]);
      expect(clearCache(db, { olderThanMs: cutoff })).toBe(3);
      expect(cacheStats(db, cutoff)).toMatchObject({ entries: 2, fresh: 1, stale: 0, errors: 1 });
      expect(db.prepare('SELECT count(*) FROM people').pluck().get()).toBe(1);
      // The first block keeps the one person named still: its other records stay in it, unread.
      expect(db.prepare('SELECT count(*) FROM person_blocks').pluck().get()).toBe(1);
      expect(getLookups(db, [ok(db, 'a@example.com', now).queryId], 0).get(ok(db, 'a@example.com', now).queryId)).toEqual(read(ok(db, 'a@example.com', now)));
      expect(clearCache(db)).toBe(2);
      expect(cacheStats(db, cutoff)).toEqual({ entries: 0, fresh: 0, stale: 0, errors: 0, bytes: 0 });
      expect(db.prepare('SELECT count(*) FROM people').pluck().get()).toBe(0);
      // The block with the largest id is emptied, not deleted, so that the next block's id is a new one.
      expect(db.prepare('SELECT count(*) FROM person_blocks WHERE length(data) > 0').pluck().get()).toBe(0);
      const lastId = db.prepare('SELECT max(id) FROM person_blocks').pluck().get() as number;
      putLookups(db, [ok(db, 'f@example.com', now, [candidate(1, 'Fay')])]);
      expect(db.prepare('SELECT block FROM people').pluck().all()).toEqual([lastId + 1]);
    } finally {
      db.close();
    }
  });
});
