// Export columns (CSV and XLSX), values from a sheet's column, validation before sending, and the saved-search calls.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { searchTemplate } from '../../../shared/search-templates';
import { exportHeaders } from '../../../electron/engine/search';
import { startSearchBench, SEARCH_CALLS, type SearchBench } from './search-fixture';
import { allRows, runToEnd } from './search-helpers';

let bench: SearchBench;
beforeAll(async () => {
  bench = await startSearchBench();
});
afterAll(async () => {
  await bench?.close();
});

const HEADERS = ['Person id', 'Name', 'Current title', 'Current company', 'Profile slug', 'Location', 'Job company', 'Job title', 'Job function', 'Job started', 'Job ended'];

function leftCompanies(b: SearchBench, since = '2024-01-01') {
  return searchTemplate('left-companies')!.build({ companies: b.sim.dataset.companies.slice(0, 8).map((c) => c.social), since });
}

describe('export', () => {
  it('writes one CSV row per person: who they are now, then the job that satisfied the search', async () => {
    const { filters, name } = leftCompanies(bench);
    const final = await runToEnd(bench, { filters, name });
    expect(final.people).toBeGreaterThan(5);
    const path = join(bench.dir, 'left.csv');
    const result = await bench.call('search.export', { searchId: final.searchId, format: 'csv', destination: path });
    expect(result).toMatchObject({ path, rows: final.people, fileName: 'left.csv', downloadRef: null });

    const text = readFileSync(path, 'utf8');
    expect(text.charCodeAt(0)).toBe(0xfeff);
    const parsed = Papa.parse<string[]>(text.slice(1), { skipEmptyLines: true }).data;
    expect(parsed[0]).toEqual(HEADERS);
    expect(exportHeaders()).toEqual(HEADERS);
    expect(parsed).toHaveLength(final.people + 1);

    // Check one row against the dataset itself.
    const row = parsed[1]!;
    const person = bench.sim.dataset.people.find((p) => p.id === row[0])!;
    const slugs = new Set(bench.sim.dataset.companies.slice(0, 8).map((c) => c.social));
    const job = person.jobs.find((j) => slugs.has(j.company.social) && j.ended_at !== null && j.ended_at >= '2024-01-01')!;
    const current = person.jobs[0]!.ended_at === null ? person.jobs[0]! : null;
    expect(row).toEqual([
      person.id,
      person.name,
      current?.title ?? person.jobs[0]!.title,
      current?.company.name ?? person.jobs[0]!.company.name,
      person.linkedin.normalize('NFC').toLowerCase(),
      person.location,
      job.company.name,
      job.title,
      job.function,
      job.started_at,
      job.ended_at,
    ]);
  });

  it('writes the same rows to XLSX, and into the export folder under the search name when no destination is given', async () => {
    const { filters } = leftCompanies(bench, '2025-01-01');
    const final = await runToEnd(bench, { filters, name: 'Left: 8 companies / 2025?' });
    const result = await bench.call('search.export', { searchId: final.searchId, format: 'xlsx', destination: null });
    expect(result.fileName).toBe('Left - 8 companies - 2025.xlsx');
    expect(result.path).toBe(join(bench.dir, 'exports', result.fileName));
    const book = new ExcelJS.Workbook();
    await book.xlsx.readFile(result.path!);
    const sheet = book.worksheets[0]!;
    const values = (n: number) => (sheet.getRow(n).values as unknown[]).slice(1);
    expect(values(1)).toEqual(HEADERS);
    expect(sheet.actualRowCount).toBe(final.people + 1);
    const rows = await allRows(bench, final.searchId);
    expect(values(2)[0]).toBe(rows[0]!.personId);
    expect(values(2)[6]).toBe(rows[0]!.job!.company);
  });
});

describe('values from a sheet column', () => {
  const cells = [
    'https://www.linkedin.com/company/acme-robotics/',
    'acme-robotics',
    '',
    'Globex',
    'https://www.linkedin.com/in/jane-doe',
    'linkedin.com/company/initech/about',
    '  ',
    'globex',
  ];

  it('reads the distinct non-empty cells of a column of a CSV file, normalized for the field', async () => {
    const file = join(bench.dir, 'companies.csv');
    writeFileSync(file, `Name,Company page\n${cells.map((c, i) => `Row ${i},"${c}"`).join('\n')}\n`);
    const values = await bench.call('search.columnValues', { file, column: 'company PAGE', field: 'jobs.company.social' });
    expect(values).toEqual({
      header: 'Company page',
      column: 1,
      values: ['acme-robotics', 'globex', 'initech'],
      cells: 6,
      duplicates: 2,
      problems: [{ value: 'https://www.linkedin.com/in/jane-doe', message: expect.stringMatching(/person's profile link/) }],
    });
    const raw = await bench.call('search.columnValues', { file, column: 1 });
    expect(raw.values).toEqual(['https://www.linkedin.com/company/acme-robotics/', 'acme-robotics', 'Globex', 'https://www.linkedin.com/in/jane-doe', 'linkedin.com/company/initech/about', 'globex']);
    const missing = await bench.fail('search.columnValues', { file, column: 'Employer' });
    expect(missing).toMatchObject({ kind: 'invalid_input', message: expect.stringMatching(/No column "Employer".*"Name", "Company page"/) });
  });

  it('reads a column of an imported project', async () => {
    const now = new Date().toISOString();
    const projectId = Number(
      bench.db
        .prepare(`INSERT INTO projects (name, kind, headers, status, created_at, updated_at) VALUES ('Leavers', 'match', ?, 'ready', ?, ?)`)
        .run(JSON.stringify(['Who', 'Company']), now, now).lastInsertRowid,
    );
    const insert = bench.db.prepare('INSERT INTO rows (project_id, row_index, cells) VALUES (?, ?, ?)');
    cells.forEach((c, i) => insert.run(projectId, i, JSON.stringify(i === 2 ? ['x'] : [`p${i}`, c])));
    const values = await bench.call('search.columnValues', { projectId, column: 'Company', field: 'jobs.company.social' });
    expect(values.values).toEqual(['acme-robotics', 'globex', 'initech']);
    expect((await bench.fail('search.columnValues', { projectId: 9999, column: 0 })).kind).toBe('not_found');
    expect((await bench.fail('search.columnValues', { column: 0 })).kind).toBe('invalid_input');
  });
});

describe('validation before sending', () => {
  it('refuses filters a user must fix, naming each problem in words, and sends nothing', async () => {
    bench.sim.resetCounters();
    const refused = await bench.fail('search.run', {
      filters: [
        { field: 'jobs.ended_at', type: 'must', match_type: 'exact', date_from: '2024-13-01', job_group: 1 },
        { field: 'jobs.company.social', type: 'must', match_type: 'exact', string_values: ['', ' '], job_group: 1 },
        { field: 'jobs.title', type: 'must_not', match_type: 'fuzzy', string_values: ['Intern'], job_group: 1 },
        { field: 'social', type: 'must', match_type: 'exact', string_values: ['https://www.linkedin.com/company/acme'] },
        { field: 'salary', type: 'must', match_type: 'exact', string_values: ['1'] },
      ],
    });
    expect(refused.kind).toBe('invalid_input');
    expect(refused.message).toMatch(/"2024-13-01" is not a date written YYYY-MM-DD/);
    expect(refused.message).toMatch(/Filter 2 \(jobs.company.social\): the list of values is empty/);
    expect(refused.message).toMatch(/"must not" filters cannot be grouped/);
    expect(refused.message).toMatch(/Filter 4 \(social\): company page, not a profile/);
    expect(refused.message).toMatch(/"salary" is not a field a search can use/);
    expect(bench.sim.counters().calls).toBe(0);

    const malformed = await bench.fail('search.run', { filters: [{ field: 'name', type: 'should', match_type: 'fuzzy', string_values: ['x'] }] } as never);
    expect(malformed.kind).toBe('invalid_input');
    expect((await bench.fail('search.run', { filters: [] })).message).toMatch(/Add at least one filter/);
  });
});

describe('saved searches', () => {
  it('lists, gets and deletes searches with their filters and service', async () => {
    const { filters } = leftCompanies(bench, '2023-03-03');
    const final = await runToEnd(bench, { filters });
    const saved = await bench.call('search.get', { searchId: final.searchId });
    expect(saved).toMatchObject({ searchId: final.searchId, filters, baseUrl: bench.sim.baseUrl, orgId: bench.sim.orgId, status: 'done' });
    expect(saved.name).toMatch(/Company profile slug: .* \+6; Job ended from 2023-03-03/);
    expect(saved.finishedAt).not.toBeNull();
    expect((await bench.call('search.list', {})).map((s) => s.searchId)).toContain(final.searchId);
    await bench.call('search.delete', { searchId: final.searchId });
    expect(await bench.call('search.status', { searchId: final.searchId })).toBeNull();
    expect((await bench.fail('search.results', { searchId: final.searchId, offset: 0, limit: 10 })).kind).toBe('not_found');
    expect(bench.db.prepare('SELECT count(*) AS n FROM search_results WHERE search_id = ?').get(final.searchId)).toEqual({ n: 0 });
  });

  it('answers every search.* call of the contract', () => {
    expect(Object.keys(bench.search.handlers).sort()).toEqual([...SEARCH_CALLS].sort());
  });
});
