import type { Database, Statement } from 'better-sqlite3';
import { hash } from 'node:crypto';
import { DigestMap } from '../digest-map';
import type { Migration, SliceMover } from '../migration';

// Every answer was keyed by its query's 64-hex key (an index written at random: a page per new answer), and every row
// copied that key, and every planned step the query's text, beside a per-project id. A query is now stored once, in
// `queries`, with a global integer id; answers are keyed by it (lookups' rowid) and the row tables keep only the id.
// A query is found again by the first 64 bits of its key, read into memory (store/query-ids.ts) rather than indexed.
// At a million rows the move takes a while: it fills new tables beside the old ones a slice at a time (the rows with
// their plan steps, then the answers), and `up` swaps them in, so a folder is in one layout or the other.
export const integerQueryIds: Migration = {
  version: 28,
  name: 'queries stored once with an integer id; answers and rows keyed by it',
  slices: {
    reads: ['lookups', 'row_queries', 'row_status'],
    begin(db) {
      db.exec(`
        CREATE TABLE migration_28_queries (
          id INTEGER PRIMARY KEY,
          -- The first 64 bits of the query's key (store/lookups.ts queryKey), a SHA-256 of its service and terms.
          digest INTEGER NOT NULL,
          -- Its terms as [field_name, search_term] pairs (runs/query-records.ts storedQuery); NULL only for a query known
          -- before this version by its key alone, whose text no plan or answer kept.
          query TEXT
        );
        CREATE TABLE migration_28_answers (
          query_id INTEGER PRIMARY KEY,
          fetched_at INTEGER NOT NULL,
          status TEXT NOT NULL CHECK (status IN ('ok', 'error')),
          candidate_count INTEGER,
          -- An 'ok' answer's candidates as the confidence model read them, JSON: answers stored before migration 25 only.
          facts TEXT,
          candidates TEXT,
          error TEXT,
          people TEXT,
          ranks TEXT
        );
        CREATE TABLE migration_28_steps (
          project_id INTEGER NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
          row_index INTEGER NOT NULL,
          step INTEGER NOT NULL,
          strategy TEXT NOT NULL,
          query_id INTEGER NOT NULL,
          PRIMARY KEY (project_id, row_index, step)
        ) WITHOUT ROWID;
      `);
      // The rows as they are, but for the key: their table made from its own statement, as dropping the column would.
      const rowStatus = db.prepare("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'row_status'").pluck().get() as string;
      db.exec(rowStatus.replace(/^CREATE TABLE\s+"?row_status"?/, 'CREATE TABLE migration_28_row_status'));
      db.exec('ALTER TABLE migration_28_row_status DROP COLUMN query_key');
      return db.prepare('SELECT (SELECT count(*) FROM row_status) + (SELECT count(*) FROM lookups)').pluck().get() as number;
    },
    discard(db) {
      db.exec(`
        DROP TABLE IF EXISTS migration_28_queries;
        DROP TABLE IF EXISTS migration_28_answers;
        DROP TABLE IF EXISTS migration_28_steps;
        DROP TABLE IF EXISTS migration_28_row_status;
        DROP TABLE IF EXISTS temp.migration_28_slice;
      `);
    },
    mover: (db) => new QueryIdMove(db),
  },
  up(db) {
    const rowIndexes = db.prepare("SELECT sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'row_status' AND sql IS NOT NULL").pluck().all() as string[];
    db.exec(`
      DROP TABLE lookups;
      ALTER TABLE migration_28_answers RENAME TO lookups;
      CREATE INDEX lookups_by_answer ON lookups (fetched_at, query_id, status, candidate_count);
      DROP TABLE row_queries;
      ALTER TABLE migration_28_steps RENAME TO row_queries;
      DROP TABLE row_status;
      ALTER TABLE migration_28_row_status RENAME TO row_status;
      ALTER TABLE migration_28_queries RENAME TO queries;
      -- The queries a deleted project named and no answer keeps: removed once no other project names them
      -- (projects/project-cleanup.ts). \`walked\`: listed before the walk of the other projects going on began.
      CREATE TABLE query_cleanup (id INTEGER PRIMARY KEY, walked INTEGER NOT NULL DEFAULT 0);
      DROP TABLE IF EXISTS temp.migration_28_slice;
    `);
    for (const sql of rowIndexes) db.exec(sql);
  },
};

/** Where the move is: after a row (the rows and their plan steps), then after an answer (lookups' rowid). */
type Position = { rows: [projectId: number, rowIndex: number] } | { answers: number };

/** One row's plan step (`step`), or the row's own key (from row_status, after its steps). */
interface Named {
  project_id: number;
  row_index: number;
  step: number;
  strategy: string | null;
  query_key: string | null;
  query: string | null;
}

const AFTER_STEPS = 15;

/**
 * Gives each query an id in the order the rows first name it, project by project, then the answers no row names (a
 * project's rows and its answers filed near each other), as the ids were given when this ran in one statement.
 */
class QueryIdMove implements SliceMover {
  /** The ids given so far by their digest, and the ones whose text is not known yet. */
  private readonly ids = new DigestMap(1 << 16);
  private readonly textless = new Set<number>();
  private lastId = 0;
  private readonly statements: Record<'since' | 'addQuery' | 'addText' | 'addStep' | 'sliceId', Statement>;

  constructor(private readonly db: Database) {
    db.exec('CREATE TEMP TABLE IF NOT EXISTS migration_28_slice (at INTEGER PRIMARY KEY, query_id INTEGER NOT NULL)');
    this.statements = {
      since: db.prepare('SELECT id, digest, query IS NULL AS textless FROM migration_28_queries WHERE id > ? ORDER BY id').raw().safeIntegers(true),
      addQuery: db.prepare('INSERT INTO migration_28_queries (id, digest, query) VALUES (?, ?, ?)'),
      addText: db.prepare('UPDATE migration_28_queries SET query = ? WHERE id = ? AND query IS NULL'),
      addStep: db.prepare('INSERT INTO migration_28_steps (project_id, row_index, step, strategy, query_id) VALUES (?, ?, ?, ?, ?)'),
      sliceId: db.prepare('INSERT INTO temp.migration_28_slice (at, query_id) VALUES (?, ?)'),
    };
  }

  slice(at: string | null, limit: number): { position: string; moved: number; phase: string } | null {
    this.catchUp();
    const position = (at === null ? { rows: [0, -1] } : JSON.parse(at)) as Position;
    this.db.exec('CREATE TEMP TABLE IF NOT EXISTS migration_28_slice (at INTEGER PRIMARY KEY, query_id INTEGER NOT NULL)');
    try {
      return 'rows' in position ? this.rows(position.rows, limit) : this.answers(position.answers, limit);
    } finally {
      this.db.exec('DELETE FROM temp.migration_28_slice');
    }
  }

  /** The next `limit` rows of row_status, with the plan steps of the rows up to the last of them. */
  private rows([project, row]: [number, number], limit: number): { position: string; moved: number; phase: string } {
    const db = this.db;
    const last = db.prepare('SELECT project_id, row_index FROM row_status WHERE (project_id, row_index) > (?, ?) ORDER BY project_id, row_index LIMIT 1 OFFSET ?').raw().get(project, row, limit - 1) as
      | [number, number]
      | undefined;
    // The last slice takes every row left, plan steps of rows with no status included.
    const upTo = last ?? [Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER];
    // A deleted project's rows wait in these tables for their removal (projects/project-cleanup.ts): not moved. The
    // `+` keeps that test off the primary key, which SQLite would otherwise search by project alone, a whole project a slice.
    const range = 'WHERE (project_id, row_index) > (?, ?) AND (project_id, row_index) <= (?, ?) AND +project_id IN (SELECT id FROM projects)';
    const named = [
      ...(db.prepare(`SELECT project_id, row_index, step, strategy, query_key, query FROM row_queries ${range}`).all(project, row, ...upTo) as Named[]),
      ...(db.prepare(`SELECT project_id, row_index, ${AFTER_STEPS} AS step, NULL AS strategy, query_key, NULL AS query FROM row_status ${range} AND query_key IS NOT NULL`).all(project, row, ...upTo) as Named[]),
    ].sort((a, b) => a.project_id - b.project_id || a.row_index - b.row_index || a.step - b.step);
    for (const n of named) {
      const id = this.idOf(n.query_key!, n.query);
      if (n.step !== AFTER_STEPS) this.statements.addStep.run(n.project_id, n.row_index, n.step, n.strategy, id);
      // A row's place as one number, for the join below: row indexes stay far below 2^32.
      else this.statements.sliceId.run(n.project_id * 2 ** 32 + n.row_index, id);
    }
    const columns = (db.prepare("SELECT name FROM pragma_table_info('migration_28_row_status')").pluck().all() as string[]).filter((c) => c !== 'query_id');
    const moved = db
      .prepare(
        `INSERT INTO migration_28_row_status (${columns.join(', ')}, query_id)
         SELECT ${columns.map((c) => `rs.${c}`).join(', ')}, CASE WHEN rs.query_key IS NULL THEN rs.query_id ELSE s.query_id END
         FROM row_status AS rs LEFT JOIN temp.migration_28_slice AS s ON s.at = rs.project_id * 4294967296 + rs.row_index
         WHERE (rs.project_id, rs.row_index) > (?, ?) AND (rs.project_id, rs.row_index) <= (?, ?) AND +rs.project_id IN (SELECT id FROM projects)
         ORDER BY rs.project_id, rs.row_index`,
      )
      .run(project, row, ...upTo).changes;
    const next: Position = last ? { rows: last } : { answers: 0 };
    return { position: JSON.stringify(next), moved, phase: 'rows' };
  }

  /** The next `limit` answers, in the order they were stored. */
  private answers(after: number, limit: number): { position: string; moved: number; phase: string } | null {
    const db = this.db;
    const answers = db.prepare('SELECT rowid, query_key, query FROM lookups WHERE rowid > ? ORDER BY rowid LIMIT ?').raw().all(after, limit) as [number, string, string][];
    if (answers.length === 0) return null;
    for (const [rowid, key, query] of answers) this.statements.sliceId.run(rowid, this.idOf(key, query));
    // Two keys with one digest are one query to the app (store/digest-ids.ts): the answer stored first is kept.
    db.exec(`
      INSERT OR IGNORE INTO migration_28_answers (query_id, fetched_at, status, candidate_count, facts, candidates, error, people, ranks)
        SELECT s.query_id, l.fetched_at, l.status, l.candidate_count, l.facts, l.candidates, l.error, l.people, l.ranks
        FROM temp.migration_28_slice AS s JOIN lookups AS l ON l.rowid = s.at ORDER BY s.query_id
    `);
    return { position: JSON.stringify({ answers: answers[answers.length - 1]![0] } satisfies Position), moved: answers.length, phase: 'answers' };
  }

  /** The id of the query with this key: the next one when it is new. A text found later fills in one not known. */
  private idOf(key: string, query: string | null): number {
    const digest = keyDigest(key);
    const known = this.ids.get(digest);
    if (known !== undefined) {
      if (query !== null && this.textless.has(known)) {
        const text = storedText(query);
        if (text !== null) {
          this.statements.addText.run(text, known);
          this.textless.delete(known);
        }
      }
      return known;
    }
    const id = ++this.lastId;
    const text = query === null ? null : storedText(query);
    this.statements.addQuery.run(id, digest, text);
    this.ids.set(digest, id);
    if (text === null) this.textless.add(id);
    return id;
  }

  /** The ids given since this connection last looked, by it or by another process on the folder. */
  private catchUp(): void {
    for (const [id, digest, textless] of this.statements.since.iterate(BigInt(this.lastId)) as IterableIterator<[bigint, bigint, bigint]>) {
      this.ids.set(digest, Number(id));
      if (textless === 1n) this.textless.add(Number(id));
      else this.textless.delete(Number(id));
      this.lastId = Number(id);
    }
  }
}

/**
 * The first 64 bits of a key, signed, as store/query-ids.ts reads them: its first 16 hex digits, or, for a key that is
 * not a digest already, of its SHA-256.
 */
function keyDigest(key: string): bigint {
  const hex = /^[0-9a-f]{64}$/.test(key) ? key : hash('sha256', key);
  return BigInt.asIntN(64, BigInt(`0x${hex.slice(0, 16)}`));
}

/**
 * A query's text as [field_name, search_term] pairs, from that form or the FindQuery JSON older plans and answers kept;
 * null when it does not read.
 */
function storedText(text: string): string | null {
  try {
    const parsed = JSON.parse(text) as { fields: { field_name: string; search_term: string }[] } | [string, string][];
    return Array.isArray(parsed) ? text : JSON.stringify(parsed.fields.map((f) => [f.field_name, f.search_term]));
  } catch {
    // A text that no longer reads is no text: the query is known by its key alone.
    return null;
  }
}
