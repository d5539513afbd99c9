import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Database } from 'better-sqlite3';
import type { MappingPreview, MappingSample } from '../../../shared/contract';
import { MAPPED_FIELDS, type MappedField, type Mapping, type Strategy } from '../../../shared/model';
import { foldWhitespace, normalizeEmail, plannedQueries, profileSlugFromUrl, rowInput, type RowInput } from '../matching';
import { EngineError } from '../engine-errors';
import type { ProjectRecord } from '../projects/project-record';
import { parseCells } from './row-cells';

const SAMPLES_PER_FIELD = 5;
const SAMPLE_SCAN_ROWS = 200;
const PAGE_ROWS = 5000;

/**
 * What a mapping would make of the sheet before it is saved: a few normalized samples per field, how many
 * rows would have nothing to ask, and the kinds of problems found, counted over every row (~2.5 s at a million rows,
 * a page at a time with other calls' turns between). `signal`: the preview is no longer wanted (another mapping's
 * replaced it), and it stops at its next page.
 */
export async function mappingPreview(db: Database, project: ProjectRecord, mapping: Mapping, strategies: Strategy[], signal?: AbortSignal): Promise<MappingPreview> {
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
  const problems = new Map<string, number>();
  let unusableRows = 0;
  let scanned = 0;
  for (let from = 0; ; ) {
    const rows = page.all(project.id, from, PAGE_ROWS) as { row_index: number; cells: string }[];
    if (rows.length === 0) break;
    for (const row of rows) {
      const cells = parseCells(row.cells);
      const input = rowInput(cells, mapping);
      if (plannedQueries(input, strategies).length === 0) unusableRows++;
      for (const problem of problemKinds(input)) problems.set(problem, (problems.get(problem) ?? 0) + 1);
      if (scanned++ < SAMPLE_SCAN_ROWS) addSamples(fields, mapping, cells);
    }
    from = rows[rows.length - 1]!.row_index + 1;
    await nextTurn();
    if (signal?.aborted) throw new EngineError('cancelled', 'The preview of this mapping was let go: a preview of a newer mapping replaced it.');
  }

  return {
    fields,
    unusableRows,
    problems: [...problems].map(([message, count]) => ({ message, count })).sort((a, b) => b.count - a.count),
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
