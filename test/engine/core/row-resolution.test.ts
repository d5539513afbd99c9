import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Candidate, Mapping } from '../../../shared/model';
import { answerPeople, rankedFacts } from '../../../electron/engine/matching';
import { readRowStatus } from '../../../electron/engine/rows/row-status';
import { HeldRows } from '../../../electron/engine/runs/held-rows';
import { RowResolution, type WaitingRow } from '../../../electron/engine/runs/row-resolution';
import { verdictsFor } from '../../../electron/engine/runs/row-verdict';
import { openDatabase, putLookups, type Database } from '../../../electron/engine/store';
import { tempDir } from './helpers';

const MAPPING: Mapping = { fullName: 0, email: 1, company: 2 };
const RULE = { enabled: true, minConfidence: 0.95, minLead: 0.5 };
const AT = '2026-01-02T03:04:05.000Z';
const FETCHED_AT = 1_700_000_000_000;

function person(name: string, company: string, ended: string | null = null) {
  return { name, jobs: [{ company: { name: company }, title: 'Engineer', started_at: '2020-01-01', ended_at: ended }] };
}

const ANSWER: Candidate[] = [
  { rank: 1, score: 0.9, person: person('Jane Doe', 'Globex') },
  { rank: 2, score: 0.7, person: person('Jane Doe', 'Initech', '2022-05-01') },
  { rank: 3, score: 0.4, person: person('Janet Dow', 'Umbrella') },
];

/** A project whose rows all wait on step 0; `steps` per row: the strategies of its planned steps. */
function addProject(db: Database, rows: string[][], steps: (row: number) => string[] = () => ['name+company']): number {
  const now = new Date(0).toISOString();
  const id = Number(
    db.prepare("INSERT INTO projects (name, status, mapping, created_at, updated_at) VALUES ('test', 'ready', ?, ?, ?)").run(JSON.stringify(MAPPING), now, now).lastInsertRowid,
  );
  rows.forEach((cells, rowIndex) => {
    db.prepare('INSERT INTO rows (project_id, row_index, cells) VALUES (?, ?, ?)').run(id, rowIndex, JSON.stringify(cells));
    steps(rowIndex).forEach((strategy, step) => {
      db.prepare('INSERT INTO row_queries (project_id, row_index, step, strategy, query_id) VALUES (?, ?, ?, ?, ?)').run(id, rowIndex, step, strategy, rowIndex * 10 + step);
    });
    db.prepare("INSERT INTO row_status (project_id, row_index, state, outcome, step, strategy, query_id) VALUES (?, ?, 'pending', 'pending', 0, ?, ?)").run(
      id, rowIndex, steps(rowIndex)[0], rowIndex * 10,
    );
  });
  return id;
}

function stored(db: Database, projectId: number) {
  return db
    .prepare(
      `SELECT row_index, state, outcome, step, strategy, query_id, fetched_at, candidate_count, chosen_rank, chosen, source, decided_at,
         job_change, confidence, runner_up, best_rank, reason, guard
       FROM row_status WHERE project_id = ? ORDER BY row_index`,
    )
    .all(projectId) as Record<string, unknown>[];
}

function waiting(rows: string[][]): WaitingRow[] {
  // As addProject stores them: every row at step 0, asking query rowIndex * 10.
  return rows.map((cells, rowIndex) => ({ rowIndex, cells: JSON.stringify(cells), step: 0, queryId: rowIndex * 10, strategy: 'name+company', moved: false }));
}

describe('settling the rows waiting on one answer', () => {
  let dir: ReturnType<typeof tempDir>;
  let db: Database;
  beforeEach(() => {
    dir = tempDir('matchdesk-resolution-');
    db = openDatabase(join(dir.dir, 'matchdesk.sqlite'));
  });
  afterEach(() => {
    db.close();
    dir.remove();
  });

  it('stores for rows sharing a verdict what each row gets assessed alone, and never shares one across different evidence', () => {
    const sheet = [
      ['Jane Doe', '', 'Globex'],
      ['Jane Doe', '', 'Globex'],
      // The same query's answer, but another company: the model must judge it on its own.
      ['Jane Doe', '', 'Initech'],
      ['Jane Doe', '', 'Globex'],
    ];
    const facts = rankedFacts(ANSWER);
    const together = addProject(db, sheet);
    const apart = addProject(db, sheet);
    const answer = { strategy: 'name+company' as const, facts, fetchedAt: FETCHED_AT };

    const shared = db.transaction(() => new RowResolution(db, together, MAPPING, RULE).answer(waiting(sheet), answer, AT))();
    const alone = new RowResolution(db, apart, MAPPING, RULE);
    for (const row of waiting(sheet)) db.transaction(() => alone.answer([row], answer, AT))();

    expect(shared).toEqual({ resolved: 4, advanced: 0 });
    const sharedRows = stored(db, together);
    expect(sharedRows).toEqual(stored(db, apart));
    // Initech is the second candidate's past employer: that row is settled with another person.
    expect(sharedRows.map((r) => r.best_rank)).toEqual([1, 1, 2, 1]);
    expect(sharedRows[2]!.reason).not.toEqual(sharedRows[0]!.reason);
    expect(sharedRows[0]!.chosen).toEqual(sharedRows[3]!.chosen);
  });

  it('stores an accepted row decided when its answer was fetched without the time again, and reads it back', () => {
    const sheet = [['Jane Doe', '', 'Globex']];
    const fetchedIso = new Date(FETCHED_AT).toISOString();
    const [then, later] = [addProject(db, sheet), addProject(db, sheet)];
    const answer = { strategy: 'name+company' as const, facts: rankedFacts(ANSWER), fetchedAt: FETCHED_AT };
    db.transaction(() => new RowResolution(db, then, MAPPING, RULE).answer(waiting(sheet), answer, fetchedIso))();
    // A cached answer settles rows later than it was fetched: that time is kept whole.
    db.transaction(() => new RowResolution(db, later, MAPPING, RULE).answer(waiting(sheet), answer, AT))();
    expect([stored(db, then)[0]!.decided_at, stored(db, later)[0]!.decided_at]).toEqual(['', AT]);
    expect([readRowStatus(db, then, 0)?.decidedAt, readRowStatus(db, later, 0)?.decidedAt]).toEqual([fetchedIso, AT]);
    expect(readRowStatus(db, then, 0)?.state).toBe('auto');
  });

  it('moves a row that found nobody on to its next planned step, ends one at its last step, and leaves a decided row alone', () => {
    const sheet = [
      ['Jane Doe', 'jane@globex.com', 'Globex'],
      ['Jane Doe', '', 'Globex'],
      ['Jane Doe', 'jane@globex.com', 'Globex'],
    ];
    const projectId = addProject(db, sheet, (row) => (row === 1 ? ['name+company'] : ['email', 'name+company']));
    db.prepare("UPDATE row_status SET state = 'to_review', outcome = 'to_review', source = 'manual' WHERE project_id = ? AND row_index = 2").run(projectId);
    const before = stored(db, projectId);

    const count = db.transaction(() => new RowResolution(db, projectId, MAPPING, RULE).answer(waiting(sheet), { strategy: 'email', facts: [], fetchedAt: FETCHED_AT }, AT))();

    expect(count).toEqual({ resolved: 1, advanced: 1 });
    const [moved, ended, decided] = stored(db, projectId);
    expect(moved).toEqual({ ...before[0], step: 1, strategy: 'name+company', query_id: 1, fetched_at: null });
    expect(ended).toEqual({ ...before[1], state: 'no_candidates', outcome: 'no_candidates', fetched_at: FETCHED_AT, candidate_count: 0 });
    expect(decided).toEqual(before[2]);
  });
});

describe('rows held until the rows before them are settled', () => {
  let dir: ReturnType<typeof tempDir>;
  let db: Database;
  beforeEach(() => {
    dir = tempDir('matchdesk-held-');
    db = openDatabase(join(dir.dir, 'matchdesk.sqlite'));
  });
  afterEach(() => {
    db.close();
    dir.remove();
  });

  it('counts the rows below a mark up to what is asked, writes them in row order as an answer settles them, and keeps the rest', () => {
    const sheet = Array.from({ length: 10 }, (_, i) => ['Jane Doe', i % 3 === 0 ? 'jane@globex.com' : '', i % 2 === 0 ? 'Globex' : 'Initech']);
    const heldProject = addProject(db, sheet);
    const direct = addProject(db, sheet);
    const answer = { strategy: 'name+company' as const, facts: rankedFacts(ANSWER), fetchedAt: FETCHED_AT };
    const resolution = new RowResolution(db, heldProject, MAPPING, RULE);
    const rows = waiting(sheet);
    const values = verdictsFor(
      rows.map((r) => r.cells),
      'name+company',
      answer.facts,
      resolution.verdictContext(AT),
    );
    const held = new HeldRows();
    // Held as calls land: out of row order; row 7 found nobody at its last step.
    const order = [8, 5, 3, 9, 6, 4];
    for (const i of order) held.add([rows[i]!], [values[i]!], FETCHED_AT);
    held.add([rows[7]!], null, FETCHED_AT);

    expect([held.countBelow(3), held.countBelow(4), held.countBelow(7), held.countBelow(100), held.countBelow(100, 2)]).toEqual([0, 1, 4, 7, 2]);
    expect(db.transaction(() => held.write(resolution, 7))()).toEqual({ resolved: 0, advanced: 0 });
    // Rows 3 to 6 written; 7, 8 and 9 kept, the lowest of them now 7.
    expect([held.size, held.countBelow(7), held.countBelow(8), held.countBelow(9, 1)]).toEqual([3, 0, 1, 1]);
    expect(db.transaction(() => held.write(resolution))()).toEqual({ resolved: 1, advanced: 0 });
    expect([held.size, held.countBelow(100)]).toEqual([0, 0]);

    // What the held rows wrote is what the answer writes when it settles the same rows at once; row 7 ends with nobody.
    const settled = new RowResolution(db, direct, MAPPING, RULE);
    db.transaction(() => {
      settled.found(
        order.map((i) => rows[i]!),
        order.map((i) => values[i]!),
        FETCHED_AT,
      );
      settled.noCandidates([rows[7]!], FETCHED_AT);
    })();
    expect(stored(db, heldProject)).toEqual(stored(db, direct));
    const states = stored(db, heldProject).map((r) => r.state);
    expect(states.slice(0, 3)).toEqual(['pending', 'pending', 'pending']);
    expect(states[7]).toBe('no_candidates');
    expect(states.filter((s) => s === 'auto' || s === 'to_review')).toHaveLength(6);
  });

  it('keeps rows added between reads in row order: counts, partial writes and what is left agree with the rows added', () => {
    const sheet = Array.from({ length: 400 }, () => ['Jane Doe', '', 'Globex']);
    const projectId = addProject(db, sheet);
    const resolution = new RowResolution(db, projectId, MAPPING, RULE);
    const rows = waiting(sheet);
    // Calls land with rows from the pages read last, a few of a query at a time, out of order and below rows held.
    let seed = 41;
    const next = (n: number) => (seed = (Math.imul(seed, 1_103_515_245) + 12_345) >>> 0) % n;
    const order = rows.map((r) => r.rowIndex);
    for (let i = order.length - 1; i > 0; i--) {
      const j = next(i + 1);
      [order[i], order[j]] = [order[j]!, order[i]!];
    }
    const held = new HeldRows();
    const kept = new Set<number>();
    const ended = new Set<number>();
    for (let at = 0; at < order.length; ) {
      const batch = order.slice(at, (at += 1 + next(12)));
      held.add(batch.map((i) => rows[i]!), null, FETCHED_AT);
      for (const i of batch) kept.add(i);
      const mark = next(420);
      const expected = [...kept].filter((i) => i < mark).length;
      expect(held.countBelow(mark)).toBe(expected);
      expect(held.size).toBe(kept.size);
      if (next(4) === 0) {
        // Found nobody at their last step: a write ends exactly the rows below the mark.
        expect(db.transaction(() => held.write(resolution, mark))().resolved).toBe(expected);
        for (const i of [...kept]) {
          if (i >= mark) continue;
          kept.delete(i);
          ended.add(i);
        }
      }
    }
    db.transaction(() => held.write(resolution))();
    for (const i of kept) ended.add(i);
    expect(held.size).toBe(0);
    expect(ended.size).toBe(sheet.length);
    expect(stored(db, projectId).every((r) => r.state === 'no_candidates')).toBe(true);
  });

  it('stores the person a held row chose by the ids its answer was stored with, as the stored answer names them by position', () => {
    // Each row asks its own query; the answers hold the same three people in turn, the row's person at another place each time.
    const sheet = [
      ['Jane Doe', '', 'Globex'],
      ['Jane Doe', '', 'Globex'],
      ['Jane Doe', '', 'Globex'],
    ];
    const answers = [0, 1, 2].map((shift) => [...ANSWER.slice(3 - shift), ...ANSWER.slice(0, 3 - shift)].map((c, i) => ({ ...c, rank: i + 1 })));
    const ids = putLookups(
      db,
      answers.map((candidates, row) => ({ queryId: row * 10, query: null, fetchedAt: FETCHED_AT, status: 'ok', candidates, error: null, stored: answerPeople(candidates) })),
    );
    const [bound, byPosition] = [addProject(db, sheet), addProject(db, sheet)];
    const resolution = new RowResolution(db, bound, MAPPING, RULE);
    const rows = waiting(sheet);
    const values = rows.map((row, i) => verdictsFor([row.cells], 'name+company', rankedFacts(answers[i]!), { ...resolution.verdictContext(AT), byPeople: true })[0]!);
    const held = new HeldRows();
    rows.forEach((row, i) => held.add([row], [values[i]!], FETCHED_AT, ids[i]));
    db.transaction(() => held.write(resolution))();
    const positional = new RowResolution(db, byPosition, MAPPING, RULE);
    db.transaction(() => rows.forEach((row, i) => positional.foundOne(row, values[i]!, FETCHED_AT)))();

    const chosen = (projectId: number) => db.prepare('SELECT chosen_person FROM row_status WHERE project_id = ? ORDER BY row_index').pluck().all(projectId);
    // Jane Doe of Globex is one person, stored once: each row chose her, at position 0, 1 and 2 of its answer.
    expect(values.map((v) => v[4])).toEqual([0, 1, 2]);
    expect(chosen(bound)).toEqual([ids[0]![0], ids[0]![0], ids[0]![0]]);
    expect(chosen(byPosition)).toEqual(chosen(bound));
    expect(stored(db, bound)).toEqual(stored(db, byPosition));
  });

  it("writes a run's first rows quickly (1,000 at once or after 250 ms), then in writes of 6,000 (or after 3 s)", () => {
    const sheet = Array.from({ length: 8_000 }, (_, i) => [`Person ${i}`, '', 'Globex']);
    const project = db.transaction(() => addProject(db, sheet))();
    const resolution = new RowResolution(db, project, MAPPING, RULE);
    const rows = waiting(sheet);
    // The quick rows 1,000 here, not a run's 20,000: a smaller sheet.
    const held = new HeldRows(1_000);
    expect(held.pace()).toEqual({ rows: 1_000, ms: 250 });
    // Found nobody at their last step: they end as no_candidates when written.
    held.add(rows.slice(0, 1_000), null, FETCHED_AT);
    expect(held.dueBelow(1_000)).toBe(1_000);
    db.transaction(() => held.write(resolution, 1_000))();
    // Past the quick rows a write waits for 6,000 rows (or 3 s).
    expect(held.pace()).toEqual({ rows: 6_000, ms: 3_000 });
    held.add(rows.slice(1_000, 6_999), null, FETCHED_AT);
    expect(held.dueBelow(6_999)).toBeNull();
    held.add(rows.slice(6_999, 7_000), null, FETCHED_AT);
    expect(held.countBelow(7_000)).toBe(6_000);
    expect(held.dueBelow(7_000)).toBe(7_000);
    db.transaction(() => held.write(resolution, 7_000))();
    expect(held.size).toBe(0);
    const states = stored(db, project).map((r) => r.state);
    expect(states.slice(0, 7_000).every((s) => s === 'no_candidates')).toBe(true);
    expect(states.slice(7_000).every((s) => s === 'pending')).toBe(true);
  });
});
