// The searches, the parts they were split into, and the people they found (migration 3). Each landed page is one
// transaction, so a crash or a cancel keeps every page that arrived and never half of one.
import type { Database } from 'better-sqlite3';
import type { SatisfyingJob, SearchProgress, SearchResultRow, SearchStatus, SearchSummary } from '../../../shared/contract';
import type { PersonJson, PersonSummary } from '../../../shared/model';
import type { SearchFilter } from '../../../shared/search-filters';

export interface SearchRow {
  id: number;
  name: string;
  filters: string;
  request_key: string;
  filters_key: string;
  base_url: string;
  org_id: string;
  status: SearchStatus;
  message: string | null;
  chunk_size: number;
  page_size: number;
  pages: number;
  calls: number;
  people: number;
  created_at: string;
  updated_at: string;
  finished_at: string | null;
}

export interface NewSearch {
  name: string;
  filters: SearchFilter[];
  requestKey: string;
  filtersKey: string;
  baseUrl: string;
  orgId: string;
  chunkSize: number;
  pageSize: number;
  parts: SearchFilter[][];
  now: string;
}

export interface LandedPerson {
  personId: string;
  summary: PersonSummary;
  person: PersonJson;
  job: SatisfyingJob | null;
}

export interface PendingPart {
  chunkIndex: number;
  filters: SearchFilter[];
}

export function insertSearch(db: Database, s: NewSearch): number {
  return db.transaction(() => {
    const { lastInsertRowid } = db
      .prepare(
        `INSERT INTO searches (name, filters, request_key, filters_key, base_url, org_id, status, chunk_size, page_size, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, 'running', ?, ?, ?, ?)`,
      )
      .run(s.name, JSON.stringify(s.filters), s.requestKey, s.filtersKey, s.baseUrl, s.orgId, s.chunkSize, s.pageSize, s.now, s.now);
    const id = Number(lastInsertRowid);
    const part = db.prepare(`INSERT INTO search_chunks (search_id, chunk_index, filters, status) VALUES (?, ?, ?, 'pending')`);
    s.parts.forEach((filters, i) => part.run(id, i, JSON.stringify(filters)));
    return id;
  })();
}

export function getSearchRow(db: Database, id: number): SearchRow | null {
  return (db.prepare('SELECT * FROM searches WHERE id = ?').get(id) as SearchRow | undefined) ?? null;
}

export function listSearchRows(db: Database): SearchRow[] {
  return db.prepare('SELECT * FROM searches ORDER BY updated_at DESC, id DESC').all() as SearchRow[];
}

/** The newest search with this request key (same service, organization and filters). */
export function latestByRequestKey(db: Database, requestKey: string): SearchRow | null {
  return (db.prepare('SELECT * FROM searches WHERE request_key = ? ORDER BY id DESC LIMIT 1').get(requestKey) as SearchRow | undefined) ?? null;
}

/** The newest finished search with these filters on any service: what offline can still answer with. */
export function latestDoneByFiltersKey(db: Database, filtersKey: string): SearchRow | null {
  return (
    (db.prepare(`SELECT * FROM searches WHERE filters_key = ? AND status = 'done' ORDER BY finished_at DESC, id DESC LIMIT 1`).get(filtersKey) as
      | SearchRow
      | undefined) ?? null
  );
}

export function pendingParts(db: Database, searchId: number): PendingPart[] {
  const rows = db
    .prepare(`SELECT chunk_index, filters FROM search_chunks WHERE search_id = ? AND status = 'pending' ORDER BY chunk_index`)
    .all(searchId) as { chunk_index: number; filters: string }[];
  return rows.map((r) => ({ chunkIndex: r.chunk_index, filters: JSON.parse(r.filters) as SearchFilter[] }));
}

/**
 * Stores one landed page in one transaction: new people (a person already found keeps their first row), the
 * part's token and count, and the search's counters. Returns how many people were new.
 */
export function commitPage(
  db: Database,
  page: { searchId: number; chunkIndex: number; people: LandedPerson[]; token: string | null; count: number | null; now: string },
): number {
  return db.transaction(() => {
    const { pages } = db.prepare('SELECT pages FROM searches WHERE id = ?').get(page.searchId) as { pages: number };
    const pageNumber = pages + 1;
    const insert = db.prepare(
      `INSERT INTO search_results (search_id, person_id, name, title, company, person, job, first_page)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (search_id, person_id) DO NOTHING`,
    );
    let added = 0;
    for (const p of page.people) {
      const { changes } = insert.run(
        page.searchId,
        p.personId,
        p.summary.name,
        p.summary.title,
        p.summary.company,
        JSON.stringify(p.person),
        p.job ? JSON.stringify(p.job) : null,
        pageNumber,
      );
      added += changes;
    }
    db.prepare(
      `UPDATE search_chunks SET pages = pages + 1, last_token = ?, service_count = coalesce(?, service_count)
       WHERE search_id = ? AND chunk_index = ?`,
    ).run(page.token, page.count, page.searchId, page.chunkIndex);
    db.prepare('UPDATE searches SET pages = pages + 1, calls = calls + 1, people = people + ?, updated_at = ? WHERE id = ?').run(
      added,
      page.now,
      page.searchId,
    );
    return added;
  })();
}

export function markPartDone(db: Database, searchId: number, chunkIndex: number): void {
  db.prepare(`UPDATE search_chunks SET status = 'done' WHERE search_id = ? AND chunk_index = ?`).run(searchId, chunkIndex);
}

export function setSearchStatus(db: Database, id: number, status: SearchStatus, message: string | null, now: string): void {
  const finished = status === 'done' ? now : null;
  db.prepare('UPDATE searches SET status = ?, message = ?, updated_at = ?, finished_at = ? WHERE id = ?').run(status, message, now, finished, id);
}

/** A search left 'running' by a process that ended (crash, quit) is shown as stopped, ready to resume. */
export function markInterrupted(db: Database, now: string): number {
  return db
    .prepare(`UPDATE searches SET status = 'cancelled', message = ?, updated_at = ? WHERE status = 'running'`)
    .run('Interrupted when Matchdesk stopped. Every page that arrived is kept; resume to go on.', now).changes;
}

export function deleteSearch(db: Database, id: number): boolean {
  return db.prepare('DELETE FROM searches WHERE id = ?').run(id).changes > 0;
}

export function searchProgress(db: Database, row: SearchRow, extra: { fromCache?: boolean; offline?: boolean } = {}): SearchProgress {
  const parts = db
    .prepare(
      `SELECT count(*) AS total, coalesce(sum(status = 'done'), 0) AS done, sum(service_count) AS counted
       FROM search_chunks WHERE search_id = ?`,
    )
    .get(row.id) as { total: number; done: number; counted: number | null };
  return {
    searchId: row.id,
    name: row.name,
    status: row.status,
    fromCache: extra.fromCache ?? false,
    offline: extra.offline ?? false,
    partsTotal: parts.total,
    partsDone: parts.done,
    pages: row.pages,
    calls: row.calls,
    people: row.people,
    serviceCount: parts.counted,
    message: row.message,
    startedAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export function searchSummary(db: Database, row: SearchRow): SearchSummary {
  return {
    ...searchProgress(db, row),
    filters: JSON.parse(row.filters) as SearchFilter[],
    baseUrl: row.base_url,
    orgId: row.org_id,
    finishedAt: row.finished_at,
  };
}

interface ResultRow {
  person_id: string;
  person: string;
  job: string | null;
  first_page: number;
}

/** A page of results in the order people were first seen; `text` narrows to names, titles or companies containing it. */
export function resultsPage(
  db: Database,
  searchId: number,
  opts: { offset: number; limit: number; text?: string },
  summarize: (person: PersonJson) => PersonSummary,
): { rows: SearchResultRow[]; total: number } {
  const text = opts.text?.trim();
  const where = text ? `search_id = @id AND (name LIKE @like ESCAPE '\\' OR title LIKE @like ESCAPE '\\' OR company LIKE @like ESCAPE '\\')` : 'search_id = @id';
  const params = { id: searchId, like: text ? `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : null };
  const { total } = db.prepare(`SELECT count(*) AS total FROM search_results WHERE ${where}`).get(params) as { total: number };
  const rows = db
    .prepare(`SELECT person_id, person, job, first_page FROM search_results WHERE ${where} ORDER BY rowid LIMIT @limit OFFSET @offset`)
    .all({ ...params, limit: opts.limit, offset: opts.offset }) as ResultRow[];
  return { rows: rows.map((r) => toResultRow(r, summarize)), total };
}

/**
 * Every result in first-seen order, read a batch at a time: an export never holds the whole search in memory, and
 * no statement stays open across the writer's awaits (a page landing meanwhile would find the connection busy).
 */
export function* allResults(db: Database, searchId: number, summarize: (person: PersonJson) => PersonSummary, batch = 1_000): Generator<SearchResultRow> {
  const statement = db.prepare(
    'SELECT rowid, person_id, person, job, first_page FROM search_results WHERE search_id = ? AND rowid > ? ORDER BY rowid LIMIT ?',
  );
  for (let after = 0; ; ) {
    const rows = statement.all(searchId, after, batch) as (ResultRow & { rowid: number })[];
    for (const row of rows) yield toResultRow(row, summarize);
    if (rows.length < batch) return;
    after = rows[rows.length - 1]!.rowid;
  }
}

function toResultRow(r: ResultRow, summarize: (person: PersonJson) => PersonSummary): SearchResultRow {
  const person = JSON.parse(r.person) as PersonJson;
  return {
    personId: r.person_id,
    summary: summarize(person),
    job: r.job ? (JSON.parse(r.job) as SatisfyingJob) : null,
    person,
    firstPage: r.first_page,
  };
}
