// A sheet of the simulator's people where the truth about each row is known: who the row is about and which company
// it names, by the dataset's company id. So a job change can be checked against the dataset itself, never against
// the engine's own reading of a record.
import Database from 'better-sqlite3';
import Papa from 'papaparse';
import { readFileSync } from 'node:fs';
import type { Engine } from '../../../electron/engine/engine';
import type { Company, Person, Simulator } from '../../../electron/simulator';
import type { JobChangeStatus } from '../../../shared/model';
import { expect } from 'vitest';
import { ok, runToEnd } from '../core/helpers';
import { ROW_STATUS_COLUMNS, toRowStatus, type ChosenPerson, type RowStatusRow } from '../../../electron/engine/rows/row-status';

export const HEADERS = ['Full Name', 'Work Email', 'Company', 'Notes'];

export type RowKind = 'still' | 'moved' | 'left' | 'again' | 'near_name' | 'nobody';

export interface TruthRow {
  kind: RowKind;
  /** The person the row is about; null for nobody. */
  personId: string | null;
  company: Company | null;
  cells: string[];
}

const current = (p: Person) => (p.jobs[0]?.ended_at === null ? p.jobs[0] : null);

/**
 * Rows about people still at the company the row names, people who moved on from it, people who left it with no job
 * since, people named by two rows (the second with another of their employers), and rows that stay unaccepted: a
 * name a letter off with no e-mail (never accepted alone) and e-mails nobody has.
 */
export function truthSheet(people: readonly Person[], counts: Partial<Record<RowKind, number>> = {}): TruthRow[] {
  const want = { still: 150, moved: 150, left: 80, again: 30, near_name: 40, nobody: 20, ...counts };
  const names = new Map<string, number>();
  for (const p of people) names.set(p.name, (names.get(p.name) ?? 0) + 1);
  const rows: TruthRow[] = [];
  const used = new Set<string>();
  const take = (kind: RowKind, n: number, pick: (p: Person) => Company | null) => {
    for (let i = 7; i < people.length && rows.filter((r) => r.kind === kind).length < n; i += 3) {
      const person = people[i]!;
      if (used.has(person.id) || names.get(person.name) !== 1) continue;
      const company = pick(person);
      if (!company) continue;
      used.add(person.id);
      rows.push({ kind, personId: person.id, company, cells: [person.name, person.email_address, company.name, ''] });
    }
  };
  take('still', want.still, (p) => current(p)?.company ?? null);
  take('moved', want.moved, (p) => {
    const now = current(p);
    return now ? (p.jobs.find((j) => j.ended_at !== null && j.company.id !== now.company.id && !p.jobs.some((k) => k.ended_at === null && k.company.id === j.company.id))?.company ?? null) : null;
  });
  take('left', want.left, (p) => (current(p) ? null : (p.jobs[0]?.company ?? null)));
  // The same person as an earlier row, under another of their employers: one person asked once for both rows.
  const byId = new Map(people.map((p) => [p.id, p]));
  for (const row of rows.filter((r) => r.kind === 'still').slice(0, want.again)) {
    const person = byId.get(row.personId!)!;
    const other = person.jobs.find((j) => j.company.id !== row.company!.id)?.company ?? row.company!;
    rows.push({ kind: 'again', personId: person.id, company: other, cells: [person.name, person.email_address, other.name, 'again'] });
  }
  for (let i = 11; i < people.length && rows.filter((r) => r.kind === 'near_name').length < want.near_name; i += 5) {
    const person = people[i]!;
    const now = current(person);
    if (used.has(person.id) || !now || !/^[A-Za-z]{6,}$/.test(person.last_name)) continue;
    used.add(person.id);
    const last = person.last_name;
    const typo = `${last.slice(0, 2)}${last[3]}${last[2]}${last.slice(4)}`;
    if (typo === last) continue;
    rows.push({ kind: 'near_name', personId: person.id, company: now.company, cells: [`${person.first_name} ${typo}`, '', now.company.name, ''] });
  }
  for (let i = 0; i < want.nobody; i++) rows.push({ kind: 'nobody', personId: null, company: null, cells: [`Nobody Atall${i}`, `nobody.${i}@nowhere.example`, 'Nowhere Ltd', ''] });
  return rows;
}

/** Where the person is now against the row's company, by the dataset's company ids: the ground truth. */
export function truthOf(person: Person, company: Company): JobChangeStatus {
  const there = person.jobs.filter((j) => j.company.id === company.id);
  if (there.length === 0) return 'unknown';
  if (there.some((j) => j.ended_at === null)) return 'no_change';
  return person.jobs.some((j) => j.ended_at === null) ? 'moved' : 'left';
}

export interface MatchedRow {
  rowIndex: number;
  state: string;
  personId: string | null;
  jobChange: JobChangeStatus | null;
}

/** Every matched row with the person chosen and the job change the app shows for it. */
export async function matchedRows(engine: Engine, projectId: number): Promise<MatchedRow[]> {
  const rows: MatchedRow[] = [];
  for (let offset = 0; ; offset += 500) {
    const page = await ok(engine, 'review.page', { projectId, states: ['auto', 'accepted'], offset, limit: 500 });
    for (const r of page.rows) rows.push({ rowIndex: r.rowIndex, state: r.state, personId: r.top?.id ?? null, jobChange: r.jobChange?.status ?? null });
    if (page.rows.length < 500) return rows;
  }
}

/** Share of matched rows whose job change is the truth about the row's own person and company. */
export function accuracy(rows: readonly MatchedRow[], sheet: readonly TruthRow[], people: ReadonlyMap<string, Person>): { right: number; total: number; wrong: string[] } {
  const wrong: string[] = [];
  for (const row of rows) {
    const truth = sheet[row.rowIndex]!;
    const person = truth.personId ? people.get(truth.personId) : undefined;
    const expected = person && truth.company ? truthOf(person, truth.company) : null;
    if (expected === null || row.jobChange !== expected) wrong.push(`row ${row.rowIndex} (${truth.kind}): ${row.jobChange} where the truth is ${expected}`);
  }
  return { right: rows.length - wrong.length, total: rows.length, wrong };
}

/** The project's row statuses as stored, read beside the running engine (WAL lets a reader in). */
export function rowStatuses(dbPath: string, projectId: number): Map<number, Record<string, unknown>> {
  const db = new Database(dbPath, { readonly: true });
  try {
    const rows = db.prepare('SELECT * FROM row_status WHERE project_id = ? ORDER BY row_index').all(projectId) as Record<string, unknown>[];
    return new Map(rows.map((r) => [r.row_index as number, r]));
  } finally {
    db.close();
  }
}

/** Each matched row's chosen person as the engine reads it (stored as numbers, or whole), by row. */
export function chosenPeople(dbPath: string, projectId: number): Map<number, ChosenPerson | null> {
  const db = new Database(dbPath, { readonly: true });
  try {
    const rows = db.prepare(`SELECT ${ROW_STATUS_COLUMNS} FROM row_status WHERE project_id = ? ORDER BY row_index`).all(projectId) as RowStatusRow[];
    return new Map(rows.map((r) => [r.row_index, toRowStatus(r).chosen]));
  } finally {
    db.close();
  }
}

export function readCsv(path: string): Record<string, string>[] {
  const text = readFileSync(path, 'utf8').replace(/^\uFEFF/, '');
  return Papa.parse<Record<string, string>>(text, { header: true, skipEmptyLines: true }).data;
}

/**
 * A project of the sheet in `file` (HEADERS' columns) matched to the end, then, once the simulator's world has moved on
 * (`share` of its people, `seed`), refreshed to the end: what the review and its figures are tested on after a refresh.
 */
export async function refreshedProject(engine: Engine, sim: Simulator, file: string, moveOn: { share: number; seed: number }): Promise<number> {
  const detail = await ok(engine, 'projects.import', { file });
  const projectId = detail.summary.id;
  await ok(engine, 'mapping.save', { projectId, mapping: { fullName: 0, email: 1, company: 2 }, strategies: detail.strategies });
  expect((await runToEnd(engine, projectId)).status).toBe('done');
  sim.moveOn(moveOn);
  await ok(engine, 'refresh.start', { projectId });
  expect((await engine.refreshSettled(projectId))?.status).toBe('done');
  return projectId;
}
