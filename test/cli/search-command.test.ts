// `matchdesk search` end to end: the real CLI in a child process, its connection from MATCHDESK_* pointing at a
// simulator started here, its data in a temp MATCHDESK_HOME, its files read back.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../../electron/simulator/server';
import { connectionTo, runMatchdesk, type CliOutcome } from './matchdesk-process';

let sim: Simulator;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'matchdesk-cli-search-'));
  sim = await startSimulator({ port: 0, people: 3000, seed: 5 });
});

afterAll(async () => {
  await sim?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

function matchdesk(args: string[], home = join(dir, 'home')): Promise<CliOutcome> {
  return runMatchdesk(args, {
    cwd: dir,
    home,
    connection: connectionTo(sim),
  });
}

const leaversOf = (slugs: Set<string>, since: string) =>
  sim.dataset.people
    .filter((p) => p.jobs.some((j) => slugs.has(j.company.social) && j.ended_at !== null && j.ended_at >= since))
    .map((p) => p.id)
    .sort();

describe('matchdesk search', () => {
  it('builds "left these companies since" from a sheet column, runs it, exports it, and answers a re-run from the cache', async () => {
    const companies = sim.dataset.companies.slice(0, 6);
    const sheet = join(dir, 'companies.csv');
    writeFileSync(
      sheet,
      ['Account,Company page', ...companies.map((c) => `${c.name.replace(/,/g, '')},https://www.linkedin.com/company/${c.social}/`), 'Dup,' + companies[0]!.social, 'Blank,'].join('\n') +
        '\n',
    );
    const out = join(dir, 'leavers.csv');
    const first = await matchdesk(['search', '--template', 'left-companies', '--companies-from', `${sheet}:Company page`, '--since', '2024-01-01', '--out', out, '--yes']);
    expect(first.stderr).toMatch(/Companies: 6 distinct from column "Company page"/);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stderr).toMatch(/done: \d+ people \(service total \d+\), \d+ pages?, \d+ calls?/);

    const want = leaversOf(new Set(companies.map((c) => c.social)), '2024-01-01');
    expect(want.length).toBeGreaterThan(3);
    const rows = Papa.parse<string[]>(readFileSync(out, 'utf8').replace(/^\uFEFF/, ''), { skipEmptyLines: true }).data;
    expect(rows[0]).toEqual(['Person id', 'Name', 'Current title', 'Current company', 'Profile slug', 'Location', 'Job company', 'Job title', 'Job function', 'Job started', 'Job ended']);
    expect(rows.slice(1).map((r) => r[0]).sort()).toEqual(want);
    for (const r of rows.slice(1)) expect(r[10]! >= '2024-01-01').toBe(true);

    const calls = sim.counters().searchCalls;
    const again = await matchdesk(['search', '--template', 'left-companies', '--companies-from', `${sheet}:2`, '--since', '2024-01-01', '--out', join(dir, 'again.csv'), '--yes']);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toMatch(/Answered from the cache/);
    // One call only: the connection check's count-only search, which asks for nobody.
    expect(sim.counters().searchCalls).toBe(calls + 1);
    expect(readFileSync(join(dir, 'again.csv'), 'utf8')).toBe(readFileSync(out, 'utf8'));
  });

  it('runs filters from a JSON file into XLSX, and answers offline only from stored results', async () => {
    const filters = join(dir, 'filters.json');
    writeFileSync(filters, JSON.stringify({ filters: [{ field: 'jobs.level', type: 'must', match_type: 'exact', string_values: ['C-Team'] }, { field: 'jobs.function', type: 'must', match_type: 'exact', string_values: ['Legal'] }] }));
    const out = join(dir, 'chiefs.xlsx');
    const run = await matchdesk(['search', '--filters', filters, '--out', out, '--yes']);
    expect(run.code, run.stderr).toBe(0);
    const book = new ExcelJS.Workbook();
    await book.xlsx.readFile(out);
    const want = sim.dataset.people.filter((p) => p.jobs.some((j) => j.level === 'C-Team') && p.jobs.some((j) => j.function === 'Legal'));
    expect(book.worksheets[0]!.actualRowCount).toBe(want.length + 1);

    const offline = await matchdesk(['search', '--filters', filters, '--out', join(dir, 'offline.csv'), '--offline']);
    expect(offline.code, offline.stderr).toBe(0);
    expect(offline.stderr).toMatch(/Answered offline/);

    writeFileSync(filters, JSON.stringify([{ field: 'jobs.level', type: 'must', match_type: 'exact', string_values: ['Intern'] }]));
    const none = await matchdesk(['search', '--filters', filters, '--out', join(dir, 'none.csv'), '--offline']);
    expect(none.code).toBe(1);
    expect(none.stderr).toMatch(/no stored results/);
  });

  it('refuses to send without --yes off a terminal, and names what is wrong with the filters', async () => {
    const filters = join(dir, 'bad.json');
    writeFileSync(filters, JSON.stringify([{ field: 'jobs.ended_at', type: 'must', match_type: 'exact', date_from: '01/02/2024' }]));
    const noYes = await matchdesk(['search', '--filters', filters, '--out', join(dir, 'x.csv')]);
    expect(noYes.code).toBe(2);
    expect(noYes.stderr).toMatch(/add --yes/);
    const bad = await matchdesk(['search', '--filters', filters, '--out', join(dir, 'x.csv'), '--yes']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/"01\/02\/2024" is not a date written YYYY-MM-DD/);
    const noSince = await matchdesk(['search', '--template', 'left-companies', '--companies', 'acme', '--out', join(dir, 'x.csv'), '--yes']);
    expect(noSince.code).toBe(2);
    expect(noSince.stderr).toMatch(/Left on or after: give a date/);
  });
});
