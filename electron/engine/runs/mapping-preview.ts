import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Database } from 'better-sqlite3';
import type { MappingPreview, MappingSample, PreviewRow } from '../../../shared/contract';
import { MAPPED_FIELDS, type MappedField, type Mapping, type Strategy } from '../../../shared/model';
import { CancellableCalls } from '../cancellable-calls';
import { foldWhitespace, normalizeEmail, plannedQueries, profileSlugFromUrl, rowInput, type RowInput } from '../matching';
import { EngineError } from '../engine-errors';
import { sheetRowNumber, type ProjectRecord } from '../rows/project-record';
import { BLANK_ROW, parseCells } from '../rows/row-cells';

const SAMPLES_PER_FIELD = 5;
/** Rows a warning shows of those it counts: enough to see what is wrong, never the whole sheet. */
const EXAMPLE_ROWS = 20;
const EXAMPLE_CELL_CHARS = 200;
const SAMPLE_SCAN_ROWS = 200;
const PAGE_ROWS = 5000;
/** Whole-sheet previews kept, the last asked for kept longest: a mapping the screen comes back to answers at once. */
const KEPT_PREVIEWS = 16;

export interface PreviewRequest {
  mapping: Mapping;
  strategies: Strategy[];
  /** The asking screen (its own id): its newer preview lets its older one go; another screen's goes on. */
  screen?: string;
  /** Only the sheet's first rows, for the samples while the whole sheet is counted (the samples come from the first 200). */
  firstRows?: number;
}

/**
 * The mapping screen's previews. The screen asks again as the mapping changes, and a whole sheet's preview walks every
 * row (seconds in a large sheet): the preview it asked before is let go, so the last answers in its own time instead of
 * after every earlier one. A sheet's rows never change once imported, so a whole-sheet preview stays true: the last
 * few are kept, and a mapping the screen comes back to (opened again, a column chosen back) answers at once.
 */
export class MappingPreviews {
  private readonly calls = new CancellableCalls<string>();
  private readonly kept = new Map<string, MappingPreview>();

  async preview(db: Database, project: ProjectRecord, request: PreviewRequest): Promise<MappingPreview> {
    const { mapping, strategies, firstRows } = request;
    const asking = `${project.id} ${request.screen ?? ''}${firstRows === undefined ? '' : ' first rows'}`;
    this.calls.cancel(asking);
    if (firstRows !== undefined) return this.calls.run(asking, (signal) => mappingPreview(db, project, mapping, strategies, signal, firstRows));
    const key = `${project.id} ${JSON.stringify([mapping, strategies])}`;
    const kept = this.kept.get(key);
    if (kept) {
      this.kept.delete(key);
      this.kept.set(key, kept);
      return kept;
    }
    const made = await this.calls.run(asking, (signal) => mappingPreview(db, project, mapping, strategies, signal));
    this.kept.set(key, made);
    for (const oldest of this.kept.keys()) {
      if (this.kept.size <= KEPT_PREVIEWS) break;
      this.kept.delete(oldest);
    }
    return made;
  }

  /** The project is gone: the previews kept of it are dropped. */
  forget(projectId: number): void {
    for (const key of this.kept.keys()) if (key.startsWith(`${projectId} `)) this.kept.delete(key);
  }

  /** The engine is closing. */
  cancelAll(reason?: unknown): void {
    this.calls.cancelAll(reason);
  }
}

/**
 * What a mapping would make of the sheet before it is saved: a few normalized samples per field, how many
 * rows would have nothing to ask, and the kinds of problems found, counted over every row (seconds in a large sheet,
 * a page at a time with other calls' turns between) or over the first `firstRows`. `signal`: the preview is no longer
 * wanted (another mapping's replaced it), and it stops at its next page.
 */
export async function mappingPreview(
  db: Database,
  project: ProjectRecord,
  mapping: Mapping,
  strategies: Strategy[],
  signal?: AbortSignal,
  firstRows = Number.POSITIVE_INFINITY,
): Promise<MappingPreview> {
  const fields = {} as MappingPreview['fields'];
  for (const field of MAPPED_FIELDS) {
    const column = mapping[field];
    fields[field] = {
      column: column ?? null,
      header: column === undefined ? null : (project.headers[column] ?? null),
      samples: [],
    };
  }

  const page = db.prepare('SELECT row_index, cells FROM rows WHERE project_id = ? AND row_index >= ? ORDER BY row_index LIMIT ?');
  const problems = new Map<string, { count: number; examples: PreviewRow[] }>();
  let unusableRows = 0;
  const unusableExamples: PreviewRow[] = [];
  // "Name alone" would look up a row with a name and nothing else usable: counted only when it is not chosen.
  const withName: Strategy[] | null = strategies.includes('name') ? null : [...strategies, 'name'];
  let unusableByName = 0;
  const example = (rowIndex: number, cells: string[]): PreviewRow => ({ rowNumber: sheetRowNumber(project, rowIndex), cells: cells.map((c) => c.slice(0, EXAMPLE_CELL_CHARS)) });
  let scanned = 0;
  for (let from = 0; scanned < firstRows; ) {
    const rows = page.all(project.id, from, Math.min(PAGE_ROWS, firstRows - scanned)) as { row_index: number; cells: string }[];
    if (rows.length === 0) break;
    for (const row of rows) {
      if (row.cells === BLANK_ROW) continue;
      const cells = parseCells(row.cells);
      const input = rowInput(cells, mapping);
      if (plannedQueries(input, strategies).length === 0) {
        unusableRows++;
        if (unusableExamples.length < EXAMPLE_ROWS) unusableExamples.push(example(row.row_index, cells));
        if (withName && plannedQueries(input, withName).length > 0) unusableByName++;
      }
      for (const kind of problemKinds(input)) {
        const problem = problems.get(kind) ?? { count: 0, examples: [] };
        problem.count++;
        if (problem.examples.length < EXAMPLE_ROWS) problem.examples.push(example(row.row_index, cells));
        problems.set(kind, problem);
      }
      if (scanned++ < SAMPLE_SCAN_ROWS) addSamples(fields, mapping, cells);
    }
    from = rows[rows.length - 1]!.row_index + 1;
    await nextTurn();
    if (signal?.aborted) throw new EngineError('cancelled', 'The preview of this mapping was let go: a preview of a newer mapping replaced it.');
  }

  return {
    fields,
    rowsChecked: scanned,
    unusableRows,
    unusableExamples,
    unusableByName: withName ? unusableByName : null,
    problems: [...problems].map(([message, { count, examples }]) => ({ message, count, examples })).sort((a, b) => b.count - a.count),
  };
}

function addSamples(fields: MappingPreview['fields'], mapping: Mapping, cells: string[]): void {
  for (const field of MAPPED_FIELDS) {
    const column = mapping[field];
    const target = fields[field];
    if (column === undefined || target.samples.length >= SAMPLES_PER_FIELD) continue;
    const raw = cells[column] ?? '';
    if (foldWhitespace(raw) === '') continue;
    target.samples.push(sampleOf(field, raw));
  }
}

function sampleOf(field: MappedField, raw: string): MappingSample {
  if (field === 'email') {
    const r = normalizeEmail(raw);
    return r.ok ? { raw, normalized: r.email, problem: null } : { raw, normalized: null, problem: r.message };
  }
  if (field === 'profile') {
    const r = profileSlugFromUrl(raw);
    return r.ok ? { raw, normalized: r.slug, problem: null } : { raw, normalized: null, problem: r.message };
  }
  return { raw, normalized: foldWhitespace(raw) || null, problem: null };
}

/** Problems by kind, not by value, so the list says "37 company pages" rather than 37 lines. */
function problemKinds(input: RowInput): string[] {
  const kinds: string[] = [];
  if (input.email && !input.email.ok && input.email.reason === 'invalid') kinds.push('E-mail cells that are not valid e-mail addresses');
  const p = input.profile;
  if (p && !p.ok) {
    if (p.reason === 'company_page') kinds.push('Company or school pages instead of personal profile links');
    else if (p.reason === 'other_host') kinds.push('Profile cells linking to a site other than LinkedIn');
    else if (p.reason === 'not_a_profile') kinds.push('LinkedIn links that do not point to a personal profile');
    else if (p.reason === 'invalid') kinds.push('Profile cells that are neither a profile link nor a slug');
  }
  return kinds;
}
