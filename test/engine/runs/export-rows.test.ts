import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it, vi } from 'vitest';
import { answerPeople, candidateFacts } from '../../../electron/engine/matching';
import { readProject } from '../../../electron/engine/rows/project-record';
import { CHOSEN_SQL, chosenValues, type ChosenPerson } from '../../../electron/engine/rows/row-status';
import { MATCH_COLUMNS, matchExport, type ExportScope } from '../../../electron/engine/runs/export-rows';
import { storedQueryId } from '../../../electron/engine/runs/query-ids';
import type { ExportCell, RowPages } from '../../../electron/engine/export';
import { openDatabase, putLookups } from '../../../electron/engine/store';
import type { Candidate, PersonSummary } from '../../../shared/model';
import { version3Row } from '../matching/version3-facts';
import { tempFolder } from '../store/temp-folder';

const ada: Candidate = {
  rank: 1,
  score: 0.8,
  person: { id: 'p-ada', name: 'Ada Lovelace Zoë', linkedin: 'ada', location: 'London, United Kingdom', jobs: [{ title: 'Analyst', company: { name: 'Engines Ltd' }, started_at: '1842-01' }] },
};
const grace: Candidate = {
  rank: 2,
  score: null,
  person: { id: 'p-grace', name: 'Grace Hopper 葛丽丝', linkedin: 'grace', location: 'London, United Kingdom', jobs: [{ title: 'Admiral', company: { name: 'Navy' }, started_at: '1943-12-01' }] },
};
const NO_ONE = ['', '', '', '', '', ''];

async function exported(db: Database.Database, projectId: number, scope: ExportScope, pageRows: number): Promise<ExportCell[][]> {
  const lines: ExportCell[][] = [];
  for await (const page of (matchExport(db, readProject(db, projectId)!, scope, { pageRows }).rows as RowPages).pages) lines.push(...page);
  return lines;
}

describe("an export's rows", () => {
  it("writes each matched row's person, read once before the rows in id order, the rows' status and cells walked side by side", async () => {
    const db = openDatabase(join(tempFolder(), 'matchdesk.db'));
    try {
      const queryId = storedQueryId(db, 1n, { fields: [] });
      putLookups(db, [{ queryId, query: { fields: [] }, fetchedAt: 1000, status: 'ok', candidates: [ada, grace], error: null, stored: answerPeople([ada, grace]) }]);
      const [adaId, graceId] = JSON.parse(db.prepare('SELECT people FROM lookups').pluck().get() as string) as number[];
      // Grace keeps the facts version 3 stored for her.
      db.prepare('UPDATE people SET facts_version = 3, facts = ? WHERE id = ?').run(version3Row(candidateFacts(grace)), graceId);
      const project = Number(db.prepare(`INSERT INTO projects (name, status, created_at, updated_at, headers) VALUES ('p', 'ready', 't', 't', '["Name","Notes"]')`).run().lastInsertRowid);
      const cells = (i: number) => JSON.stringify([`row ${i}`, i % 2 === 0 ? 'even' : 'odd']);
      // Rows 0-49: a few matched far apart, the rest without candidates; row 5 blank, row 6 never planned, row 8's cells gone.
      const matched = new Map<number, { candidate: Candidate; personId: number } | 'stored whole'>([
        [0, { candidate: ada, personId: adaId! }],
        [3, { candidate: grace, personId: graceId! }],
        [30, { candidate: ada, personId: adaId! }],
        [47, 'stored whole'],
      ]);
      const insertRow = db.prepare('INSERT INTO rows (project_id, row_index, cells) VALUES (?, ?, ?)');
      const insertStatus = db.prepare("INSERT INTO row_status (project_id, row_index, state, outcome, strategy, fetched_at, decided_at) VALUES (?, ?, ?, 'to_review', 'email', 1000, '')");
      for (let i = 0; i < 50; i++) {
        if (i !== 8) insertRow.run(project, i, i === 5 ? '[]' : cells(i));
        if (i === 5 || i === 6) continue;
        const choice = matched.get(i);
        insertStatus.run(project, i, choice ? 'accepted' : 'no_candidates');
        if (!choice) continue;
        const chosen: ChosenPerson =
          choice === 'stored whole'
            ? { rank: 1, score: 0.5, summary: { id: 'p-old', name: 'Old Decision', title: null, company: 'Then Inc', social: 'old', location: null } }
            : { rank: choice.candidate.rank, score: choice.candidate.score, summary: candidateFacts(choice.candidate).summary, personId: choice.personId, confidence: 0.9 };
        db.prepare(`UPDATE row_status SET source = 'manual', ${CHOSEN_SQL} WHERE project_id = ? AND row_index = ?`).run(...chosenValues('accepted', chosen), project, i);
      }

      const prepared = vi.spyOn(Database.prototype, 'prepare');
      let all: ExportCell[][];
      let onlyMatched: ExportCell[][];
      try {
        all = await exported(db, project, 'all', 4);
        onlyMatched = await exported(db, project, 'matched', 2);
        const readingPeople = prepared.mock.calls.map(([sql]) => String(sql)).filter((sql) => /\bpeople\b/.test(sql));
        // One statement each export, the summaries of the people its rows chose, by their ids: no statement joins them
        // row by row.
        expect(readingPeople).toHaveLength(2);
        for (const sql of readingPeople) expect(sql).toMatch(/^SELECT p\.id, .* FROM people AS p WHERE p\.id IN \(SELECT value FROM json_each\(\?\)\) ORDER BY p\.id$/s);
      } finally {
        prepared.mockRestore();
      }

      // Two original columns, then the match columns: the summary's id, name, title and company, then its profile and location.
      const at = (column: (typeof MATCH_COLUMNS)[number]) => 2 + MATCH_COLUMNS.indexOf(column);
      const person = (line: ExportCell[]) => [...line.slice(at('match_person_id'), at('match_company') + 1), line[at('match_social')], line[at('match_location')]];
      const values = (s: PersonSummary) => [s.id, s.name, s.title, s.company, s.social, s.location].map((v) => v ?? '');
      // Every row of the sheet at its place: the one not planned yet as pending (left out, the rows after it moved up one).
      const written = Array.from({ length: 50 }, (_, i) => i).filter((i) => i !== 8);
      expect(all.map((line) => line[0])).toEqual(written.map((i) => (i === 5 ? '' : `row ${i}`)));
      expect(all.map((line) => line[at('match_status')])).toEqual(written.map((i) => (i === 5 ? 'blank' : i === 6 ? 'pending' : matched.has(i) ? 'accepted' : 'no_candidates')));
      expect(person(all[6]!)).toEqual(NO_ONE);
      expect(onlyMatched.map((line) => line[0])).toEqual(['row 0', 'row 3', 'row 30', 'row 47']);
      for (const lines of [all, onlyMatched]) {
        const line = (i: number) => lines.find((l) => l[0] === `row ${i}`)!;
        expect(person(line(0))).toEqual(values(candidateFacts(ada).summary));
        expect(person(line(3))).toEqual(values(candidateFacts(grace).summary));
        expect(person(line(30))).toEqual(values(candidateFacts(ada).summary));
        expect(person(line(47))).toEqual(['p-old', 'Old Decision', '', 'Then Inc', 'old', '']);
      }
      expect(person(all[1]!)).toEqual(NO_ONE);
    } finally {
      db.close();
    }
  });
});
