import fc from 'fast-check';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { QueryIds, queriesById, storedQueryId } from '../../../electron/engine/runs/query-ids';
import { RECENT_KEPT } from '../../../electron/engine/store/digest-ids';
import { openDatabase, queryDigest } from '../../../electron/engine/store';
import type { FindQuery } from '../../../shared/model';
import { tempFolder } from '../store/temp-folder';

const base = 'https://gotlivedata.io';
const byEmail = (email: string): FindQuery => ({ fields: [{ field_name: 'email_address', search_term: email }] });

describe('query ids', () => {
  it('give each distinct digest the next id, in the order they are met, and the same id again after', () => {
    const db = openDatabase(join(tempFolder(), 'matchdesk.sqlite'));
    try {
      fc.assert(
        fc.property(fc.array(fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }), { maxLength: 3000 }), (digests) => {
          db.exec('DELETE FROM queries');
          const model = new Map<bigint, number>();
          const ids = QueryIds.of(db).catchUp();
          // A run's ids go on from the last stored, so they are told relative to the first one given.
          let first: number | null = null;
          db.transaction(() => {
            for (const digest of digests) {
              const id = ids.idOf(digest, '[]');
              first ??= id;
              if (!model.has(digest)) model.set(digest, model.size);
              expect(id - first).toBe(model.get(digest));
            }
          })();
          expect(db.prepare('SELECT count(*) FROM queries').pluck().get()).toBe(model.size);
        }),
        { numRuns: 20 },
      );
    } finally {
      db.close();
    }
  });

  it('are shared by every connection, and a query stored in a rolled-back write is never named', () => {
    const file = join(tempFolder(), 'matchdesk.sqlite');
    const db = openDatabase(file);
    const other = openDatabase(file);
    try {
      const digest = (email: string) => queryDigest(base, 'org', byEmail(email));
      const ada = storedQueryId(db, digest('ada@example.com'), byEmail('ada@example.com'));
      // Another process (the CLI beside the app) finds the same query by its digest, and stores a new one after it.
      expect(storedQueryId(other, digest('ada@example.com'), byEmail('ada@example.com'))).toBe(ada);
      const bob = storedQueryId(other, digest('bob@example.com'), byEmail('bob@example.com'));
      expect(bob).toBe(ada + 1);
      expect(storedQueryId(db, digest('bob@example.com'), byEmail('bob@example.com'))).toBe(bob);

      // A plan's page rolled back: the query it stored is gone, and the id it had goes to the next query stored.
      expect(() =>
        db.transaction(() => {
          storedQueryId(db, digest('cy@example.com'), byEmail('cy@example.com'));
          throw new Error('the page could not be written');
        })(),
      ).toThrow(/could not be written/);
      const dee = storedQueryId(db, digest('dee@example.com'), byEmail('dee@example.com'));
      const cy = storedQueryId(db, digest('cy@example.com'), byEmail('cy@example.com'));
      expect(cy).not.toBe(dee);
      expect(queriesById(db, [ada, bob, cy, dee, 999])).toEqual(
        new Map([
          [ada, byEmail('ada@example.com')],
          [bob, byEmail('bob@example.com')],
          [cy, byEmail('cy@example.com')],
          [dee, byEmail('dee@example.com')],
        ]),
      );
    } finally {
      other.close();
      db.close();
    }
  });

  it("are taken without a look at the table once read at a transaction's start, yet never name a removed query or a rolled-back plan's", () => {
    const file = join(tempFolder(), 'matchdesk.sqlite');
    const db = openDatabase(file);
    const other = openDatabase(file);
    try {
      const digest = (email: string) => queryDigest(base, 'org', byEmail(email));
      // A plan's page: its transaction looks once, at its start, then finds or stores each query.
      const page = (emails: string[], fail = false): number[] =>
        db.transaction(() => {
          const ids = QueryIds.of(db).catchUp(true);
          const found = emails.map((email) => ids.idOf(digest(email), JSON.stringify([['email_address', email]])));
          if (fail) throw new Error('the page could not be written');
          return found;
        })();
      const [ada, bob] = page(['ada@example.com', 'bob@example.com']);
      expect(page(['bob@example.com', 'ada@example.com'])).toEqual([bob, ada]);

      // Another process removes the last query (a deleted project's), and the next query it stores takes its id.
      other.prepare('DELETE FROM queries WHERE id = ?').run(bob);
      const cy = storedQueryId(other, digest('cy@example.com'), byEmail('cy@example.com'));
      expect(cy).toBe(bob);
      const [bobAgain, cyHere, adaHere] = page(['bob@example.com', 'cy@example.com', 'ada@example.com']);
      expect([cyHere, adaHere]).toEqual([cy, ada]);
      expect(bobAgain).not.toBe(cy);

      // A page rolled back after storing two queries; another process's next two queries take their ids.
      expect(() => page(['dee@example.com', 'eve@example.com'], true)).toThrow(/could not be written/);
      const fay = storedQueryId(other, digest('fay@example.com'), byEmail('fay@example.com'));
      const gus = storedQueryId(other, digest('gus@example.com'), byEmail('gus@example.com'));
      const [dee, eve, fayHere, gusHere] = page(['dee@example.com', 'eve@example.com', 'fay@example.com', 'gus@example.com']);
      expect([fayHere, gusHere]).toEqual([fay, gus]);
      expect(new Set([dee, eve, fay, gus]).size).toBe(4);

      // The same through storedQueryId alone, on one connection: two queries stored in a write rolled back.
      expect(() =>
        db.transaction(() => {
          storedQueryId(db, digest('hal@example.com'), byEmail('hal@example.com'));
          storedQueryId(db, digest('ida@example.com'), byEmail('ida@example.com'));
          throw new Error('rolled back');
        })(),
      ).toThrow('rolled back');
      const jo = storedQueryId(db, digest('jo@example.com'), byEmail('jo@example.com'));
      const hal = storedQueryId(db, digest('hal@example.com'), byEmail('hal@example.com'));
      const ida = page(['ida@example.com'])[0]!;
      expect(new Set([jo, hal, ida]).size).toBe(3);

      const all = [ada, bobAgain, cy, dee, eve, fay, gus, jo, hal, ida];
      const emails = ['ada', 'bob', 'cy', 'dee', 'eve', 'fay', 'gus', 'jo', 'hal', 'ida'].map((name) => byEmail(`${name}@example.com`));
      expect(queriesById(db, all)).toEqual(new Map(all.map((id, i) => [id, emails[i]!])));
    } finally {
      other.close();
      db.close();
    }
  });

  it('never name a query of a rolled-back write that stored more than they keep to check, and keep only so many to check', () => {
    const file = join(tempFolder(), 'matchdesk.sqlite');
    const db = openDatabase(file);
    try {
      const digest = (email: string) => queryDigest(base, 'org', byEmail(email));
      const ids = QueryIds.of(db);
      const emails = Array.from({ length: RECENT_KEPT + 10 }, (_, i) => `p${i}@example.com`);
      // One write stores more queries than are kept for the check at the next transaction's start, then rolls back.
      expect(() =>
        db.transaction(() => {
          ids.catchUp(true);
          for (const email of emails) ids.idOf(digest(email), JSON.stringify([['email_address', email]]));
          throw new Error('rolled back');
        })(),
      ).toThrow('rolled back');
      // The next transaction reads every digest again: the first and the last of them are stored anew, each with its own id.
      const [first, last, ada] = db.transaction(() => {
        ids.catchUp(true);
        return [emails[0]!, emails.at(-1)!, 'ada@example.com'].map((email) => ids.idOf(digest(email), JSON.stringify([['email_address', email]])));
      })();
      expect(new Set([first, last, ada]).size).toBe(3);
      expect(db.prepare('SELECT count(*) FROM queries').pluck().get()).toBe(3);
      expect(queriesById(db, [first!, last!, ada!]).size).toBe(3);
    } finally {
      db.close();
    }
  });
});
