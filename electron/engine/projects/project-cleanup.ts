import type { Database, Statement } from 'better-sqlite3';
import { IdleWork } from '../idle-turn';
import { dropListsSlice } from '../store/refresh-tables';
import { freeSpace, giveBackFreePages } from '../store/free-space';

/**
 * Row indexes removed per slice, from every table keyed by row (its rows, plan, statuses, refresh marks and text
 * index documents): a short slice, so a call that comes in meanwhile waits only briefly.
 */
const ROWS_PER_SLICE = 5_000;
/** Entries of the other tables (decisions, a refresh's people and rows) removed per slice. */
const ENTRIES_PER_SLICE = 20_000;
/**
 * Free pages given back to the disk per slice (8 MB of 4 KB pages), about as long as a slice of rows.
 */
const FREE_PAGES_PER_SLICE = 2_048;
/** Free pages below which the file keeps them for SQLite to reuse: giving back a few only to grow again is churn. */
const FREE_PAGES_KEPT = 2_560;

/**
 * Takes a project out of the engine at once: it leaves `projects` (so every call on it finds no such project, and no
 * list shows it) and is listed in `project_cleanup`, in one transaction. Its rows, plan, statuses, decisions, runs,
 * refreshes and text index stay behind, belonging to no project, until ProjectCleanup removes them a slice at a
 * time: deleting them all by cascade held the engine (and the app's window) for seconds in a large project. Returns
 * false when there is no such project. Must not run inside a transaction: it turns the cascade off for its own.
 */
export function removeProject(db: Database, projectId: number): boolean {
  if (db.inTransaction) throw new Error('removeProject runs outside a transaction: foreign keys cannot be switched inside one');
  // Ids are never reused (AUTOINCREMENT), so nothing new can come to belong to the rows left behind.
  db.pragma('foreign_keys = OFF');
  try {
    return db.transaction(() => {
      if (db.prepare('DELETE FROM projects WHERE id = ?').run(projectId).changes === 0) return false;
      db.prepare('INSERT OR IGNORE INTO project_cleanup (project_id) VALUES (?)').run(projectId);
      return true;
    })();
  } finally {
    db.pragma('foreign_keys = ON');
  }
}

/**
 * One step of a cleanup, in one transaction: removes a slice of what a removed project left in one table (or set of
 * tables); false once it found nothing left to remove there.
 */
type Step = (projectId: number) => boolean;

/**
 * Removes what removed projects left behind (removeProject), a slice per transaction, while `isIdle` says nothing
 * else is going on; then gives the pages that freed back to the disk, a slice at a time too (a file made with
 * incremental auto-vacuum; older files keep them for SQLite to reuse). Started with the engine, so a cleanup cut off
 * by a quit or a crash goes on at the next start; `wake` after each removal, and after anything else that frees many
 * pages (clearing the cache). Idempotent: two processes on one database (the app and the CLI) may both clean.
 */
export class ProjectCleanup extends IdleWork {
  private readonly steps: Step[];
  private readonly pending: Statement;
  private readonly done: Statement;

  constructor(db: Database, isIdle: () => boolean) {
    super(db, isIdle);
    this.pending = db.prepare('SELECT project_id FROM project_cleanup ORDER BY project_id LIMIT 1').pluck();
    this.done = db.prepare('DELETE FROM project_cleanup WHERE project_id = ?');
    this.steps = [rowsStep(db), queriesStep(db), sharedQueriesStep(db), decisionsStep(db), refreshesStep(db), lastStep(db)];
  }

  protected async workAll(): Promise<void> {
    try {
      for (let projectId = this.next(); projectId !== null; projectId = this.next()) {
        for (const step of this.steps) {
          for (;;) {
            if (!(await this.turn())) return;
            if (!this.db.transaction(step)(projectId)) break;
          }
        }
        this.done.run(projectId);
      }
      await this.giveBackFreeSpace();
    } catch {
      // The database closed under it, or another process holds the write lock: the next start (or removal) goes on.
    }
  }

  /** Gives the file's free pages back to the disk, a slice per idle turn, once there are enough to be worth it. */
  private async giveBackFreeSpace(): Promise<void> {
    if (this.stopped || !this.db.open) return;
    const free = freeSpace(this.db);
    if (!free.canGiveBack || free.pages < FREE_PAGES_KEPT) return;
    for (;;) {
      if (!(await this.turn())) return;
      // A slice that gave back fewer than it could has found the end of the free pages.
      if (giveBackFreePages(this.db, FREE_PAGES_PER_SLICE) < FREE_PAGES_PER_SLICE) break;
    }
    // The file is cut shorter on disk once the WAL is copied into it: now, rather than at the next commit that
    // checkpoints, so the space shows as given back. PASSIVE never waits: while a reader holds an older snapshot
    // (another process), what it still reads is copied, and the file cut, at a later checkpoint.
    if (await this.turn()) this.db.pragma('wal_checkpoint(PASSIVE)');
  }

  private next(): number | null {
    return this.stopped || !this.db.open ? null : ((this.pending.get() as number | undefined) ?? null);
  }

  /** Waits until the engine is idle; false once the cleanup should stop. */
}

/**
 * The tables keyed by (project_id, row_index): the lowest ROWS_PER_SLICE row indexes left, from each, and their text
 * index documents. The queries the slice named that no answer keeps are listed for queriesStep.
 */
function rowsStep(db: Database): Step {
  const tables = ['rows', 'row_queries', 'row_status', 'row_refreshes'];
  const lowest = db
    .prepare(`SELECT min(m) FROM (${tables.map((t) => `SELECT min(row_index) AS m FROM ${t} WHERE project_id = ?`).join(' UNION ALL ')})`)
    .pluck();
  const unanswered = db
    .prepare(
      `SELECT n.query_id FROM (SELECT query_id FROM row_queries WHERE project_id = @project AND row_index < @below
                               UNION SELECT query_id FROM row_status WHERE project_id = @project AND row_index < @below AND query_id IS NOT NULL) AS n
       WHERE NOT EXISTS (SELECT 1 FROM lookups AS l WHERE l.query_id = n.query_id)`,
    )
    .pluck();
  const list = db.prepare('INSERT OR IGNORE INTO query_cleanup (id) SELECT value FROM json_each(?)');
  const deletes = tables.map((t) => db.prepare(`DELETE FROM ${t} WHERE project_id = ? AND row_index < ?`));
  // The text index's documents: rowid = (project_id << 32) | row_index (review/row-text-index.ts).
  const documents = db.prepare('DELETE FROM row_text WHERE rowid >= (? << 32) AND rowid < (? << 32) + ?');
  return (projectId) => {
    const from = lowest.get(...tables.map(() => projectId)) as number | null;
    if (from === null) return false;
    const below = from + ROWS_PER_SLICE;
    const queries = unanswered.all({ project: projectId, below });
    for (const statement of deletes) statement.run(projectId, below);
    // Listed once the rows are gone, in the pages they freed: a file without auto-vacuum does not grow for it.
    if (queries.length > 0) list.run(JSON.stringify(queries));
    documents.run(projectId, projectId, below);
    return true;
  };
}

/**
 * The queries rowsStep listed, removed from `queries` once no other project (nor one still being removed) names them
 * and no answer keeps them. There is no index by query on the plans, so the other projects' plans and statuses are
 * walked a slice of rows at a time, each taking the queries it names off the list; planning takes off the list any
 * query it names meanwhile (runs/query-ids.ts). Only the queries listed when the walk began are removed at its end:
 * another process's cleanup may list more meanwhile, which the walk may have passed. The walk starts again after a
 * restart: the list is kept.
 */
function queriesStep(db: Database): Step {
  const listed = db.prepare('SELECT EXISTS (SELECT 1 FROM query_cleanup)').pluck();
  const begin = db.prepare('UPDATE query_cleanup SET walked = 1');
  const others = db.prepare('SELECT id FROM projects UNION SELECT project_id FROM project_cleanup WHERE project_id <> ? ORDER BY 1').pluck();
  const named = db.prepare(
    `DELETE FROM query_cleanup WHERE id IN (
       SELECT query_id FROM row_queries WHERE project_id = @project AND row_index >= @from AND row_index < @below
       UNION SELECT query_id FROM row_status WHERE project_id = @project AND row_index >= @from AND row_index < @below)`,
  );
  const last = db.prepare('SELECT max(row_index) FROM row_status WHERE project_id = ?').pluck();
  const unnamed = db.prepare(
    'DELETE FROM queries WHERE id IN (SELECT id FROM query_cleanup WHERE walked = 1) AND NOT EXISTS (SELECT 1 FROM lookups AS l WHERE l.query_id = queries.id)',
  );
  const clear = db.prepare('DELETE FROM query_cleanup WHERE walked = 1');
  let walk: { projects: number[]; from: number } | null = null;
  return (projectId) => {
    if (!listed.get()) return false;
    if (!walk) {
      walk = { projects: others.all(projectId) as number[], from: 0 };
      begin.run();
    }
    const project = walk.projects[0];
    if (project === undefined) {
      unnamed.run();
      clear.run();
      walk = null;
      return false;
    }
    named.run({ project, from: walk.from, below: walk.from + ROWS_PER_SLICE });
    walk.from += ROWS_PER_SLICE;
    if (walk.from > ((last.get(project) as number | null) ?? -1)) walk = { projects: walk.projects.slice(1), from: 0 };
    return true;
  };
}

/** The rows sharing a query (runs/shared-queries.ts): most of a large project's rows, by query. */
function sharedQueriesStep(db: Database): Step {
  const slice = db.prepare(
    `DELETE FROM shared_queries WHERE project_id = @project
       AND query_id <= (SELECT query_id FROM shared_queries WHERE project_id = @project ORDER BY query_id LIMIT 1 OFFSET @slice)`,
  );
  const rest = db.prepare('DELETE FROM shared_queries WHERE project_id = ?');
  return (projectId) => slice.run({ project: projectId, slice: ENTRIES_PER_SLICE }).changes > 0 || rest.run(projectId).changes > 0;
}

/** The decision log: it may hold a decision for every row (accepting all confident rows at once). */
function decisionsStep(db: Database): Step {
  const slice = db.prepare('DELETE FROM decision_log WHERE id IN (SELECT id FROM decision_log WHERE project_id = ? LIMIT ?)');
  return (projectId) => slice.run(projectId, ENTRIES_PER_SLICE).changes > 0;
}

/** Each refresh of the project: its rows and people a slice at a time, then the refresh itself. */
function refreshesStep(db: Database): Step {
  const refresh = db.prepare('SELECT id FROM refreshes WHERE project_id = ? ORDER BY id LIMIT 1').pluck();
  const drop = db.prepare('DELETE FROM refreshes WHERE id = ?');
  return (projectId) => {
    const id = refresh.get(projectId) as number | undefined;
    if (id === undefined) return false;
    if (dropListsSlice(db, id, 'people and rows') === 0) drop.run(id);
    return true;
  };
}

/** What is left is small: the runs, the jobs and the text index's state (whose trigger finds no documents left to drop). */
function lastStep(db: Database): Step {
  const runs = db.prepare('DELETE FROM runs WHERE project_id = ?');
  const jobs = db.prepare('DELETE FROM jobs WHERE project_id = ?');
  const textState = db.prepare('DELETE FROM row_text_state WHERE project_id = ?');
  return (projectId) => {
    runs.run(projectId);
    jobs.run(projectId);
    textState.run(projectId);
    return false;
  };
}
