import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { answerPeople, candidateFacts } from '../../../electron/engine/matching';
import { CHOSEN_SQL, chosenSlugSql, chosenValues, personSummary, readRowStatus, summaryColumns, type SummaryColumns } from '../../../electron/engine/rows/row-status';
import { storedQueryId } from '../../../electron/engine/runs/query-ids';
import { openDatabase, putLookups } from '../../../electron/engine/store';
import type { Candidate } from '../../../shared/model';
import { version3Row } from '../matching/version3-facts';
import { tempFolder } from './temp-folder';

const ada: Candidate = {
  rank: 1,
  score: 0.8,
  person: { id: 'p-ada', name: 'Ada Lovelace', linkedin: 'ada', location: 'London, United Kingdom', jobs: [{ title: 'Analyst', company: { name: 'Engines Ltd' }, started_at: '1842-01' }] },
};
const grace: Candidate = {
  rank: 2,
  score: null,
  person: { id: 'p-grace', name: 'Grace Hopper', linkedin: 'grace', jobs: [{ title: 'Admiral', company: { name: 'Navy' }, started_at: '1943-12-01' }, { title: 'Professor', company: 'Vassar', ended_at: '1943-06' }] },
};

describe("a decision's person, read from facts of version 3 or 4", () => {
  it('reads the same summary, current job and profile for the review, the export and the refresh, the record never read', () => {
    const db = openDatabase(join(tempFolder(), 'matchdesk.db'));
    try {
      const queryId = storedQueryId(db, 1n, { fields: [] });
      putLookups(db, [{ queryId, query: { fields: [] }, fetchedAt: 1000, status: 'ok', candidates: [ada, grace], error: null, stored: answerPeople([ada, grace]) }]);
      const ids = JSON.parse(db.prepare('SELECT people FROM lookups').pluck().get() as string) as number[];
      expect(db.prepare('SELECT facts_version, block IS NOT NULL FROM people ORDER BY id').raw().all()).toEqual([
        [4, 1],
        [4, 1],
      ]);
      // Grace was stored by facts version 3 (found again by her digest, she keeps those facts).
      db.prepare('UPDATE people SET facts_version = 3, facts = ? WHERE id = ?').run(version3Row(candidateFacts(grace)), ids[1]);

      const project = Number(db.prepare("INSERT INTO projects (name, status, created_at, updated_at) VALUES ('p', 'ready', 't', 't')").run().lastInsertRowid);
      const people = [ada, grace];
      people.forEach((candidate, i) => {
        db.prepare("INSERT INTO row_status (project_id, row_index, state, outcome, chosen_rank, source) VALUES (?, ?, 'accepted', 'to_review', ?, 'manual')").run(project, i, candidate.rank);
        const facts = candidateFacts(candidate);
        const chosen = { rank: candidate.rank, score: candidate.score, summary: facts.summary, personId: ids[i]!, jobChange: { status: 'no_change' as const, date: null, currentCompany: facts.jobs[0]!.company, currentTitle: facts.jobs[0]!.title, reason: 'works there' } };
        db.prepare(`UPDATE row_status SET ${CHOSEN_SQL} WHERE project_id = ? AND row_index = ?`).run(...chosenValues('accepted', chosen), project, i);
        // The review's read.
        expect(readRowStatus(db, project, i)?.chosen).toEqual(chosen);
      });
      // The export's read: the summary from the front of the facts, no record.
      const exported = db.prepare(`SELECT ${summaryColumns('p')} FROM row_status AS rs JOIN people AS p ON p.id = rs.chosen_person ORDER BY rs.row_index`).raw().all() as SummaryColumns[];
      expect(exported.map((columns) => columns[1])).toEqual([null, null]);
      expect(exported.map((columns) => personSummary(columns))).toEqual(people.map((c) => candidateFacts(c).summary));
      // The refresh's and the changed rows' read of the profile, in SQL.
      expect(db.prepare(`SELECT ${chosenSlugSql('rs')} FROM row_status AS rs ORDER BY rs.row_index`).pluck().all()).toEqual(['ada', 'grace']);
    } finally {
      db.close();
    }
  });
});
