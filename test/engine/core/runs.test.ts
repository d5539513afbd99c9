import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunProgress } from '../../../shared/contract';
import { runPercent } from '../../../shared/progress';
import type { Engine } from '../../../electron/engine/engine';
import { MATCH_COLUMNS } from '../../../electron/engine/runs/export-rows';
import type { Person, Simulator } from '../../../electron/simulator';
import { onJobDetail } from '../../support/job-events';
import { connect, currentCompany, findablePeople, ok, openEngine, runToEnd, startSim, tempDir, timesAsked, writeCsv } from './helpers';

let tmp: ReturnType<typeof tempDir>;
let sim: Simulator;
let engine: Engine;
let people: Person[];

beforeAll(async () => {
  tmp = tempDir();
  sim = await startSim();
  engine = await openEngine(join(tmp.dir, 'data'), { exportDir: join(tmp.dir, 'exports') });
  await connect(engine, sim);
  people = findablePeople(sim);
});
afterAll(async () => {
  await engine.close();
  await sim.close();
  tmp.remove();
});

const HEADERS = ['Name', 'Email', 'LinkedIn', 'Company'];

/** A mixed sheet: e-mails, profile links, name + company, people nobody knows, the waterfall, junk and repeats. */
function mixedRows(count: number, from: Person[]): string[][] {
  const rows: string[][] = [];
  for (let i = 0; rows.length < count; i++) {
    const p = from[i % from.length]!;
    switch (i % 6) {
      case 0:
        rows.push([p.name, p.email_address, '', currentCompany(p)]);
        break;
      case 1:
        rows.push(['', '', `https://www.linkedin.com/in/${p.linkedin}/`, '']);
        break;
      case 2:
        rows.push([p.name, '', '', currentCompany(p)]);
        break;
      case 3:
        rows.push([`Nobody Knows ${i % 40}`, `nobody${i % 40}@unknown.example`, '', '']);
        break;
      case 4:
        rows.push([p.name, `old-${i % 300}@gone.example`, '', currentCompany(p)]);
        break;
      default:
        rows.push(['n/a', '-', '', '']);
    }
  }
  return rows;
}

async function importRows(name: string, rows: string[][]) {
  const file = writeCsv(join(tmp.dir, `${name}.csv`), HEADERS, rows);
  return (await ok(engine, 'projects.import', { file })).summary;
}

function readCsv(path: string): string[][] {
  return Papa.parse<string[]>(readFileSync(path, 'utf8').replace(/^\uFEFF/, ''), { skipEmptyLines: true }).data;
}

describe('a matching run', () => {
  it('previews the cost: identical queries once, rows without a query, cache hits', async () => {
    const [a, b] = people;
    const rows = [
      [a!.name, a!.email_address, '', currentCompany(a!)],
      [a!.name, a!.email_address, '', currentCompany(a!)],
      ['', a!.email_address.toUpperCase(), '', ''],
      [b!.name, '', '', currentCompany(b!)],
      [b!.name, '', '', currentCompany(b!)],
      ['n/a', '', '', ''],
    ];
    const first = await importRows('preview', rows);
    const before = await ok(engine, 'run.preview', { projectId: first.id });
    expect(before).toEqual({
      rows: 6,
      blankRows: 0,
      rowsWithoutQuery: 1,
      distinctQueries: 2,
      cachedFresh: 0,
      toFetch: 2,
      calls: 1,
      estimatedSeconds: expect.any(Number),
      byStrategy: { email: 1, 'name+company': 1 },
      offline: false,
      creditsRemaining: null,
      creditsUpTo: 10,
    });
    const end = await runToEnd(engine, first.id);
    expect(end.status).toBe('done');
    expect(end.calls).toBe(1);

    const again = await importRows('preview-again', rows);
    const after = await ok(engine, 'run.preview', { projectId: again.id });
    expect(after).toMatchObject({ distinctQueries: 2, cachedFresh: 2, toFetch: 0, calls: 0 });

    // A TTL of zero days makes every answer stale.
    await ok(engine, 'settings.update', { cacheTtlDays: 0 });
    expect(await ok(engine, 'run.preview', { projectId: again.id })).toMatchObject({ cachedFresh: 0, toFetch: 2, calls: 1 });
    await ok(engine, 'settings.update', { cacheTtlDays: 30 });

    // Run, nothing waits; a row without a query skipped by hand is still one.
    await ok(engine, 'decisions.skip', { projectId: first.id, rowIndex: 5 });
    expect(await ok(engine, 'run.preview', { projectId: first.id })).toMatchObject({ rows: 6, rowsWithoutQuery: 1, distinctQueries: 0, toFetch: 0, calls: 0 });

    // A few rows left waiting among many settled (an offline run found no answer for them): counted through the state
    // index, as many waiting are through the query index.
    const c = people[2]!;
    const mostly = await importRows('preview-mostly-run', [...rows, ...rows, ...rows, ...rows, [c.name, c.email_address, '', currentCompany(c)]]);
    expect((await runToEnd(engine, mostly.id, true)).status).toBe('done');
    expect(await ok(engine, 'run.preview', { projectId: mostly.id })).toMatchObject({
      rows: 25,
      rowsWithoutQuery: 4,
      distinctQueries: 1,
      cachedFresh: 0,
      toFetch: 1,
      calls: 1,
      byStrategy: { email: 1 },
    });
  });

  it('keeps blank rows at their place: never planned or asked, not reviewed, counted apart, exported blank where they were', async () => {
    const [a, b, c] = people;
    const line = (p: Person) => `${p.name},${p.email_address},,${currentCompany(p)}`;
    // The sheet's rows 2 to 7: a, an empty line, a row of empty cells, b, a row of spaces, c; then a trailing blank line.
    const file = join(tmp.dir, 'blank-rows.csv');
    writeFileSync(file, `${HEADERS.join(',')}\r\n${line(a!)}\r\n\r\n,,,\n${line(b!)}\r  \r\n${line(c!)}\n\n`);
    const detail = await ok(engine, 'projects.import', { file });
    const projectId = detail.summary.id;
    expect(detail.summary).toMatchObject({ rowCount: 3, blankRows: 3, counts: { pending: 3 } });
    expect(detail.warnings.map((w) => w.code)).toEqual(['blank_rows_kept']);
    expect(await ok(engine, 'run.preview', { projectId })).toMatchObject({ rows: 3, blankRows: 3, rowsWithoutQuery: 0, distinctQueries: 3, byStrategy: { email: 3 } });

    const end = await runToEnd(engine, projectId);
    expect(end).toMatchObject({ status: 'done', rowsTotal: 3, rowsResolved: 3, queriesTotal: 3 });
    const page = await ok(engine, 'review.page', { projectId, offset: 0, limit: 50 });
    expect(page.total).toBe(3);
    expect(Object.values(page.counts).reduce((n, k) => n + k, 0)).toBe(3);
    expect(page.rows.map((r) => [r.rowIndex, r.rowNumber, r.label])).toEqual([
      [0, 2, a!.name],
      [3, 5, b!.name],
      [5, 7, c!.name],
    ]);
    expect(await engine.call('review.row', { projectId, rowIndex: 1 })).toMatchObject({
      ok: false,
      error: { kind: 'not_found', message: `Row 3 of "blank-rows" is blank: it keeps its place in the sheet, with nothing to look up.` },
    });

    const out = join(tmp.dir, 'blank-rows-out.csv');
    await ok(engine, 'export.run', { projectId, format: 'csv', scope: 'all', destination: out, bom: false });
    const exported = readCsv(out);
    const status = exported[0]!.indexOf('match_status');
    expect(exported.map((r) => r[0])).toEqual(['Name', a!.name, '', '', b!.name, '', c!.name]);
    expect(exported.map((r) => r[status] === 'blank')).toEqual([false, false, true, true, false, true, false]);
  });

  it('matches 10,000 mixed rows asking each identical query once; a second run sends nothing and exports the same', async () => {
    const rows = mixedRows(10_000, people.slice(0, 1500));
    const project = await importRows('ten-thousand', rows);
    sim.resetCounters();
    const progress: RunProgress[] = [];
    const off = onJobDetail(engine, 'run', (p) => progress.push(p), project.id);

    const preview = await ok(engine, 'run.preview', { projectId: project.id });
    const started = Date.now();
    const end = await runToEnd(engine, project.id);
    off();
    expect(end.status).toBe('done');
    expect(end.errors).toBe(0);
    expect(end.rowsResolved).toBe(10_000);

    const asked = timesAsked(sim);
    expect(asked.every((n) => n === 1)).toBe(true);
    expect(sim.counters().queries).toBe(asked.length);
    expect(end.calls).toBe(sim.counters().findCalls);
    // The first round asks what the preview said; later rounds add the waterfall's next steps.
    expect(asked.length).toBeGreaterThan(preview.toFetch);
    expect(end.calls).toBeLessThanOrEqual(Math.ceil(asked.length / 100) + 3);
    // Events: a few, not one per row; the last says done.
    expect(progress.length).toBeGreaterThan(1);
    expect(progress.length).toBeLessThan(((Date.now() - started) / 1000) * 12 + 20);
    expect(progress.at(-1)!.status).toBe('done');

    const summary = (await ok(engine, 'projects.list')).find((p) => p.id === project.id)!;
    expect(summary.counts.pending).toBe(0);
    expect(summary.counts.no_query).toBe(rows.filter((r) => r[0] === 'n/a').length);
    expect(summary.counts.no_candidates).toBeGreaterThan(0);
    expect(summary.matched).toBeGreaterThan(3000);

    // Running the finished project again sends nothing.
    const findCalls = sim.counters().findCalls;
    const rerun = await runToEnd(engine, project.id);
    expect(rerun.status).toBe('done');
    expect(rerun.calls).toBe(0);

    // The same file imported again: every query is a fresh cache hit.
    const copy = await importRows('ten-thousand-again', rows);
    const second = await runToEnd(engine, copy.id);
    expect(second.status).toBe('done');
    expect(second.calls).toBe(0);
    expect(second.cacheHits).toBeGreaterThan(0);
    expect(sim.counters().findCalls).toBe(findCalls);

    const one = await ok(engine, 'export.run', { projectId: project.id, format: 'csv', scope: 'all' });
    const two = await ok(engine, 'export.run', { projectId: copy.id, format: 'csv', scope: 'all' });
    expect(one.rows).toBe(10_000);
    const decidedAt = HEADERS.length + MATCH_COLUMNS.indexOf('match_decided_at');
    const strip = (table: string[][]) => table.map((r) => r.filter((_, i) => i !== decidedAt));
    expect(strip(readCsv(two.path!))).toEqual(strip(readCsv(one.path!)));
  });

  it('moves a row to its next query when the first finds nobody (the waterfall)', async () => {
    const p = people[1600]!;
    const project = await importRows('waterfall', [[p.name, 'never-seen@nowhere.example', '', currentCompany(p)]]);
    const end = await runToEnd(engine, project.id);
    expect(end.status).toBe('done');
    const row = await ok(engine, 'review.row', { projectId: project.id, rowIndex: 0 });
    expect(row.strategy).toBe('name+company');
    expect(['to_review', 'auto']).toContain(row.state);
    expect(row.candidates[0]!.personId).toBe(p.id);
    // The e-mail found nobody; its domain is no employer of the person (a little against); name and employer agree.
    expect(row.candidates[0]!.evidence.map((e) => [e.field, e.mark])).toEqual([
      ['name', 'same'],
      ['company', 'same'],
      ['emailDomain', 'differs'],
    ]);
    // The simulator, like the real service, sends no scores unless asked.
    expect(row.scored).toBe(false);
    expect(row.fetchedAt).not.toBeNull();
  });

  it("shows a run's progress without stepping back when a later round adds its queries", async () => {
    // Half the rows ask an e-mail nobody has first, then name + company: their second steps add 300 queries to the 600
    // of the first. One call at a time, each 150 ms, so the events (at most ten a second) see both rounds. The people
    // are from the end of the list, which the other tests do not ask for: nothing is cached.
    const rows: string[][] = [];
    for (let i = 0; i < 300; i++) {
      const known = people.at(-1 - i)!;
      const moved = people.at(-301 - i)!;
      rows.push([known.name, known.email_address, '', '']);
      rows.push([moved.name, `left-${i}@nowhere.example`, '', currentCompany(moved)]);
    }
    const project = await importRows('two-rounds', rows);
    const progress: RunProgress[] = [];
    const off = onJobDetail(engine, 'run', (p) => progress.push(p), project.id);
    await ok(engine, 'settings.update', { concurrency: 1 });
    sim.setLatency(150);
    try {
      expect(await runToEnd(engine, project.id)).toMatchObject({ status: 'done', errors: 0, rowsResolved: 600, cacheHits: 0 });
    } finally {
      sim.setLatency(0);
      await ok(engine, 'settings.update', { concurrency: 4 });
      off();
    }
    // The lookups' total grows as rows that found nobody move on and their next queries join it...
    const totals = progress.filter((p) => p.queriesTotal > 0).map((p) => p.queriesTotal);
    expect(totals.some((total, i) => i > 0 && total > totals[i - 1]!)).toBe(true);
    expect(totals.at(-1)).toBe(900);
    // ...the bar, which counts rows settled, only moves forward, and is full at the end.
    const shown = progress.map(runPercent);
    expect(shown).toEqual([...shown].sort((a, b) => a - b));
    expect(new Set(shown).size).toBeGreaterThan(3);
    expect(shown.at(-1)).toBe(100);
  });

  it('offline answers from the cache alone and marks the rest not fetched; a later online run fetches them', async () => {
    const known = people[0]!; // asked by the runs above
    const fresh = people[1700]!;
    const project = await importRows('offline', [
      [known.name, known.email_address, '', currentCompany(known)],
      [fresh.name, fresh.email_address, '', currentCompany(fresh)],
    ]);
    const preview = await ok(engine, 'run.preview', { projectId: project.id, offline: true });
    expect(preview).toMatchObject({ offline: true, distinctQueries: 2, cachedFresh: 1, toFetch: 0, calls: 0 });

    const findCalls = sim.counters().findCalls;
    const end = await runToEnd(engine, project.id, true);
    expect(end).toMatchObject({ status: 'done', offline: true, calls: 0, cacheHits: 1 });
    expect(sim.counters().findCalls).toBe(findCalls);
    const page = await ok(engine, 'review.page', { projectId: project.id, offset: 0, limit: 10 });
    expect(page.rows.map((r) => r.state)).toEqual(['auto', 'offline']);
    expect(page.counts.offline).toBe(1);

    const online = await runToEnd(engine, project.id);
    expect(online).toMatchObject({ status: 'done', calls: 1 });
    const after = await ok(engine, 'review.page', { projectId: project.id, offset: 0, limit: 10 });
    expect(after.rows.map((r) => r.state)).toEqual(['auto', 'auto']);
  });

  it('refuses to run without a connection, with a message saying what to do', async () => {
    const project = await importRows('no-profile', [['A B', 'a@b.example', '', '']]);
    const settings = await ok(engine, 'settings.get');
    await ok(engine, 'profiles.select', { id: null });
    const result = await engine.call('run.start', { projectId: project.id });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.message).toMatch(/No connection is selected/);
    await ok(engine, 'profiles.select', { id: settings.activeProfileId });
  });
});
