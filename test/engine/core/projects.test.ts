import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import ExcelJS from 'exceljs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ImportProgress, JobState, PlanProgress, RunPreview } from '../../../shared/contract';
import type { Engine } from '../../../electron/engine/engine';
import { systemClock } from '../../../electron/engine/clock';
import { writeTable } from '../../../electron/engine/export';
import { importProject } from '../../../electron/engine/projects/import-project';
import { openDatabase } from '../../../electron/engine/store';
import { detailOf } from '../../../shared/job-detail';
import { onJobDetail } from '../../support/job-events';
import { eventually, fails, ok, openEngine, tempDir, writeCsv } from './helpers';

let tmp: ReturnType<typeof tempDir>;
let engine: Engine;

beforeEach(async () => {
  tmp = tempDir();
  engine = await openEngine(join(tmp.dir, 'data'));
});
afterEach(async () => {
  await engine.close();
  tmp.remove();
});

/** What a mapping screen opened meanwhile finds of the project's plan (job.list): its job's detail, or null. */
async function planUnderWay(projectId: number): Promise<PlanProgress | null> {
  return (await ok(engine, 'job.list', { projectId })).map((job) => detailOf(job, 'plan')).find((detail) => detail !== null) ?? null;
}

describe('importing a sheet', () => {
  it('keeps rows in file order with their cells exactly, and becomes a ready project', async () => {
    const rows = [
      ['Jane Doe', 'JANE@Example.com ', 'Acme, Inc.', 'said "hi"\nline two'],
      ['  spaced  ', '', '', '=1+2'],
      ['Zoë Ångström', 'zoe@example.org', 'Über GmbH', '🙂'],
      ['back\\slash "quoted" \t tab', 'a/b <c> &amp;', '\u2028\u2029\u00a0\u200b', '\u0001\u001f\u007f'],
      ...Array.from({ length: 5200 }, (_, i) => [`Person ${i}`, `p${i}@example.com`, `Company ${i % 7}`, String(i)]),
    ];
    const file = writeCsv(join(tmp.dir, 'people.csv'), ['Name', 'Email', 'Company', 'Notes'], rows);
    const progress: number[] = [];
    // What the import said as it read (its job's start, before any row, and its end are left out).
    onJobDetail(engine, 'import', (p, job) => p.rowsRead > 0 && job.state === 'running' && progress.push(p.rowsRead));

    const detail = await ok(engine, 'projects.import', { file });
    expect(detail.summary.name).toBe('people');
    expect(detail.summary.sourceName).toBe('people.csv');
    expect(detail.summary.rowCount).toBe(rows.length);
    expect(detail.headers).toEqual(['Name', 'Email', 'Company', 'Notes']);
    expect(detail.format).toBe('csv');
    expect(detail.sample.slice(0, 3)).toEqual(rows.slice(0, 3));
    expect(progress.at(-1)).toBe(rows.length);
    expect(progress.length).toBeGreaterThan(1);
    // Nothing is planned at import (the user confirms the mapping first): every row waits, none is looked up.
    expect(detail.summary.counts.pending).toBe(rows.length);
    expect(detail.summary.counts.no_query).toBe(0);

    // Every cell, in order, straight from SQLite; no plan and no row status yet.
    const db = new Database(engine.dbPath, { readonly: true });
    const stored = db.prepare('SELECT row_index, cells FROM rows WHERE project_id = ? ORDER BY row_index').all(detail.summary.id) as { row_index: number; cells: string }[];
    expect(stored.map((r) => r.row_index)).toEqual(rows.map((_, i) => i));
    expect(stored.map((r) => JSON.parse(r.cells))).toEqual(rows);
    // Stored as the very text JSON.stringify makes of the row: the review's text filter searches that text.
    expect(stored.map((r) => r.cells)).toEqual(rows.map((r) => JSON.stringify(r)));
    expect(db.prepare('SELECT plan_scope FROM projects WHERE id = ?').pluck().get(detail.summary.id)).toBeNull();
    expect(db.prepare('SELECT count(*) FROM row_status').pluck().get()).toBe(0);
    expect(db.prepare('SELECT count(*) FROM row_queries').pluck().get()).toBe(0);

    const listed = await ok(engine, 'projects.list');
    expect(listed.map((p) => p.id)).toEqual([detail.summary.id]);
    expect(listed[0]!.counts).toEqual(detail.summary.counts);

    // Saving the mapping plans every row: "spaced" alone (no company, no e-mail) has nothing to ask, nor has the
    // row of odd characters (its e-mail is invalid and its company only spaces).
    const saved = await ok(engine, 'mapping.save', { projectId: detail.summary.id, mapping: detail.mapping, strategies: detail.strategies });
    expect(saved.summary.counts.pending).toBe(rows.length - 2);
    expect(saved.summary.counts.no_query).toBe(2);
    expect(db.prepare('SELECT count(*) FROM row_status').pluck().get()).toBe(rows.length);
    expect(db.prepare('SELECT plan_scope FROM projects WHERE id = ?').pluck().get(detail.summary.id)).not.toBeNull();
    db.close();
  });

  it('plans a project on first use when its mapping was never saved: review, preview and export see every row', async () => {
    const file = writeCsv(join(tmp.dir, 'fresh.csv'), ['Name', 'Email', 'Company'], [
      ['Jane Doe', 'jane@acme.com', 'Acme'],
      ['No Mail', '', 'Acme'],
      ['n/a', '', '-'],
    ]);
    const fresh = async () => (await ok(engine, 'projects.import', { file })).summary.id;
    const planScope = (id: number) => {
      const db = new Database(engine.dbPath, { readonly: true });
      try {
        return db.prepare('SELECT plan_scope FROM projects WHERE id = ?').pluck().get(id);
      } finally {
        db.close();
      }
    };

    const reviewed = await fresh();
    expect(planScope(reviewed)).toBeNull();
    const page = await ok(engine, 'review.page', { projectId: reviewed, offset: 0, limit: 10 });
    expect(page.total).toBe(3);
    expect(page.rows.map((r) => [r.label, r.state])).toEqual([['Jane Doe', 'pending'], ['No Mail', 'pending'], ['n/a', 'no_query']]);
    expect(planScope(reviewed)).not.toBeNull();
    expect((await ok(engine, 'review.row', { projectId: reviewed, rowIndex: 1 })).input).toMatchObject({ name: 'No Mail', company: 'Acme' });

    const previewed = await fresh();
    const preview = await ok(engine, 'run.preview', { projectId: previewed, offline: true });
    expect(preview).toMatchObject({ rows: 3, rowsWithoutQuery: 1, distinctQueries: 2 });

    const exported = await fresh();
    const out = join(tmp.dir, 'fresh-out.csv');
    expect((await ok(engine, 'export.run', { projectId: exported, format: 'csv', scope: 'all', destination: out, bom: false })).rows).toBe(3);
    expect(readFileSync(out, 'utf8').split(/\r?\n/).slice(1, 4).map((line) => line.split(',').slice(0, 4))).toEqual([
      ['Jane Doe', 'jane@acme.com', 'Acme', 'pending'],
      ['No Mail', '', 'Acme', 'pending'],
      ['n/a', '', "'-", 'no_query'],
    ]);

    expect((await ok(engine, 'projects.list')).map((p) => [p.id, p.counts.pending, p.counts.no_query])).toEqual(
      expect.arrayContaining([
        [reviewed, 2, 1],
        [previewed, 2, 1],
        [exported, 2, 1],
      ]),
    );
  });

  it('plans rows with any characters in them: labels and queries read back as they were', async () => {
    const names = ['Zoë "Z" O\'Brien \\ 🙂', 'Line\u2028sep', '=1+2', '  spaced\tname  ', '{"fields":[]}', '\u00e9t\u00e9 \ufffd'];
    const file = writeCsv(join(tmp.dir, 'odd.csv'), ['Name', 'Company'], names.map((n) => [n, 'Acme']));
    const { summary, mapping, strategies } = await ok(engine, 'projects.import', { file });
    await ok(engine, 'mapping.save', { projectId: summary.id, mapping, strategies });
    const page = await ok(engine, 'review.page', { projectId: summary.id, offset: 0, limit: 10 });
    const expected = names.map((n) => n.replace(/\s+/gu, ' ').trim());
    expect(page.rows.map((r) => r.label)).toEqual(expected);
    const detail = await ok(engine, 'review.row', { projectId: summary.id, rowIndex: 0 });
    expect(detail.input.name).toBe(expected[0]);
    const preview = await ok(engine, 'run.preview', { projectId: summary.id, offline: true });
    expect(preview.distinctQueries).toBe(names.length);
  });

  it('says how far planning is while a mapping is saved, from none of the rows to all of them', async () => {
    // Three of the plan's pages of 10,000 rows: the first is told at once, and one is under way after it.
    const ROWS = 30_000;
    const rows = Array.from({ length: ROWS }, (_, i) => [`Person ${i}`, `person${i}@example.com`, `Company ${i % 300}`]);
    const project = (await ok(engine, 'projects.import', { file: writeCsv(join(tmp.dir, 'plan.csv'), ['Name', 'Email', 'Company'], rows) })).summary;
    const events: PlanProgress[] = [];
    // What a mapping screen opened part-way through would be told: the save's last word, then nothing once it has ended.
    const underWay: Promise<PlanProgress | null>[] = [];
    const off = onJobDetail(
      engine,
      'plan',
      (p) => {
        events.push(p);
        if (p.rowsPlanned > 0 && p.rowsPlanned < p.rowsTotal && underWay.length === 0) underWay.push(planUnderWay(project.id));
      },
      project.id,
    );
    expect(await planUnderWay(project.id)).toBeNull();
    try {
      await ok(engine, 'mapping.save', { projectId: project.id, mapping: { fullName: 0, email: 1, company: 2 }, strategies: ['email', 'name+company'] });
    } finally {
      off();
    }
    expect(underWay).toHaveLength(1);
    const partWay = (await underWay[0])!;
    expect(partWay).toMatchObject({ projectId: project.id, rowsTotal: ROWS });
    expect(partWay.rowsPlanned).toBeGreaterThan(0);
    expect(await planUnderWay(project.id)).toBeNull();
    const planned = events.map((e) => e.rowsPlanned);
    expect(events.every((e) => e.rowsTotal === ROWS)).toBe(true);
    // The start, the first page of 10,000 rows at once, a few more at most four a second, and the end.
    expect(planned[0]).toBe(0);
    expect(planned[1]).toBe(10_000);
    expect(planned.at(-1)).toBe(ROWS);
    expect(planned).toEqual([...planned].sort((a, b) => a - b));
  });

  it('counts the cost asked for while a mapping is being saved once that plan is made, instead of refusing', async () => {
    // Two of the plan's pages: the cost is asked for as the plan starts.
    const ROWS = 20_000;
    const rows = Array.from({ length: ROWS }, (_, i) => [`Person ${i}`, `person${i}@example.com`, `Company ${i % 300}`]);
    const project = (await ok(engine, 'projects.import', { file: writeCsv(join(tmp.dir, 'wait.csv'), ['Name', 'Email', 'Company'], rows) })).summary;
    let preview: Promise<RunPreview> | null = null;
    // The run screen asks for the cost as the mapping screen's Continue plans (a screen reloaded, a second window).
    const off = onJobDetail(
      engine,
      'plan',
      () => {
        if (preview === null) preview = ok(engine, 'run.preview', { projectId: project.id, offline: true });
      },
      project.id,
    );
    try {
      await ok(engine, 'mapping.save', { projectId: project.id, mapping: { fullName: 0, email: 1, company: 2 }, strategies: ['name+company'] });
    } finally {
      off();
    }
    expect(preview).not.toBeNull();
    // Counted with the mapping just saved: every row by name and company, none by e-mail.
    expect(await preview!).toMatchObject({ rows: ROWS, rowsWithoutQuery: 0, byStrategy: { 'name+company': ROWS } });
  });

  it('says how far through the file an import is, a few times a second: a CSV and an xlsx with or without its dimension', async () => {
    // Some of the import's batches of 2,500 rows: the first is told at once, part-way.
    const ROWS = 20_000;
    const rows = Array.from({ length: ROWS }, (_, i) => [`Person ${i}`, `p${i}@example.com`, `Company ${i % 300}`]);
    const headers = ['Name', 'Email', 'Company'];
    const csv = writeCsv(join(tmp.dir, 'progress.csv'), headers, rows);
    // exceljs' streaming writer (as Matchdesk's own export) leaves the worksheet's dimension out; Excel writes it.
    const streamed = join(tmp.dir, 'streamed.xlsx');
    await writeTable({ path: streamed, format: 'xlsx' }, headers, rows);
    const dimensioned = join(tmp.dir, 'dimensioned.xlsx');
    const book = new ExcelJS.Workbook();
    book.addWorksheet('People').addRows([headers, ...rows]);
    await book.xlsx.writeFile(dimensioned);

    for (const file of [csv, streamed, dimensioned]) {
      const told: { progress: ImportProgress; state: JobState }[] = [];
      const off = onJobDetail(engine, 'import', (p, job) => p.file === file && told.push({ progress: p, state: job.state }));
      const started = performance.now();
      try {
        await ok(engine, 'projects.import', { file });
      } finally {
        off();
      }
      const seconds = (performance.now() - started) / 1000;
      // Its job's start says nothing read yet, and its end that every row is in; what it said as it read is between.
      expect(told[0]!.progress, file).toMatchObject({ rowsRead: 0, percent: 0 });
      expect(told.at(-1), file).toMatchObject({ progress: { rowsRead: ROWS, percent: 100 }, state: 'done' });
      const events = told.slice(1, -1).map((t) => t.progress);
      const percents = events.map((e) => e.percent);
      expect(percents.at(-1), file).toBe(100);
      expect(events.at(-1)!.rowsRead).toBe(ROWS);
      expect(percents, file).toEqual([...percents].sort((a, b) => a - b));
      // Part-way: the first batch's share, neither nothing nor all of it; then never more than four a second and the end.
      expect(percents[0], file).toBeGreaterThan(0);
      expect(percents[0], file).toBeLessThan(100);
      expect(events.length).toBeLessThanOrEqual(seconds * 4 + 2);
    }
  });

  it('detects the mapping and defaults the strategies', async () => {
    const file = writeCsv(join(tmp.dir, 'crm.csv'), ['First', 'Surname', 'Work Email', 'LinkedIn URL', 'Employer'], [
      ['Jane', 'Doe', 'jane@acme.com', 'https://www.linkedin.com/in/jane-doe/', 'Acme'],
      ['John', 'Roe', 'john@roe.org', 'linkedin.com/in/john-roe', 'Roe Ltd'],
    ]);
    const detail = await ok(engine, 'projects.import', { file, name: 'My CRM' });
    expect(detail.summary.name).toBe('My CRM');
    expect(detail.mapping).toEqual({ firstName: 0, lastName: 1, email: 2, profile: 3, company: 4 });
    expect(detail.strategies).toEqual(['email', 'social', 'name+company']);
    expect(detail.guesses.length).toBeGreaterThanOrEqual(5);
  });

  it('leaves no project behind when the file cannot be imported, and says why', async () => {
    const headerOnly = join(tmp.dir, 'header-only.csv');
    writeFileSync(headerOnly, 'Name,Email\r\n');
    const png = join(tmp.dir, 'photo.csv');
    writeFileSync(png, Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex'));
    const empty = join(tmp.dir, 'empty.csv');
    writeFileSync(empty, '');

    for (const file of [headerOnly, png, empty]) {
      const error = await fails(engine, 'projects.import', { file });
      expect(error.kind).toBe('sheet');
      expect(error.code).toBeTruthy();
      expect(error.message).toContain(file.split('/').pop()!);
    }
    const missing = await fails(engine, 'projects.import', { file: join(tmp.dir, 'nope.csv') });
    expect(missing.kind).toBe('sheet');

    expect(await ok(engine, 'projects.list')).toEqual([]);
    const db = new Database(engine.dbPath, { readonly: true });
    expect(db.prepare('SELECT count(*) FROM projects').pluck().get()).toBe(0);
    expect(db.prepare('SELECT count(*) FROM rows').pluck().get()).toBe(0);
    db.close();
  });

  it('refuses a CSV over the row limit before storing a row, saying how many rows it has', async () => {
    // Excel's sheet less its header, the limit of every sheet: one row more than that.
    const file = join(tmp.dir, 'huge.csv');
    writeFileSync(file, `Email\n${'a@b.c\n'.repeat(1_048_576)}`);
    const error = await fails(engine, 'projects.import', { file });
    expect(error).toMatchObject({ kind: 'sheet', code: 'too_many_rows' });
    expect(error.message).toBe(
      "“huge.csv” has 1,048,576 rows below its header; Matchdesk takes at most 1,048,575 rows a sheet (an Excel sheet's 1,048,576 rows less the header row). " +
        'Split it into sheets of at most 1,048,575 rows and import each. Nothing was imported.',
    );
    expect(await ok(engine, 'projects.list')).toEqual([]);
    const db = new Database(engine.dbPath, { readonly: true });
    expect(db.prepare('SELECT count(*) FROM rows').pluck().get()).toBe(0);
    db.close();
  });

  it('refuses an xlsx that says nothing of its size at the first row past the limit, counts on, and leaves nothing', async () => {
    // exceljs' streaming writer leaves the <dimension> element out, so the rows are only known by reading them.
    const file = join(tmp.dir, 'streamed.xlsx');
    await writeTable({ path: file, format: 'xlsx' }, ['Name'], [['A'], ['B'], ['C'], ['D']]);
    const db = openDatabase(join(tmp.dir, 'direct.sqlite'));
    try {
      const error = await importProject(db, systemClock, { file }, () => undefined, { maxRows: 2 }).catch((e: unknown) => e);
      expect(error).toMatchObject({ code: 'too_many_rows', message: expect.stringMatching(/^The sheet “Sheet1” in “streamed\.xlsx” has 4 rows below its header; Matchdesk takes at most 2 rows a sheet\./) });
      expect(db.prepare('SELECT count(*) FROM projects').pluck().get()).toBe(0);
      expect(db.prepare('SELECT count(*) FROM rows').pluck().get()).toBe(0);
      expect(await importProject(db, systemClock, { file }, () => undefined, { maxRows: 4 })).toBeGreaterThan(0);
    } finally {
      db.close();
    }
  });

  it('renames and deletes a project with everything that belongs to it (removed in the background: project-cleanup.test.ts)', async () => {
    const file = writeCsv(join(tmp.dir, 'a.csv'), ['Name', 'Email'], [['A', 'a@example.com']]);
    const { summary } = await ok(engine, 'projects.import', { file });
    const renamed = await ok(engine, 'projects.rename', { projectId: summary.id, name: '  Leads 2026 ' });
    expect(renamed.name).toBe('Leads 2026');

    await ok(engine, 'projects.delete', { projectId: summary.id });
    expect(await ok(engine, 'projects.list')).toEqual([]);
    expect((await fails(engine, 'projects.get', { projectId: summary.id })).kind).toBe('not_found');
    const db = new Database(engine.dbPath, { readonly: true });
    const left = () => ['rows', 'row_status', 'row_queries', 'decision_log', 'runs'].reduce((n, table) => n + (db.prepare(`SELECT count(*) FROM ${table}`).pluck().get() as number), 0);
    await eventually(() => left() === 0);
    db.close();
  });

  it('refuses input the contract does not allow', async () => {
    expect((await fails(engine, 'projects.get', { projectId: -1 })).kind).toBe('invalid_input');
    expect((await fails(engine, 'nope.call' as never, {})).kind).toBe('invalid_input');
    expect((await fails(engine, 'projects.get', { projectId: 999 })).kind).toBe('not_found');
  });
});

describe('mapping', () => {
  it('previews normalized samples, unusable rows and problems by kind', async () => {
    const file = writeCsv(join(tmp.dir, 'm.csv'), ['Name', 'Email', 'Profile'], [
      ['Jane Doe', ' JANE@ACME.COM ', 'https://www.linkedin.com/in/Jane-Doe/'],
      ['', 'not-an-email', 'https://www.linkedin.com/company/acme'],
      ['Solo', '', ''],
      ['Bob', 'bob@x.io', 'bob-smith'],
    ]);
    const { summary } = await ok(engine, 'projects.import', { file });
    const preview = await ok(engine, 'mapping.preview', { projectId: summary.id, mapping: { fullName: 0, email: 1, profile: 2 }, strategies: ['email', 'social'] });
    expect(preview.fields.email.header).toBe('Email');
    expect(preview.fields.email.samples[0]).toEqual({ raw: ' JANE@ACME.COM ', normalized: 'jane@acme.com', problem: null });
    expect(preview.fields.email.samples[1]!.problem).toMatch(/invalid e-mail/);
    expect(preview.fields.profile.samples[0]!.normalized).toBe('jane-doe');
    expect(preview.fields.company.column).toBeNull();
    expect(preview.unusableRows).toBe(2);
    expect(preview.problems.map((p) => p.count)).toEqual([1, 1]);
  });

  it('shows the rows each warning counts, by their number in the sheet, and how many of the unusable ones "Name alone" would look up', async () => {
    const rows = Array.from({ length: 60 }, (_, i) => (i % 2 === 0 ? [`Person ${i}`, i % 4 === 0 ? `bad-${i}` : '', ''] : ['', `p${i}@acme.com`, 'Acme']));
    const { summary } = await ok(engine, 'projects.import', { file: writeCsv(join(tmp.dir, 'warned.csv'), ['Name', 'Email', 'Company'], rows) });
    const request = { projectId: summary.id, mapping: { fullName: 0, email: 1, company: 2 } };
    const preview = await ok(engine, 'mapping.preview', { ...request, strategies: ['email', 'name+company'] });
    // Even rows have a name and no company (nothing to ask by these strategies); every fourth an e-mail that is not one.
    expect(preview.unusableRows).toBe(30);
    expect(preview.unusableByName).toBe(30);
    expect(preview.unusableExamples).toHaveLength(20);
    // Row numbers as the sheet numbers them: its header is row 1.
    expect(preview.unusableExamples.slice(0, 2)).toEqual([
      { rowNumber: 2, cells: ['Person 0', 'bad-0', ''] },
      { rowNumber: 4, cells: ['Person 2', '', ''] },
    ]);
    const invalid = preview.problems.find((p) => /not valid e-mail/.test(p.message))!;
    expect(invalid.count).toBe(15);
    expect(invalid.examples.map((r) => r.rowNumber)).toEqual(Array.from({ length: 15 }, (_, i) => 2 + i * 4));

    // With "Name alone" chosen there is nothing more it would cover; with names gone, nothing it could.
    expect((await ok(engine, 'mapping.preview', { ...request, strategies: ['email', 'name'] })).unusableByName).toBeNull();
    expect((await ok(engine, 'mapping.preview', { projectId: summary.id, mapping: { email: 1, company: 2 }, strategies: ['email'] })).unusableByName).toBe(0);
  });

  it("lets a preview go when a newer one of the same project is asked for from the same screen, so the last answers in its own time; another screen's goes on", async () => {
    const rows = Array.from({ length: 12_000 }, (_, i) => [`Person ${i}`, i % 3 === 0 ? 'not-an-email' : `p${i}@acme.com`]);
    const { summary } = await ok(engine, 'projects.import', { file: writeCsv(join(tmp.dir, 'big.csv'), ['Name', 'Email'], rows) });
    const other = await ok(engine, 'projects.import', { file: writeCsv(join(tmp.dir, 'other.csv'), ['Name', 'Email'], rows.slice(0, 6_000)) });
    const ask = (projectId: number, email: number | undefined) =>
      engine.call('mapping.preview', { projectId, mapping: { fullName: 0, ...(email === undefined ? {} : { email }) }, strategies: ['email'] });
    // Asked one after another before any answers: the first of the project is let go; another project's goes on.
    const [first, otherProject, last] = await Promise.all([ask(summary.id, undefined), ask(other.summary.id, 1), ask(summary.id, 1)]);
    expect(first.ok ? null : first.error).toMatchObject({ kind: 'cancelled', message: expect.stringMatching(/newer mapping/) });
    expect(otherProject.ok && otherProject.value.unusableRows).toBe(2_000);
    expect(last.ok && last.value.unusableRows).toBe(4_000);
    // One asked alone answers.
    expect((await ok(engine, 'mapping.preview', { projectId: summary.id, mapping: { fullName: 0 }, strategies: ['email'] })).unusableRows).toBe(12_000);

    // Two screens of the project (two windows): each one's newer preview lets its own older one go, not the other's.
    // (Mappings not previewed yet: a preview made before answers at once, below.)
    const fromScreen = (screen: string, email: number | undefined) =>
      engine.call('mapping.preview', { projectId: summary.id, mapping: { fullName: 0, ...(email === undefined ? {} : { email }) }, strategies: ['email', 'name'], screen });
    const [leftOld, right, leftNew] = await Promise.all([fromScreen('left', undefined), fromScreen('right', undefined), fromScreen('left', 1)]);
    expect(leftOld.ok ? null : leftOld.error).toMatchObject({ kind: 'cancelled' });
    expect(right.ok && right.value.unusableRows).toBe(0);
    expect(leftNew.ok && leftNew.value.unusableRows).toBe(0);
  });

  it('answers a mapping previewed before at once, and gives the first rows alone while the whole sheet is checked', async () => {
    const rows = Array.from({ length: 12_000 }, (_, i) => [`Person ${i}`, i % 3 === 0 ? 'not-an-email' : `p${i}@acme.com`]);
    const { summary } = await ok(engine, 'projects.import', { file: writeCsv(join(tmp.dir, 'kept.csv'), ['Name', 'Email'], rows) });
    const request = { projectId: summary.id, mapping: { fullName: 0, email: 1 }, strategies: ['email' as const] };
    const whole = await ok(engine, 'mapping.preview', request);
    expect(whole).toMatchObject({ rowsChecked: 12_000, unusableRows: 4_000, problems: [{ count: 4_000 }] });

    // The first rows only: their samples are the whole preview's, their counts theirs.
    const first = await ok(engine, 'mapping.preview', { ...request, firstRows: 300 });
    expect(first).toMatchObject({ rowsChecked: 300, unusableRows: 100, problems: [{ count: 100 }] });
    expect(first.fields).toEqual(whole.fields);

    // Asked again (the screen opened again, or a column chosen back), the whole preview is not made again: a sheet's
    // rows never change once imported. Made again, it would read them (the statement is prepared anew each time).
    const prepared: string[] = [];
    const db = (engine as unknown as { db: Database.Database }).db;
    const prepare = db.prepare.bind(db);
    db.prepare = ((sql: string) => (prepared.push(sql), prepare(sql))) as typeof db.prepare;
    try {
      expect(await ok(engine, 'mapping.preview', { ...request, screen: 'another' })).toEqual(whole);
      expect(prepared.filter((sql) => sql.includes('FROM rows'))).toEqual([]);
      await ok(engine, 'mapping.preview', { ...request, strategies: ['email', 'name'] });
      expect(prepared.filter((sql) => sql.includes('FROM rows'))).toHaveLength(1);
    } finally {
      db.prepare = prepare;
    }

    // A deleted project's kept previews go with it.
    const kept = (engine as unknown as { mappingPreviews: { kept: Map<string, unknown> } }).mappingPreviews.kept;
    const keptOf = () => [...kept.keys()].filter((key) => key.startsWith(`${summary.id} `));
    expect(keptOf()).toHaveLength(2);
    await ok(engine, 'projects.delete', { projectId: summary.id });
    expect(keptOf()).toEqual([]);
  });

  it('saving recomputes every row, and keeps decisions of rows whose queries did not change', async () => {
    const file = writeCsv(join(tmp.dir, 's.csv'), ['Name', 'Email', 'Company'], [
      ['Jane Doe', 'jane@acme.com', 'Acme'],
      ['No Mail', '', 'Acme'],
      ['n/a', '', '-'],
    ]);
    const detail = await ok(engine, 'projects.import', { file });
    const id = detail.summary.id;
    expect(detail.summary.counts.pending).toBe(3);

    // A person skips row 0 before any run or save (the project is planned with the detected mapping first);
    // then the mapping loses the company column.
    await ok(engine, 'decisions.skip', { projectId: id, rowIndex: 0 });
    expect((await ok(engine, 'projects.get', { projectId: id })).summary.counts).toMatchObject({ skipped: 1, pending: 1, no_query: 1 });
    const saved = await ok(engine, 'mapping.save', { projectId: id, mapping: { fullName: 0, email: 1 }, strategies: ['email', 'name+company'] });
    expect(saved.mapping).toEqual({ fullName: 0, email: 1 });
    expect(saved.strategies).toEqual(['email', 'name+company']);
    // Row 0 still asks the same e-mail: its decision stays. Row 1 has nothing left to ask.
    expect(saved.summary.counts).toMatchObject({ skipped: 1, no_query: 2, pending: 0 });

    const page = await ok(engine, 'review.page', { projectId: id, offset: 0, limit: 10 });
    expect(page.rows.map((r) => r.label)).toEqual(['Jane Doe', 'No Mail', 'n/a']);
  });
});
