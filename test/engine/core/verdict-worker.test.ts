import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Engine } from '../../../electron/engine/engine';
import { rankedFacts, storedFacts } from '../../../electron/engine/matching';
import { getLookups } from '../../../electron/engine/store';
import { jobVerdicts, verdictsFor, type VerdictContext } from '../../../electron/engine/runs/row-verdict';
import { VerdictThread, type AnswerResults } from '../../../electron/engine/runs/verdict-thread';
import type { Candidate } from '../../../shared/model';
import type { Person, Simulator } from '../../../electron/simulator';
import { connect, currentCompany, findablePeople, ok, openEngine, runToEnd, startSim, tempDir, writeCsv } from './helpers';

let tmp: ReturnType<typeof tempDir>;
let sim: Simulator;
let people: Person[];

beforeAll(async () => {
  tmp = tempDir('matchdesk-verdicts-');
  sim = await startSim();
  people = findablePeople(sim);
});
afterAll(async () => {
  await sim.close();
  tmp.remove();
});
afterEach(() => {
  vi.restoreAllMocks();
});

const HEADERS = ['Name', 'Email', 'Company'];

/** More rows than two pages of a walk (1,000 each), so pages are read while earlier ones wait on their verdicts. */
function sheetRows(count: number): string[][] {
  return Array.from({ length: count }, (_, i) => {
    const p = people[i % 700]!;
    if (i % 5 === 0) return ['', p.email_address, ''];
    if (i % 5 === 1) return [p.name, '', currentCompany(p)];
    // Several candidates, left for review; and the same query with other evidence (no company).
    if (i % 5 === 2) return [p.name.split(' ')[0]!, '', currentCompany(p)];
    if (i % 5 === 3) return [p.name, '', ''];
    return [`Nobody ${i % 50}`, `nobody${i % 50}@unknown.example`, ''];
  });
}

function settledRows(engine: Engine, projectId: number): Record<string, unknown>[] {
  const db = new Database(engine.dbPath, { readonly: true });
  try {
    return db
      .prepare(
        `SELECT row_index, state, outcome, step, strategy, query_id, candidate_count, chosen_rank, chosen, source, job_change, confidence, runner_up,
           best_rank, reason, guard
         FROM row_status WHERE project_id = ? ORDER BY row_index`,
      )
      .all(projectId) as Record<string, unknown>[];
  } finally {
    db.close();
  }
}

/** A sheet run once (every answer fetched), then imported again and answered from the cache. */
async function cachedRerun(engine: Engine, name: string): Promise<{ first: Record<string, unknown>[]; cached: Record<string, unknown>[] }> {
  await connect(engine, sim);
  // One call at a time: the walk waits for each, so the next page's rows come to wait on calls that landed already.
  await ok(engine, 'settings.update', { concurrency: 1 });
  const file = writeCsv(join(tmp.dir, `${name}.csv`), HEADERS, sheetRows(2600));
  const first = (await ok(engine, 'projects.import', { file })).summary;
  expect((await runToEnd(engine, first.id)).status).toBe('done');
  const firstRows = settledRows(engine, first.id);
  // Gone, so the re-run has no project of the sheet to copy verdicts from (runs/copied-verdicts.ts): each is worked out.
  await ok(engine, 'projects.delete', { projectId: first.id });
  const again = (await ok(engine, 'projects.import', { file, name: `${name} again` })).summary;
  expect(await runToEnd(engine, again.id)).toMatchObject({ status: 'done', calls: 0 });
  return { first: firstRows, cached: settledRows(engine, again.id) };
}

describe('the verdict worker', () => {
  it("settles a cached re-run on its own thread exactly as the engine's thread does", async () => {
    const started = vi.spyOn(VerdictThread, 'start');
    const asked = vi.spyOn(VerdictThread.prototype, 'verdicts');
    const read = vi.spyOn(VerdictThread.prototype, 'answers');
    // Each landed call is prepared a little late, so later pages' rows come to wait on it meanwhile (assessed at the commit).
    const reply = VerdictThread.prototype.reply;
    const prepared = vi.spyOn(VerdictThread.prototype, 'reply').mockImplementation(async function (this: VerdictThread, request) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      return reply.call(this, request);
    });
    const withWorker = await openEngine(join(tmp.dir, 'worker'));
    const without = await openEngine(join(tmp.dir, 'no-worker'), { verdictWorker: false });
    try {
      const threaded = await cachedRerun(withWorker, 'worker');
      // One worker a run, stopped when the run ended: its heap and page cache do not stay for the engine's life.
      expect(started).toHaveBeenCalledTimes(2);
      for (const { value } of started.mock.results) {
        expect(value).toBeInstanceOf(VerdictThread);
        expect((value as VerdictThread).usable).toBe(false);
      }
      // Every page of the re-run went to the worker, and it answered (a failure would have been settled here instead):
      // the run's thread read the first and third pages' answers, the worker the second's itself.
      expect(asked.mock.calls.length).toBeGreaterThanOrEqual(2);
      expect(read).toHaveBeenCalledTimes(1);
      const answered = await Promise.all([...asked.mock.results, ...read.mock.results].map((r) => r.value as Promise<unknown>));
      expect(answered.every((results) => Array.isArray(results) && results.length > 0)).toBe(true);
      // Its answers were the cache's, with verdicts: a page of them found candidates for most queries.
      const readAnswers = (await read.mock.results[0]!.value) as AnswerResults;
      expect(readAnswers.filter((a) => a?.kind === 'found').length).toBeGreaterThan(readAnswers.length / 2);

      // The first run's replies were read and prepared there too (their answers' facts and JSON, their rows' verdicts).
      expect(prepared).toHaveBeenCalled();
      const results = await Promise.all(prepared.mock.results.map((r) => r.value as Promise<{ values: unknown[] }>));
      expect(results.every((call) => call.values.some((values) => values !== null))).toBe(true);

      const local = await cachedRerun(without, 'no-worker');
      expect(started).toHaveBeenCalledTimes(2);
      expect(threaded.first).toEqual(local.first);
      expect(threaded.cached).toEqual(local.cached);
      expect(threaded.cached).toEqual(threaded.first);
      const states = new Set(threaded.cached.map((r) => r.state));
      for (const state of ['auto', 'to_review', 'no_candidates']) expect(states).toContain(state);
    } finally {
      await withWorker.close();
      await without.close();
    }
  });

  it('reads a reply while the next call is on its way', async () => {
    const engine = await openEngine(join(tmp.dir, 'overlap'));
    const reply = VerdictThread.prototype.reply;
    const callsWhileReading: number[] = [];
    const reading = vi.spyOn(VerdictThread.prototype, 'reply').mockImplementation(async function (this: VerdictThread, request) {
      // Held until the service has seen another call (or for at most a second): the next call does not wait on this one's reading.
      const before = sim.counters().findCalls;
      for (let waited = 0; sim.counters().findCalls === before && waited < 1000; waited += 10) await new Promise((resolve) => setTimeout(resolve, 10));
      callsWhileReading.push(sim.counters().findCalls - before);
      return reply.call(this, request);
    });
    try {
      await connect(engine, sim);
      await ok(engine, 'settings.update', { concurrency: 1 });
      const file = writeCsv(join(tmp.dir, 'overlap.csv'), HEADERS, sheetRows(2600));
      const project = (await ok(engine, 'projects.import', { file })).summary;
      sim.resetCounters();
      expect((await runToEnd(engine, project.id)).status).toBe('done');
      expect(reading.mock.calls.length).toBeGreaterThanOrEqual(3);
      // Every reply but a walk's last (no call comes after it; this sheet takes at most three walks) was read while the
      // next call went out.
      console.log(`replies read while the next call went out: ${callsWhileReading.filter((n) => n > 0).length} of ${callsWhileReading.length}`);
      expect(callsWhileReading.filter((n) => n === 0).length).toBeLessThanOrEqual(3);
    } finally {
      await engine.close();
    }
  });

  it('stores from a first run the same people, answers and rows as the engine does alone', async () => {
    /** What a first run of the sheet stored: people by their digest (their ids and blocks follow the calls' landing). */
    const firstRun = async (engine: Engine, name: string) => {
      await connect(engine, sim);
      const file = writeCsv(join(tmp.dir, `${name}.csv`), HEADERS, sheetRows(2600));
      const project = (await ok(engine, 'projects.import', { file })).summary;
      expect((await runToEnd(engine, project.id)).status).toBe('done');
      const db = new Database(engine.dbPath, { readonly: true });
      try {
        const people = db.prepare('SELECT d.digest, p.facts_version, p.facts FROM people AS p JOIN person_digests AS d ON d.id = p.id ORDER BY d.digest').safeIntegers(true).raw().all();
        const answers = db
          .prepare(
            `SELECT l.query_id, q.query, l.status, l.candidate_count, l.ranks,
               (SELECT json_group_array(CAST(d.digest AS TEXT)) FROM (SELECT d.digest FROM json_each(l.people) AS j JOIN person_digests AS d ON d.id = j.value ORDER BY j.key) AS d) AS people
             FROM lookups AS l JOIN queries AS q ON q.id = l.query_id ORDER BY q.query`,
          )
          .raw()
          .all() as [number, ...unknown[]][];
        const candidates = getLookups(db, answers.map(([id]) => id), 0);
        return { rows: settledRows(engine, project.id), people, answers: answers.map(([id, ...answer]) => [...answer, candidates.get(id)?.candidates]) };
      } finally {
        db.close();
      }
    };
    const worker = await openEngine(join(tmp.dir, 'stored-worker'));
    const local = await openEngine(join(tmp.dir, 'stored-local'), { verdictWorker: false });
    try {
      const withWorker = await firstRun(worker, 'stored-worker');
      expect(withWorker.people.length).toBeGreaterThan(500);
      expect(withWorker.answers.every(([, status, , , , read]) => status === 'ok' && Array.isArray(read))).toBe(true);
      expect(withWorker).toEqual(await firstRun(local, 'stored-local'));
    } finally {
      await worker.close();
      await local.close();
    }
  });

  it("leaves its pages to the engine's thread when it fails, and the rows come out the same", async () => {
    const engine = await openEngine(join(tmp.dir, 'failing'));
    const failing = vi.spyOn(VerdictThread.prototype, 'verdicts').mockRejectedValue(new Error('the worker is gone'));
    const failingReads = vi.spyOn(VerdictThread.prototype, 'answers').mockRejectedValue(new Error('the worker is gone'));
    const failingCalls = vi.spyOn(VerdictThread.prototype, 'reply').mockRejectedValue(new Error('the worker is gone'));
    const local = await openEngine(join(tmp.dir, 'failing-local'), { verdictWorker: false });
    try {
      const { first, cached } = await cachedRerun(engine, 'failing');
      expect(failing).toHaveBeenCalled();
      expect(failingReads).toHaveBeenCalled();
      expect(failingCalls).toHaveBeenCalled();
      expect(cached).toEqual(first);
      expect(first).toEqual((await cachedRerun(local, 'failing-local')).first);
    } finally {
      await engine.close();
      await local.close();
    }
  });

  it('refuses one request its worker cannot work out, and every request once it is closed', async () => {
    const thread = VerdictThread.start()!;
    const context: VerdictContext = { mapping: { fullName: 0 }, rule: { enabled: true, minConfidence: 0.9, minLead: 0.3 }, at: '2026-01-02T03:04:05.000Z' };
    const facts = storedFacts(rankedFacts([{ rank: 1, score: null, person: { name: 'Jane Doe' } }]));
    try {
      // Rows' cells that are not a list throw in the worker: that request fails, with the worker's reason.
      await expect(thread.verdicts([{ strategy: 'name', facts, cells: 7 as never }], context)).rejects.toThrow(/The verdict worker failed: TypeError/);
      expect(thread.usable).toBe(true);
      const [values] = await thread.verdicts([{ strategy: 'name', facts, cells: [JSON.stringify(['Jane Doe'])] }], context);
      expect(values).toEqual(verdictsFor([JSON.stringify(['Jane Doe'])], 'name', rankedFacts([{ rank: 1, score: null, person: { name: 'Jane Doe' } }]), context));
      const pending = expect(thread.verdicts([{ strategy: 'name', facts, cells: [JSON.stringify(['Jane Doe'])] }], context)).rejects.toThrow('The engine closed.');
      await thread.close();
      await pending;
      expect(thread.usable).toBe(false);
      await expect(thread.verdicts([], context)).rejects.toThrow('The engine closed.');
    } finally {
      await thread.close();
    }
  });

  it('works out the same values as a row assessed alone, and nothing from facts that do not read', () => {
    const answer: Candidate[] = [
      { rank: 1, score: null, person: { name: 'Jane Doe', jobs: [{ company: { name: 'Globex' }, title: 'Engineer', started_at: '2020-01-01', ended_at: null }] } },
      { rank: 2, score: null, person: { name: 'Jane Doe', jobs: [{ company: { name: 'Initech' }, title: 'Engineer', started_at: '2019-01-01', ended_at: null }] } },
    ];
    const facts = rankedFacts(answer);
    const context: VerdictContext = { mapping: { fullName: 0, company: 1 }, rule: { enabled: true, minConfidence: 0.9, minLead: 0.3 }, at: '2026-01-02T03:04:05.000Z' };
    const cells = [JSON.stringify(['Jane Doe', 'Globex']), JSON.stringify(['Jane Doe', 'Globex']), JSON.stringify(['Jane Doe', 'Initech']), JSON.stringify(['Jane Doe', ''])];
    const expected = cells.map((c) => verdictsFor([c], 'name', facts, context)[0]);
    expect(jobVerdicts({ strategy: 'name', facts: storedFacts(facts), cells }, context)).toEqual(expected);
    // Other evidence, another verdict: the rows were not given one another's.
    expect(expected[0]).not.toEqual(expected[2]);
    expect(jobVerdicts({ strategy: 'name', facts: storedFacts([]), cells }, context)).toBeNull();
    expect(jobVerdicts({ strategy: 'name', facts: '{"v":2,"c":[{broken', cells }, context)).toBeNull();
  });
});
