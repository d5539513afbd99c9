import type { Database } from 'better-sqlite3';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { answerPeople, candidateFacts } from '../../../electron/engine/matching';
import { topCandidates, type WaitingRow } from '../../../electron/engine/review/top-candidates';
import { answerFacts } from '../../../electron/engine/runs/answer-facts';
import { storedQueryId } from '../../../electron/engine/runs/query-ids';
import { openDatabase, putLookups } from '../../../electron/engine/store';
import type { Candidate } from '../../../shared/model';
import { version3Row } from '../matching/version3-facts';
import { tempFolder } from '../store/temp-folder';

const person = (n: number, rank: number, score: number | null = null): Candidate => ({
  rank,
  score,
  person: { id: `p-${n}`, name: `Person Number${n}`, linkedin: `person-${n}`, location: 'Oslo, Norway', jobs: [{ title: `Title ${n}`, company: { name: `Company ${n}` }, started_at: '2020-01' }] },
});

/** Stores an 'ok' answer of these candidates to a query of its own; its query id and its people's ids. */
function answer(db: Database, digest: bigint, candidates: Candidate[]): { queryId: number; people: number[] } {
  const queryId = storedQueryId(db, digest, { fields: [] });
  putLookups(db, [{ queryId, query: { fields: [] }, fetchedAt: 1000, status: 'ok', candidates, error: null, stored: answerPeople(candidates) }]);
  const people = JSON.parse((db.prepare('SELECT people FROM lookups WHERE query_id = ?').pluck().get(queryId) as string | null) ?? '[]') as number[];
  return { queryId, people };
}

/** The long way to the same candidate: every candidate's facts of each answer read whole, the verdict's best picked. */
function readWhole(db: Database, rows: WaitingRow[]) {
  const facts = answerFacts(db, rows.map((r) => r.queryId), Number.MIN_SAFE_INTEGER);
  return rows.map((row) => {
    const candidates = facts.get(row.queryId) ?? [];
    const best = candidates.find((c) => c.rank === row.bestRank) ?? candidates[0];
    return best && { summary: best.summary, score: best.score };
  });
}

describe("the review list's candidate for a row waiting for review", () => {
  it("is the verdict's best rank of the answer (else its first) with its score, as reading every candidate whole gives it, whatever the facts are stored as", () => {
    const db = openDatabase(join(tempFolder(), 'matchdesk.db'));
    try {
      const plain = answer(db, 1n, [person(1, 1), person(2, 2), person(3, 3)]);
      const scored = answer(db, 2n, [person(4, 1, 0.9), person(5, 2, 0.4)]);
      const nobody = answer(db, 3n, []);
      const mixed = answer(db, 4n, [person(6, 1), person(7, 2)]);
      const olderObjects = answer(db, 5n, [person(8, 1), person(9, 2)]);
      const unreadable = answer(db, 6n, [person(10, 1), person(11, 2)]);
      // Person 7 kept the facts version 3 stored (a row of 17 values): read beside version 4 ones.
      db.prepare('UPDATE people SET facts_version = 3, facts = ? WHERE id = ?').run(version3Row(candidateFacts(person(7, 2))), mixed.people[1]);
      // Person 9's facts of version 2 (an object): that answer is read from its people's records.
      db.prepare('UPDATE people SET facts_version = 2, facts = ? WHERE id = ?').run(JSON.stringify(candidateFacts(person(9, 2))), olderObjects.people[1]);
      // Person 11's facts do not read at all: the answer is read from its people's records too.
      db.prepare("UPDATE people SET facts = 'not facts' WHERE id = ?").run(unreadable.people[1]);

      const rows: WaitingRow[] = [
        { queryId: plain.queryId, bestRank: 2 },
        { queryId: plain.queryId, bestRank: undefined },
        { queryId: plain.queryId, bestRank: 9 },
        { queryId: scored.queryId, bestRank: 1 },
        { queryId: scored.queryId, bestRank: 2 },
        { queryId: nobody.queryId, bestRank: 1 },
        { queryId: mixed.queryId, bestRank: 2 },
        { queryId: olderObjects.queryId, bestRank: 2 },
        { queryId: unreadable.queryId, bestRank: 2 },
        { queryId: 999, bestRank: 1 },
      ];
      const shown = topCandidates(db, rows);
      const got = rows.map(shown);
      expect(got).toEqual(readWhole(db, rows));
      expect(got.map((c) => c && [c.summary.name, c.summary.company, c.score])).toEqual([
        ['Person Number2', 'Company 2', null],
        ['Person Number1', 'Company 1', null],
        ['Person Number1', 'Company 1', null],
        ['Person Number4', 'Company 4', 0.9],
        ['Person Number5', 'Company 5', 0.4],
        undefined,
        ['Person Number7', 'Company 7', null],
        ['Person Number9', 'Company 9', null],
        ['Person Number11', 'Company 11', null],
        undefined,
      ]);
    } finally {
      db.close();
    }
  });
});
