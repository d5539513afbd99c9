import type { ExportCell, ExportRows } from './export-target';

/** Rows of a plain list (one that needs no waiting) handed over together. */
const LIST_PAGE_ROWS = 1000;

/** The rows as pages, whichever way they are given: rows that come one at a time make pages of one. */
export async function* pagesOf(rows: ExportRows): AsyncGenerator<readonly ExportCell[][]> {
  if ('pages' in rows) {
    yield* rows.pages;
  } else if (Symbol.asyncIterator in rows) {
    for await (const row of rows) yield [row];
  } else {
    let page: ExportCell[][] = [];
    for (const row of rows) {
      page.push(row);
      if (page.length === LIST_PAGE_ROWS) {
        yield page;
        page = [];
      }
    }
    if (page.length > 0) yield page;
  }
}
