import Database from 'better-sqlite3';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { answerPeople, candidateFacts, jobChange } from '../../../../electron/engine/matching';
import { CHOSEN_SQL, chosenSlugSql, chosenValues, readRowStatus, type ChosenPerson } from '../../../../electron/engine/rows/row-status';
import { storedQueryId } from '../../../../electron/engine/runs/query-ids';
import { ALL_MIGRATIONS, clearCache, migrate, putLookups } from '../../../../electron/engine/store';
import type { Candidate } from '../../../../shared/model';
import { tempFolder } from '../temp-folder';

const upTo = (v: number) => ALL_MIGRATIONS.filter((m) => m.version <= v);

const ada: Candidate = {
  rank: 1,
  score: 0.8,
  person: { id: 'p-ada', name: 'Ada Lovelace', linkedin: 'ada', jobs: [{ title: 'Analyst', company: { name: 'Engines Ltd' }, started_at: '2020-01-01' }] },
};

describe("migration 27: a row's decision as numbers, its person by id", () => {
  it('reads a decision stored whole as it did, and stores new ones as numbers whose person clearing the cache keeps', () => {
    const db = new Database(join(tempFolder(), 'm.db'));
    try {
      migrate(db, upTo(26));
      const project = Number(db.prepare("INSERT INTO projects (name, status, created_at, updated_at) VALUES ('p', 'ready', 't', 't')").run().lastInsertRowid);
      const whole: ChosenPerson = {
        rank: 2,
        score: null,
        summary: { id: 'p-old', name: 'Old Person', title: 'Clerk', company: 'Globex', social: 'old', location: null },
        confidence: 0.7,
        reason: 'name and company match',
        jobChange: { status: 'no_change', date: null, currentCompany: 'Globex', currentTitle: 'Clerk', reason: 'works at Globex now' },
      };
      const add = db.prepare("INSERT INTO row_status (project_id, row_index, state, outcome, chosen_rank, chosen, source, job_change, reason) VALUES (?, ?, ?, 'to_review', ?, ?, 'manual', ?, ?)");
      add.run(project, 0, 'accepted', 2, JSON.stringify(whole), 'no_change', 'the best of two');
      add.run(project, 1, 'to_review', null, null, null, 'name and company match');

      expect(migrate(db, upTo(27)).applied).toEqual([27]);
      const columns = db.prepare("SELECT name FROM pragma_table_info('row_status')").pluck().all();
      expect(columns.slice(-6)).toEqual(['chosen_person', 'chosen_score', 'chosen_confidence', 'chosen_reason', 'job_change_date', 'job_change_reason']);
      for (const table of ['refreshed_people', 'refresh_found']) expect(db.prepare(`SELECT name FROM pragma_table_info('${table}')`).pluck().all().at(-1)).toBe('person');
      // Decisions are read by today's code, which needs the later migrations' tables too.
      migrate(db, ALL_MIGRATIONS);
      // Stored before, the decision reads as it was stored, its person's profile found in SQL too.
      expect(readRowStatus(db, project, 0)?.chosen).toEqual(whole);
      const slugOf = (row: number) => db.prepare(`SELECT ${chosenSlugSql('rs')} FROM row_status AS rs WHERE project_id = ? AND row_index = ?`).pluck().get(project, row);
      expect(slugOf(0)).toBe('old');

      // Now: a decision names the person's `people` row, and keeps the numbers beside it.
      migrate(db);
      putLookups(db, [{ queryId: storedQueryId(db, 1n, { fields: [] }), query: { fields: [] }, fetchedAt: 1000, status: 'ok', candidates: [ada], error: null, stored: answerPeople([ada]) }]);
      const personId = db.prepare('SELECT id FROM people').pluck().get() as number;
      const facts = candidateFacts(ada);
      const chosen: ChosenPerson = { rank: 1, score: 0.8, summary: facts.summary, confidence: 0.95, reason: 'name and company match', jobChange: jobChange('Engines Ltd', facts.jobs), personId };
      db.prepare(`UPDATE row_status SET state = 'accepted', chosen_rank = 1, ${CHOSEN_SQL} WHERE project_id = ? AND row_index = 1`).run(...chosenValues('accepted', chosen), project);
      expect(db.prepare('SELECT chosen, chosen_person, chosen_score, chosen_confidence, chosen_reason, job_change, job_change_date, job_change_reason FROM row_status WHERE row_index = 1').get()).toEqual({
        chosen: null,
        chosen_person: personId,
        chosen_score: 0.8,
        chosen_confidence: 0.95,
        // The row's own reason: not kept twice.
        chosen_reason: null,
        job_change: 'no_change',
        job_change_date: null,
        job_change_reason: 'works at Engines Ltd now',
      });
      // Read back, it is the decision as it was made.
      const read = readRowStatus(db, project, 1)!.chosen!;
      expect(read).toEqual(chosen);
      expect(slugOf(1)).toBe('ada');

      // The answer goes; the person the decision names stays.
      expect(clearCache(db)).toBe(1);
      expect(db.prepare('SELECT id FROM people').pluck().all()).toEqual([personId]);
      expect(readRowStatus(db, project, 1)!.chosen).toEqual(read);
    } finally {
      db.close();
    }
  });
});
