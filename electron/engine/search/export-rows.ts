import type { SearchResultRow } from '../../../shared/contract';
import type { ExportCell } from '../export';

/** One row per person: who they are now, then the job that satisfied the search. */
const COLUMNS: readonly [string, (r: SearchResultRow) => string | null][] = [
  ['Person id', (r) => r.summary.id ?? r.personId],
  ['Name', (r) => r.summary.name],
  ['Current title', (r) => r.summary.title],
  ['Current company', (r) => r.summary.company],
  ['Profile slug', (r) => r.summary.social],
  ['Location', (r) => r.summary.location],
  ['Job company', (r) => r.job?.company ?? null],
  ['Job title', (r) => r.job?.title ?? null],
  ['Job function', (r) => r.job?.function ?? null],
  ['Job started', (r) => r.job?.started ?? null],
  ['Job ended', (r) => r.job?.ended ?? null],
];

export function exportHeaders(): string[] {
  return COLUMNS.map(([header]) => header);
}

export function exportRow(result: SearchResultRow): ExportCell[] {
  return COLUMNS.map(([, read]) => read(result));
}
