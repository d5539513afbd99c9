import type { Migration } from '../migration';

// Each answer stored its candidates' whole records and their facts, so a person found by several queries (namesakes,
// a row's later steps, another project) was stored once per answer. Each version of a person is now stored once, in a
// plain append-only table found again by the digest of its record (store/person-digests.ts), with the facts
// the model reads made once; an answer keeps its people's ids and its own ranks and scores (store/lookups.ts).
// Answers stored before keep their candidates and facts, and read as they did, until runs/answer-people.ts moves
// them to the new layout a slice at a time (each slice one transaction, so an answer is in one layout or the other).
export const peopleOnce: Migration = {
  version: 25,
  name: 'people stored once, answers as their ids',
  up(db) {
    db.exec(`
      CREATE TABLE people (
        id INTEGER PRIMARY KEY,
        facts_version INTEGER NOT NULL,
        -- One row of values the model reads (matching/candidate-facts.ts storedCandidate), JSON.
        facts TEXT NOT NULL,
        person TEXT NOT NULL
      );
      -- Each person's digest, the first 64 bits of the SHA-256 of its record (matching/candidate-facts.ts answerPeople):
      -- read into memory by store/person-digests.ts instead of indexed, so a new person appends and writes no random page.
      CREATE TABLE person_digests (
        id INTEGER PRIMARY KEY,
        digest INTEGER NOT NULL
      );

      -- An 'ok' answer's people, best rank first, as a JSON list of people ids; and their [rank, score] in it.
      ALTER TABLE lookups ADD COLUMN people TEXT;
      ALTER TABLE lookups ADD COLUMN ranks TEXT;
    `);
  },
};
