import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import ExcelJS from 'exceljs';
import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ExportProgress } from '../../../shared/contract';
import type { Engine } from '../../../electron/engine/engine';
import { CANDIDATE_COLUMNS, EXPORT_PAGE_ROWS, MATCH_COLUMNS, candidateLineCount } from '../../../electron/engine/runs/export-rows';
import type { Person, Simulator } from '../../../electron/simulator';
import { detailOf } from '../../../shared/job-detail';
import { onJobDetail } from '../../support/job-events';
import { connect, currentCompany, fails, findablePeople, ok, openEngine, runToEnd, startSim, tempDir, writeCsv } from './helpers';

let tmp: ReturnType<typeof tempDir>;
let sim: Simulator;
let engine: Engine;
let projectId: number;
let people: Person[];
const HEADERS = ['Name', 'Email', 'Company', 'Notes'];
let sheet: string[][];

beforeAll(async () => {
  tmp = tempDir();
  // Scores on: match_score carries the service's own score, checked below.
  sim = await startSim({ scores: true });
  engine = await openEngine(join(tmp.dir, 'data'), { exportDir: join(tmp.dir, 'downloads') });
  await connect(engine, sim);
  people = findablePeople(sim);
  sheet = [
    [people[0]!.name, people[0]!.email_address, currentCompany(people[0]!), 'by e-mail'],
    [people[1]!.name, '', currentCompany(people[1]!), 'by name'],
    ['Nobody Atall', 'nobody@nowhere.example', '', ''],
    ['', '', '', 'nothing to ask'],
    [people[2]!.name, '', currentCompany(people[2]!), 'extra cell', 'ragged'],
  ];
  const file = writeCsv(join(tmp.dir, 'leads.csv'), HEADERS, sheet);
  projectId = (await ok(engine, 'projects.import', { file })).summary.id;
  await runToEnd(engine, projectId);
  await ok(engine, 'decisions.choose', { projectId, rowIndex: 1, rank: 1 });
});
afterAll(async () => {
  await engine.close();
  await sim.close();
  tmp.remove();
});

function readCsv(path: string, delimiter = ','): string[][] {
  return Papa.parse<string[]>(readFileSync(path, 'utf8').replace(/^\uFEFF/, ''), { skipEmptyLines: true, delimiter }).data;
}

describe('export', () => {
  it('writes the original columns in order, then the match columns, for every row', async () => {
    const result = await ok(engine, 'export.run', { projectId, format: 'csv', scope: 'all' });
    expect(result.downloadRef).toBe('leads-matches.csv');
    expect(result.fileName).toBe('leads-matches.csv');
    expect(result.path).toBe(join(tmp.dir, 'downloads', 'leads-matches.csv'));
    expect(result.rows).toBe(5);
    expect(readFileSync(result.path!, 'utf8').startsWith('\uFEFF')).toBe(true);

    const [headers, ...rows] = readCsv(result.path!);
    // The ragged row's extra cell gets a column of its own, before the match columns.
    expect(headers).toEqual([...HEADERS, 'Column 5', ...MATCH_COLUMNS]);
    expect(rows.map((r) => r.slice(0, 5))).toEqual(sheet.map((r) => [...r, '', ''].slice(0, 5)));
    const col = (name: string) => headers!.indexOf(name);

    const byEmail = rows[0]!;
    expect(byEmail[col('match_status')]).toBe('auto');
    expect(byEmail[col('match_source')]).toBe('auto');
    expect(byEmail[col('match_person_id')]).toBe(people[0]!.id);
    expect(byEmail[col('match_name')]).toBe(people[0]!.name);
    expect(byEmail[col('match_company')]).toBe(currentCompany(people[0]!));
    // The sheet's company is the person's current one.
    expect(byEmail[col('match_job_change')]).toBe('no_change');
    expect(byEmail[col('match_job_change_date')]).toBe('');
    expect(byEmail[col('match_social')]).toBe(people[0]!.linkedin);
    expect(byEmail[col('match_rank')]).toBe('1');
    expect(Number(byEmail[col('match_score')])).toBeGreaterThan(0.5);
    expect(byEmail[col('match_strategy')]).toBe('email');
    expect(Number(byEmail[col('match_confidence')])).toBeGreaterThan(0.99);
    expect(byEmail[col('match_reason')]).toMatch(/^found by this e-mail, same name, works at .+ now/);
    expect(byEmail[col('match_fetched_at')]).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(byEmail[col('match_decided_at')]).toMatch(/^\d{4}-\d\d-\d\dT/);

    const chosen = rows[1]!;
    expect(chosen[col('match_status')]).toBe('accepted');
    expect(chosen[col('match_source')]).toBe('manual');
    expect(chosen[col('match_person_id')]).toBe(people[1]!.id);
    expect(chosen[col('match_strategy')]).toBe('name+company');
    // A person's choice keeps the model's confidence in the candidate chosen, and why.
    expect(Number(chosen[col('match_confidence')])).toBeGreaterThan(0);
    expect(chosen[col('match_reason')]).toContain('same name');

    expect(rows[2]![col('match_status')]).toBe('no_candidates');
    expect(rows[2]![col('match_person_id')]).toBe('');
    expect(rows[2]![col('match_confidence')]).toBe('');
    expect(rows[3]![col('match_status')]).toBe('no_query');
    expect(rows[3]![col('match_fetched_at')]).toBe('');
    // The only person with that name at that employer: accepted on name and company alone.
    expect(rows[4]![col('match_status')]).toBe('auto');
    expect(rows[4]![col('match_person_id')]).toBe(people[2]!.id);
    expect(Number(rows[4]![col('match_confidence')])).toBeGreaterThanOrEqual(0.95);
    expect(rows[4]![col('match_reason')]).toMatch(/^same name, works at .+ now/);
    expect(rows.map((r) => r[col('match_error')])).toEqual(['', '', '', '', '']);
  });

  it('leaves the matches file as it was when its candidates cannot be written', async () => {
    const destination = join(tmp.dir, 'kept.csv');
    writeFileSync(destination, 'the export before\n');
    const error = await fails(engine, 'export.run', {
      projectId, format: 'csv', scope: 'all', candidates: true, destination, candidatesDestination: join(tmp.dir, 'no-such-folder', 'long-form.csv'),
    });
    expect(error.message).toMatch(/long-form\.csv.*its folder does not exist/);
    expect(readFileSync(destination, 'utf8')).toBe('the export before\n');
    expect(readdirSync(tmp.dir).filter((name) => name.endsWith('.part'))).toEqual([]);
  });

  it("gives each row whose lookup failed the service's reason in match_error", async () => {
    const file = writeCsv(join(tmp.dir, 'outage.csv'), ['Email'], [['first.failed@outage.example'], ['second.failed@outage.example']]);
    const failedProject = (await ok(engine, 'projects.import', { file })).summary.id;
    sim.setFaults('outage');
    try {
      expect((await runToEnd(engine, failedProject)).errors).toBe(2);
    } finally {
      sim.setFaults('none');
    }
    const result = await ok(engine, 'export.run', { projectId: failedProject, format: 'csv', scope: 'all', destination: join(tmp.dir, 'outage-matches.csv') });
    const [headers, ...rows] = readCsv(result.path!);
    expect(headers).toContain('match_error');
    for (const row of rows) {
      expect(row[headers!.indexOf('match_status')]).toBe('error');
      expect(row[headers!.indexOf('match_error')]).toMatch(/^The service failed with HTTP 5\d\d 5 times in a row/);
    }
  });

  it('exports matched rows only, with the candidates in long form beside them, where asked', async () => {
    const destination = join(tmp.dir, 'chosen', 'matched.csv');
    const { mkdirSync } = await import('node:fs');
    mkdirSync(join(tmp.dir, 'chosen'));
    const result = await ok(engine, 'export.run', { projectId, format: 'csv', scope: 'matched', candidates: true, destination, delimiter: ';', bom: false });
    expect(result).toMatchObject({ path: destination, downloadRef: null, fileName: 'matched.csv', rows: 3 });
    expect(readFileSync(destination, 'utf8').startsWith('\uFEFF')).toBe(false);
    const rows = readCsv(destination, ';').slice(1);
    expect(rows.map((r) => r[0])).toEqual([people[0]!.name, people[1]!.name, people[2]!.name]);

    const candidatesPath = join(tmp.dir, 'chosen', 'matched-candidates.csv');
    expect(result.candidates).toMatchObject({ path: candidatesPath, fileName: 'matched-candidates.csv' });
    const [headers, ...candidates] = readCsv(candidatesPath, ';');
    expect(headers).toEqual([...CANDIDATE_COLUMNS]);
    // Each candidate names its row as a spreadsheet app numbers it: the header is row 1.
    expect(new Set(candidates.map((c) => c[0]))).toEqual(new Set(['2', '3', '6']));
    const first = candidates.find((c) => c[0] === '2')!;
    const at = (name: (typeof CANDIDATE_COLUMNS)[number]) => CANDIDATE_COLUMNS.indexOf(name);
    expect(first.slice(0, 3)).toEqual(['2', '1', people[0]!.id]);
    expect(first[at('strategy')]).toBe('email');
    // Found by the row's e-mail: that is agreement, not a missing e-mail.
    expect(first.slice(at('evidence_email'))).toEqual(['same', 'missing', 'same', 'same']);
    // Each row's candidates come most likely first, each with its own confidence.
    const second = candidates.filter((c) => c[0] === '3');
    const confidences = second.map((c) => Number(c[at('confidence')]));
    expect(confidences).toEqual([...confidences].sort((a, b) => b - a));
    expect(second[0]![at('person_id')]).toBe(people[1]!.id);
    expect(result.candidates!.rows).toBe(candidates.length);
  });

  it('writes the candidates where asked, in the format their file name says', async () => {
    const destination = join(tmp.dir, 'named', 'all.csv');
    const candidatesDestination = join(tmp.dir, 'named', 'long-form.xlsx');
    const { mkdirSync } = await import('node:fs');
    mkdirSync(join(tmp.dir, 'named'));
    const result = await ok(engine, 'export.run', { projectId, format: 'csv', scope: 'all', candidates: true, destination, candidatesDestination });
    expect(result.candidates).toMatchObject({ path: candidatesDestination, fileName: 'long-form.xlsx' });
    expect(existsSync(join(tmp.dir, 'named', 'all-candidates.csv'))).toBe(false);
    const book = new ExcelJS.Workbook();
    await book.xlsx.readFile(candidatesDestination);
    const ws = book.worksheets[0]!;
    expect(ws.getRow(1).values).toEqual([undefined, ...CANDIDATE_COLUMNS]);
    expect(ws.rowCount - 1).toBe(result.candidates!.rows);
  });

  it("reads the rows' widths only for a sheet the import found rows of another width in", async () => {
    const even = [[people[0]!.name, people[0]!.email_address, currentCompany(people[0]!), 'four cells'], ['', '', '', 'four too']];
    const evenProject = (await ok(engine, 'projects.import', { file: writeCsv(join(tmp.dir, 'even.csv'), HEADERS, even) })).summary.id;
    await runToEnd(engine, evenProject);
    const prepared = vi.spyOn(Database.prototype, 'prepare');
    try {
      const widthReads = () => prepared.mock.calls.filter(([sql]) => String(sql).includes('json_array_length(cells)')).length;
      const evenExport = await ok(engine, 'export.run', { projectId: evenProject, format: 'csv', scope: 'all', destination: join(tmp.dir, 'even.csv.out.csv') });
      expect(widthReads()).toBe(0);
      const [headers, ...rows] = readCsv(evenExport.path!);
      expect(headers).toEqual([...HEADERS, ...MATCH_COLUMNS]);
      expect(rows.map((r) => r.slice(0, 4))).toEqual(even);
      // The ragged sheet's rows are read for their widths: its longest row's cell gets a column of its own.
      const ragged = await ok(engine, 'export.run', { projectId, format: 'csv', scope: 'all', destination: join(tmp.dir, 'ragged.csv') });
      expect(widthReads()).toBe(1);
      expect(readCsv(ragged.path!)[0]).toEqual([...HEADERS, 'Column 5', ...MATCH_COLUMNS]);
    } finally {
      prepared.mockRestore();
    }
  });

  it('reads a CSV export page by page: every row once, in order, the matched ones across pages too', async () => {
    // More rows than three CSV pages hold in part, the matched ones on the first, second and last page.
    const count = 2 * EXPORT_PAGE_ROWS + EXPORT_PAGE_ROWS / 2;
    const matchedAt = new Map([[0, people[0]!], [EXPORT_PAGE_ROWS + 20, people[1]!], [count - 1, people[2]!]]);
    const big = Array.from({ length: count }, (_, i) => {
      const person = matchedAt.get(i);
      return person ? [person.name, person.email_address, currentCompany(person), `row ${i}`] : ['', '', '', `row ${i}`];
    });
    const bigProject = (await ok(engine, 'projects.import', { file: writeCsv(join(tmp.dir, 'paged.csv'), HEADERS, big) })).summary.id;
    await runToEnd(engine, bigProject);

    const all = await ok(engine, 'export.run', { projectId: bigProject, format: 'csv', scope: 'all', destination: join(tmp.dir, 'paged-all.csv') });
    expect(all.rows).toBe(count);
    const [headers, ...rows] = readCsv(all.path!);
    expect(rows.map((r) => r[3])).toEqual(big.map((r) => r[3]));
    const status = headers!.indexOf('match_status');
    expect(rows.filter((r) => r[status] === 'auto').map((r) => r[3])).toEqual([...matchedAt.keys()].map((i) => `row ${i}`));

    const matched = await ok(engine, 'export.run', { projectId: bigProject, format: 'csv', scope: 'matched', destination: join(tmp.dir, 'paged-matched.csv') });
    expect(readCsv(matched.path!).slice(1).map((r) => r[0])).toEqual([...matchedAt.values()].map((p) => p.name));
  });

  it('writes XLSX too, and never overwrites an earlier download', async () => {
    const a = await ok(engine, 'export.run', { projectId, format: 'xlsx', scope: 'all', candidates: true });
    const b = await ok(engine, 'export.run', { projectId, format: 'xlsx', scope: 'all' });
    expect(a.fileName).toBe('leads-matches.xlsx');
    expect(b.fileName).toBe('leads-matches (2).xlsx');
    expect(existsSync(join(tmp.dir, 'downloads', 'leads-matches-candidates.xlsx'))).toBe(true);
    const book = new ExcelJS.Workbook();
    await book.xlsx.readFile(a.path!);
    const ws = book.worksheets[0]!;
    expect(ws.rowCount).toBe(6);
    expect(ws.getRow(1).getCell(HEADERS.length + 2).value).toBe('match_status');
    expect(ws.getRow(2).getCell(HEADERS.length + 2).value).toBe('auto');
  });

  it('counts the candidates\' lines before writing them, as many as it writes', async () => {
    const db = new Database(engine.dbPath, { readonly: true });
    try {
      for (const scope of ['all', 'matched'] as const) {
        const result = await ok(engine, 'export.run', { projectId, format: 'csv', scope, candidates: true });
        expect(candidateLineCount(db, projectId, scope), scope).toBe(result.candidates!.rows);
      }
    } finally {
      db.close();
    }
  });

  it('finds no row changed at the last refresh of a project never refreshed, and says no for each matched one', async () => {
    const changed = await ok(engine, 'export.run', { projectId, format: 'csv', scope: 'changed', candidates: true, destination: join(tmp.dir, 'never-refreshed.csv') });
    expect(changed.rows).toBe(0);
    expect(readCsv(changed.path!)).toEqual([[...HEADERS, 'Column 5', ...MATCH_COLUMNS]]);
    expect(changed.candidates!.rows).toBe(0);
    const db = new Database(engine.dbPath, { readonly: true });
    try {
      expect(candidateLineCount(db, projectId, 'changed')).toBe(0);
    } finally {
      db.close();
    }
    const all = await ok(engine, 'export.run', { projectId, format: 'csv', scope: 'all', destination: join(tmp.dir, 'never-refreshed-all.csv') });
    const [headers, ...rows] = readCsv(all.path!);
    const at = (name: (typeof MATCH_COLUMNS)[number]) => headers!.indexOf(name);
    const matched = rows.filter((r) => ['auto', 'accepted'].includes(r[at('match_status')]!));
    expect(matched.length).toBeGreaterThan(0);
    expect(matched.map((r) => [r[at('match_changed_since_refresh')], r[at('match_previous_company')]])).toEqual(matched.map(() => ['no', '']));
  });

  it('refuses, before writing anything, Excel candidates that would not fit one sheet, and says how many lines they take', async () => {
    // A sheet of 1,048,575 rows with a candidate or more each: made here by one row's count, as a million-row run would.
    const db = new Database(engine.dbPath);
    const [rowIndex, count] = db.prepare("SELECT row_index, candidate_count FROM row_status WHERE project_id = ? AND outcome = 'to_review' ORDER BY row_index LIMIT 1").raw().get(projectId) as [number, number];
    const others = candidateLineCount(db, projectId, 'all') - count;
    db.prepare('UPDATE row_status SET candidate_count = ? WHERE project_id = ? AND row_index = ?').run(1_048_576 - others, projectId, rowIndex);
    try {
      const dir = join(tmp.dir, 'too-many');
      mkdirSync(dir);
      const error = await fails(engine, 'export.run', { projectId, format: 'xlsx', scope: 'all', candidates: true, destination: join(dir, 'all.xlsx') });
      expect(error).toMatchObject({ kind: 'invalid_input', code: 'export_too_many_rows' });
      expect(error.message).toBe(
        "Can't save “all-candidates.xlsx”: an Excel sheet holds at most 1,048,576 rows, and the candidates of these rows take 1,048,576 lines " +
          '(one per row and candidate). Save the candidates as CSV, or export the matches without them.',
      );
      expect(readdirSync(dir)).toEqual([]);
      // One line fewer fits (with the header, the sheet's every row): the check lets it through.
      db.prepare('UPDATE row_status SET candidate_count = ? WHERE project_id = ? AND row_index = ?').run(1_048_575 - others, projectId, rowIndex);
      expect(candidateLineCount(db, projectId, 'all')).toBe(1_048_575);
      const fits = await ok(engine, 'export.run', { projectId, format: 'xlsx', scope: 'all', candidates: true, destination: join(dir, 'fits.xlsx') });
      expect(fits.candidates!.rows).toBeLessThan(100);
    } finally {
      db.prepare('UPDATE row_status SET candidate_count = ? WHERE project_id = ? AND row_index = ?').run(count, projectId, rowIndex);
      db.close();
    }
  });

  /** What an export screen opened meanwhile finds (job.list): the export job's detail, or null. */
  const exportUnderWay = async (projectId: number) => (await ok(engine, 'job.list', { projectId })).map((job) => detailOf(job, 'export')).find((detail) => detail !== null) ?? null;

  it('says how far a long export is, the matches and then the candidates, a few times a second', async () => {
    // 60,000 rows, never run: an Excel export of their matches takes one to two seconds.
    const rows = Array.from({ length: 60_000 }, (_, i) => [`Person ${i}`, `person${i}@example.com`, `Company ${i % 500}`, '']);
    const big = (await ok(engine, 'projects.import', { file: writeCsv(join(tmp.dir, 'big.csv'), HEADERS, rows) })).summary;
    const events: ExportProgress[] = [];
    // What a screen opened part-way through would be told: the export's last word, then nothing once it has ended.
    const underWay: (ExportProgress | null)[] = [];
    // What it said as it went (its job's end repeats the last word, as done).
    const off = onJobDetail(
      engine,
      'export',
      (p, job) => {
        if (job.state !== 'running') return;
        events.push(p);
        if (p.rowsDone > 0 && p.rowsDone < p.rowsTotal && underWay.length === 0) void exportUnderWay(big.id).then((u) => underWay.push(u));
      },
      big.id,
    );
    expect(await exportUnderWay(big.id)).toBeNull();
    const started = performance.now();
    try {
      await ok(engine, 'export.run', { projectId: big.id, format: 'xlsx', scope: 'all', candidates: true });
    } finally {
      off();
    }
    expect(underWay).toHaveLength(1);
    // With what it writes, as asked (the defaults filled in): a screen opened meanwhile shows these choices.
    expect(underWay[0]).toMatchObject({ projectId: big.id, rowsTotal: 60_000, choice: { format: 'xlsx', scope: 'all', candidates: true, bom: true, delimiter: ',' } });
    expect(underWay[0]!.rowsDone).toBeGreaterThan(0);
    expect(await exportUnderWay(big.id)).toBeNull();
    const seconds = (performance.now() - started) / 1000;
    const matches = events.filter((e) => e.part === 'matches');
    const candidates = events.filter((e) => e.part === 'candidates');
    // The matches come first, then the candidates; each part starts at 0 and ends with every row.
    expect(events.findIndex((e) => e.part === 'candidates')).toBe(matches.length);
    for (const part of [matches, candidates]) {
      expect(part.every((e) => e.rowsTotal === 60_000)).toBe(true);
      expect(part[0]!.rowsDone).toBe(0);
      expect(part.at(-1)!.rowsDone).toBe(60_000);
      expect(part.map((e) => e.rowsDone)).toEqual(part.map((e) => e.rowsDone).sort((a, b) => a - b));
    }
    // Some in between, though never more than four a second and a part's start and end.
    expect(matches.length).toBeGreaterThan(2);
    expect(events.length).toBeLessThanOrEqual(seconds * 4 + 4);
  });
});
