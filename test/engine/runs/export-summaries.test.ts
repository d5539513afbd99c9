import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { answerPeople, candidateFacts } from '../../../electron/engine/matching';
import { ExportSummaries } from '../../../electron/engine/runs/export-summaries';
import { storedQueryId } from '../../../electron/engine/runs/query-ids';
import { openDatabase, putLookups } from '../../../electron/engine/store';
import type { Candidate } from '../../../shared/model';
import { tempFolder } from '../store/temp-folder';

// An answer keeps five people.
const NAMES = ['Ann Lee', 'Zoë Brandão', 'Ōta Hiro', '葛丽丝', 'Bo Ek'];
const candidates: Candidate[] = NAMES.map((name, i) => ({
  rank: i + 1,
  score: null,
  person: { id: `p-${i}`, name, linkedin: `slug-${i}`, location: i % 2 ? 'Oslo, Norway' : null, jobs: [{ title: i % 3 ? 'Analyst' : 'Nurse', company: { name: `Firm ${i % 2}` } }] },
}));

describe("an export's people", () => {
  it('finds every chosen person across chunks, Latin-1 and wider names alike, and one chosen since when asked', async () => {
    const db = openDatabase(join(tempFolder(), 'matchdesk.db'));
    try {
      const queryId = storedQueryId(db, 1n, { fields: [] });
      putLookups(db, [{ queryId, query: { fields: [] }, fetchedAt: 1000, status: 'ok', candidates, error: null, stored: answerPeople(candidates) }]);
      const ids = JSON.parse(db.prepare('SELECT people FROM lookups').pluck().get() as string) as number[];
      const project = Number(db.prepare("INSERT INTO projects (name, status, created_at, updated_at) VALUES ('p', 'ready', 't', 't')").run().lastInsertRowid);
      // Every person chosen but the fourth, some by two rows; one row waiting for review names no one.
      const chosen = [0, 1, 2, 4, 1, 4];
      chosen.forEach((person, row) => {
        db.prepare("INSERT INTO row_status (project_id, row_index, state, outcome, chosen_person) VALUES (?, ?, 'auto', 'to_review', ?)").run(project, row, ids[person]);
      });
      db.prepare("INSERT INTO row_status (project_id, row_index, state, outcome, chosen_person) VALUES (?, 99, 'to_review', 'to_review', ?)").run(project, ids[3]);

      expect(ids).toHaveLength(NAMES.length);
      // In slices of every size: a chunk, the rows read for their choices, the people read for their summaries.
      for (const [chunk, rows, people] of [[1, 1, 1], [2, 3, 2], [3, 100, 1], [16, 2, 16]]) {
        const summaries = await ExportSummaries.read(db, 'FROM row_status rs WHERE rs.project_id = @projectId', { projectId: project }, { chunk, rows, people });
        candidates.forEach((candidate, i) => {
          const { summary } = candidateFacts(candidate);
          // The person no matched row chose is read when asked for (chosen while an export runs), as its facts say.
          expect(summaries.summaryOf(ids[i]!), `${chunk}, ${rows}, ${people}: ${candidate.person.name}`).toEqual(i === 3 ? summary : { ...summary, location: summary.location ?? '' });
          expect(summaries.fromRecord(ids[i]!)).toBe(false);
        });
        expect(summaries.summaryOf(Math.min(...ids) - 1)).toBeNull();
        expect(summaries.summaryOf(Math.max(...ids) + 1)).toBeNull();
      }

      // Far more rows than people, each person's id read once per row that chose it: the repeats are dropped as the
      // ids are gathered, many times over, and every person is still found, the last one chosen by early rows only.
      const insert = db.prepare("INSERT INTO row_status (project_id, row_index, state, outcome, chosen_person) VALUES (?, ?, 'accepted', 'to_review', ?)");
      db.transaction(() => {
        for (let row = 100; row < 20_100; row++) insert.run(project, row, ids[row % (row < 4_000 ? NAMES.length : NAMES.length - 1)]);
      })();
      const summaries = await ExportSummaries.read(db, 'FROM row_status rs WHERE rs.project_id = @projectId', { projectId: project });
      candidates.forEach((candidate, i) => {
        const { summary } = candidateFacts(candidate);
        expect(summaries.summaryOf(ids[i]!), `${candidate.person.name}`).toEqual({ ...summary, location: summary.location ?? '' });
      });
    } finally {
      db.close();
    }
  });
});
