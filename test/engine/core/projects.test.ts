import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Engine } from '../../../electron/engine/engine';
import { fails, ok, openEngine, tempDir, writeCsv } from './helpers';

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

describe('importing a sheet', () => {
  it('keeps rows in file order with their cells exactly, and becomes a ready project', async () => {
    const rows = [
      ['Jane Doe', 'JANE@Example.com ', 'Acme, Inc.', 'said "hi"\nline two'],
      ['  spaced  ', '', '', '=1+2'],
      ['Zoë Ångström', 'zoe@example.org', 'Über GmbH', '🙂'],
      ...Array.from({ length: 5200 }, (_, i) => [`Person ${i}`, `p${i}@example.com`, `Company ${i % 7}`, String(i)]),
    ];
    const file = writeCsv(join(tmp.dir, 'people.csv'), ['Name', 'Email', 'Company', 'Notes'], rows);
    const progress: number[] = [];
    engine.on('import.progress', (p) => progress.push(p.rowsRead));

    const detail = await ok(engine, 'projects.import', { file });
    expect(detail.summary.name).toBe('people');
    expect(detail.summary.sourceName).toBe('people.csv');
    expect(detail.summary.rowCount).toBe(rows.length);
    expect(detail.headers).toEqual(['Name', 'Email', 'Company', 'Notes']);
    expect(detail.format).toBe('csv');
    expect(detail.sample.slice(0, 3)).toEqual(rows.slice(0, 3));
    expect(progress.at(-1)).toBe(rows.length);
    expect(progress.length).toBeGreaterThan(1);
    // Every row is planned: nothing looked up yet; "spaced" alone (no company, no e-mail) has nothing to ask.
    expect(detail.summary.counts.pending).toBe(rows.length - 1);
    expect(detail.summary.counts.no_query).toBe(1);

    // Every cell, in order, straight from SQLite.
    const db = new Database(engine.dbPath, { readonly: true });
    const stored = db.prepare('SELECT row_index, cells FROM rows WHERE project_id = ? ORDER BY row_index').all(detail.summary.id) as { row_index: number; cells: string }[];
    db.close();
    expect(stored.map((r) => r.row_index)).toEqual(rows.map((_, i) => i));
    expect(stored.map((r) => JSON.parse(r.cells))).toEqual(rows);

    const listed = await ok(engine, 'projects.list');
    expect(listed.map((p) => p.id)).toEqual([detail.summary.id]);
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

  it('renames and deletes a project with everything that belongs to it', async () => {
    const file = writeCsv(join(tmp.dir, 'a.csv'), ['Name', 'Email'], [['A', 'a@example.com']]);
    const { summary } = await ok(engine, 'projects.import', { file });
    const renamed = await ok(engine, 'projects.rename', { projectId: summary.id, name: '  Leads 2026 ' });
    expect(renamed.name).toBe('Leads 2026');

    await ok(engine, 'projects.delete', { projectId: summary.id });
    expect(await ok(engine, 'projects.list')).toEqual([]);
    expect((await fails(engine, 'projects.get', { projectId: summary.id })).kind).toBe('not_found');
    const db = new Database(engine.dbPath, { readonly: true });
    for (const table of ['rows', 'row_status', 'row_queries', 'decision_log', 'runs']) {
      expect(db.prepare(`SELECT count(*) FROM ${table}`).pluck().get(), table).toBe(0);
    }
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

  it('saving recomputes every row, and keeps decisions of rows whose queries did not change', async () => {
    const file = writeCsv(join(tmp.dir, 's.csv'), ['Name', 'Email', 'Company'], [
      ['Jane Doe', 'jane@acme.com', 'Acme'],
      ['No Mail', '', 'Acme'],
      ['n/a', '', '-'],
    ]);
    const detail = await ok(engine, 'projects.import', { file });
    const id = detail.summary.id;
    expect(detail.summary.counts.pending).toBe(2);
    expect(detail.summary.counts.no_query).toBe(1);

    // A person skips row 0 before any run; then the mapping loses the company column.
    await ok(engine, 'decisions.skip', { projectId: id, rowIndex: 0 });
    const saved = await ok(engine, 'mapping.save', { projectId: id, mapping: { fullName: 0, email: 1 }, strategies: ['email', 'name+company'] });
    expect(saved.mapping).toEqual({ fullName: 0, email: 1 });
    expect(saved.strategies).toEqual(['email', 'name+company']);
    // Row 0 still asks the same e-mail: its decision stays. Row 1 has nothing left to ask.
    expect(saved.summary.counts).toMatchObject({ skipped: 1, no_query: 2, pending: 0 });

    const page = await ok(engine, 'review.page', { projectId: id, offset: 0, limit: 10 });
    expect(page.rows.map((r) => r.label)).toEqual(['Jane Doe', 'No Mail', 'n/a']);
  });
});
