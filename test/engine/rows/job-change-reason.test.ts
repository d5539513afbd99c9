import fc from 'fast-check';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { jobChange } from '../../../electron/engine/matching';
import { jobChangeReasonOf, storedJobChangeReason } from '../../../electron/engine/rows/job-change-reason';
import { CHOSEN_SQL, chosenValues, readRowStatus, type ChosenPerson } from '../../../electron/engine/rows/row-status';
import { storedQueryId } from '../../../electron/engine/runs/query-ids';
import { openDatabase, putLookups } from '../../../electron/engine/store';
import { answerPeople } from '../../../electron/engine/matching';
import { tempFolder } from '../store/temp-folder';

describe("a decision's job change reason as row_status stores it", () => {
  it('reads back the very text, stored as its span of the reason, a fixed text or itself (a job change reason always holds a space)', () => {
    const reasons = fc.oneof(fc.string().filter((s) => s.includes(' ')), fc.constantFrom('same name, works at Acme now', 'works at Acme now', ''), fc.constant(null));
    fc.assert(
      fc.property(fc.oneof(reasons, fc.constantFrom(...['the sheet has no company to compare with', 'the record lists no jobs'])), reasons, (jobReason, reason) => {
        expect(jobChangeReasonOf(storedJobChangeReason(jobReason, reason), reason)).toBe(jobReason ?? '');
      }),
      { numRuns: 2000 },
    );
    // Reasons inside the decision's, wherever they are in it.
    fc.assert(
      fc.property(fc.string({ minLength: 1 }), fc.string(), fc.string(), (inside, before, after) => {
        const jobReason = `${inside} now`;
        const reason = `${before}${jobReason}${after}`;
        const stored = storedJobChangeReason(jobReason, reason);
        expect(stored).toBe(`${reason.indexOf(jobReason)}:${jobReason.length}`);
        expect(jobChangeReasonOf(stored, reason)).toBe(jobReason);
      }),
      { numRuns: 1000 },
    );
    expect(storedJobChangeReason('works at Acme now', 'same name, works at Acme now')).toBe('11:17');
    expect(storedJobChangeReason(jobChange(null, []).reason, null)).toBe('#0');
    expect(storedJobChangeReason(jobChange('Acme', []).reason, null)).toBe('#1');
    expect(storedJobChangeReason('left Acme 2020-01-01, no current job', 'same name, worked at Acme until 2020-01-01')).toBe('left Acme 2020-01-01, no current job');
    // Text written before it was stored so reads as it is.
    expect(jobChangeReasonOf('works at Acme now', 'anything')).toBe('works at Acme now');
  });

  it('is written as a stand-in by a decision and read back whole by the review', () => {
    const db = openDatabase(join(tempFolder(), 'matchdesk.db'));
    try {
      const person = { rank: 1, score: null, person: { id: 'p1', name: 'Ada Lovelace', jobs: [{ title: 'Analyst', company: { name: 'Engines Ltd' } }] } };
      const queryId = storedQueryId(db, 1n, { fields: [] });
      putLookups(db, [{ queryId, query: { fields: [] }, fetchedAt: 1000, status: 'ok', candidates: [person], error: null, stored: answerPeople([person]) }]);
      const project = Number(db.prepare("INSERT INTO projects (name, status, created_at, updated_at) VALUES ('p', 'ready', 't', 't')").run().lastInsertRowid);
      const summary = { id: 'p1', name: 'Ada Lovelace', title: 'Analyst', company: 'Engines Ltd', social: null, location: null };
      const jobChange = { status: 'no_change' as const, date: null, currentCompany: 'Engines Ltd', currentTitle: 'Analyst', reason: 'works at Engines Ltd now' };
      const decisions: ChosenPerson[] = [
        { rank: 1, score: null, summary, personId: 1, confidence: 0.9, reason: 'same name, works at Engines Ltd now', jobChange },
        { rank: 1, score: null, summary, personId: 1, confidence: 0.9, reason: 'you chose them', jobChange },
        { rank: 1, score: null, summary, personId: 1, confidence: 0.9, reason: 'same name', jobChange: { ...jobChange, status: 'unknown', reason: 'the sheet has no company to compare with' } },
      ];
      decisions.forEach((chosen, i) => {
        db.prepare("INSERT INTO row_status (project_id, row_index, state, outcome, chosen_rank, source, reason) VALUES (?, ?, 'accepted', 'to_review', 1, 'manual', 'same name, works at Engines Ltd now')").run(project, i);
        db.prepare(`UPDATE row_status SET ${CHOSEN_SQL} WHERE project_id = ? AND row_index = ?`).run(...chosenValues('accepted', chosen), project, i);
        expect(readRowStatus(db, project, i)?.chosen).toEqual(chosen);
      });
      expect(db.prepare('SELECT job_change_reason FROM row_status ORDER BY row_index').pluck().all()).toEqual(['11:24', 'works at Engines Ltd now', '#0']);
    } finally {
      db.close();
    }
  });
});
