import type { Database } from 'better-sqlite3';
import { STRATEGIES, type Mapping, type Strategy } from '../../../shared/model';
import { plannedQueries, rowInput, type RowInput } from '../matching';
import { BLANK_ROW, parseCells } from '../rows/row-cells';
import { queryDigests } from '../store/lookups';
import { storedQuery } from '../store/query-text';

/** A range of a project's rows to work out, and how: what a plan's page needs besides the database's ids. */
export interface PagePlanInput {
  projectId: number;
  /** The rows with from <= row_index < to. */
  from: number;
  to: number;
  mapping: Mapping;
  strategies: Strategy[];
  baseUrl: string;
  orgId: string;
  /** Whether each query's digest is taken (else the plan takes those it needs itself). */
  hash: boolean;
}

/**
 * The part of planning a page that needs no database but its rows (cells parsed, each row's queries in strategy order
 * with their stored text, its label, the queries' digests), made by the verdict worker for the next page while the
 * engine's thread gives the last one its ids and writes it (runs/plan-queries.ts). Compact, so that it crosses threads
 * as a few buffers and one string, not an object per row: blank rows are left out.
 */
export interface PlannedPage {
  /** The row indexes of the rows read, blank ones too (the range planned): -1 when there were none. */
  first: number;
  last: number;
  /** The rows with something in them, in order. */
  rows: Int32Array;
  /** Where each row's steps end in `strategies` and `digests`. */
  stepEnds: Int32Array;
  /** Each step's strategy, by its place in STRATEGIES. */
  strategies: Uint8Array;
  /** Each step's query's digest (store/lookups.ts queryDigests); null when not taken (PagePlanInput.hash). */
  digests: BigInt64Array | null;
  /** Each row's label followed by its steps' queries as stored (store/query-text.ts storedQuery), one after another. */
  text: string;
  /** Where each of those texts ends in `text`. */
  textEnds: Int32Array;
}

/** The rows of a project's range, with their cells as stored. */
export function pageRows(db: Database, projectId: number, from: number, to: number): [rowIndex: number, cells: string][] {
  return db.prepare('SELECT row_index, cells FROM rows WHERE project_id = ? AND row_index >= ? AND row_index < ? ORDER BY row_index').raw().all(projectId, from, to) as [number, string][];
}

/** Works out a page of rows (pageRows) as a plan needs it. */
export function plannedPage(rows: readonly [number, string][], input: PagePlanInput): PlannedPage {
  const { mapping, strategies } = input;
  const digestOf = input.hash ? queryDigests(input.baseUrl, input.orgId) : null;
  const rowIndexes: number[] = [];
  const stepEnds: number[] = [];
  const stepStrategies: number[] = [];
  const digests: bigint[] = [];
  const texts: string[] = [];
  const textEnds: number[] = [];
  let textEnd = 0;
  const addText = (text: string) => {
    texts.push(text);
    textEnds.push((textEnd += text.length));
  };
  for (const [rowIndex, text] of rows) {
    // A blank row of the sheet, kept at its place: nothing to ask, no status, not reviewed.
    if (text === BLANK_ROW) continue;
    const cells = parseCells(text);
    const row = rowInput(cells, mapping);
    rowIndexes.push(rowIndex);
    addText(rowLabel(row, cells));
    const signatures: string[] = [];
    for (const p of plannedQueries(row, strategies)) {
      const signature = storedQuery(p.query);
      // Two strategies asking the very same thing would only ask it twice.
      if (signatures.includes(signature)) continue;
      signatures.push(signature);
      addText(signature);
      stepStrategies.push(STRATEGIES.indexOf(p.strategy));
      if (digestOf) digests.push(digestOf(p.query));
    }
    stepEnds.push(stepStrategies.length);
  }
  return {
    first: rows.length > 0 ? rows[0]![0] : -1,
    last: rows.length > 0 ? rows[rows.length - 1]![0] : -1,
    rows: Int32Array.from(rowIndexes),
    stepEnds: Int32Array.from(stepEnds),
    strategies: Uint8Array.from(stepStrategies),
    digests: digestOf ? BigInt64Array.from(digests) : null,
    text: texts.join(''),
    textEnds: Int32Array.from(textEnds),
  };
}

/** The buffers of a planned page, handed over to the other thread rather than copied. */
export function plannedPageBuffers(page: PlannedPage): ArrayBuffer[] {
  const arrays = [page.rows, page.stepEnds, page.strategies, page.textEnds, ...(page.digests ? [page.digests] : [])];
  return arrays.map((array) => array.buffer as ArrayBuffer);
}

/** What the review list shows for a row: the name, else the e-mail, else the profile, else its first cell. */
export function rowLabel(input: RowInput, cells: string[]): string {
  const label =
    input.name ??
    (input.email?.ok ? input.email.email : null) ??
    (input.profile?.ok ? input.profile.slug : null) ??
    cells.find((c) => typeof c === 'string' && c.trim() !== '') ??
    '';
  return label.trim().slice(0, 200);
}
