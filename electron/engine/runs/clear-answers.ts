import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Database } from 'better-sqlite3';
import { clearCache } from '../store';

/** Rows sent back to be asked again per transaction: a slice holds the engine only briefly. */
const ROWS_PER_SLICE = 5_000;

/** The outcomes an answer on file settled: with the answers gone, such rows must be asked again. */
const SETTLED_BY_AN_ANSWER = "('to_review', 'no_candidates', 'error', 'offline')";
const FIRST_STEP = 'FROM row_queries rq WHERE rq.project_id = row_status.project_id AND rq.row_index = row_status.row_index AND rq.step = 0';

/**
 * Clears the cache of answers and sends the rows they settled back to be asked again from their first query. A
 * decision stays (state and chosen person); only rows waiting for review, found nobody or failed become pending.
 *
 * One statement for all of it would hold the engine for seconds, many of them in a large project, answering nothing,
 * and in the Electron app the engine is the main process. The rows go first,
 * ROWS_PER_SLICE a transaction in each project's sheet order (its pages in turn), other calls taking their turn in
 * between, while their answers are still on file: a crash part-way leaves pending rows that the next run settles again
 * from the cache, and the answers are still there to clear. Then the answers go, in one statement (quick: no row to
 * rewrite). The caller keeps runs, refreshes and plans from starting meanwhile. Returns how many answers were removed.
 */
export async function clearAnswers(db: Database): Promise<number> {
  const projects = db
    .prepare("SELECT p.id, (SELECT max(row_index) FROM row_status WHERE project_id = p.id) AS last FROM projects AS p WHERE p.status = 'ready'")
    .all() as { id: number; last: number | null }[];
  const sendBack = db.prepare(
    `UPDATE row_status SET
       state = CASE WHEN state IN ${SETTLED_BY_AN_ANSWER} THEN 'pending' ELSE state END,
       outcome = 'pending', step = 0, candidate_count = 0, verdict_basis = NULL,
       query_id = (SELECT rq.query_id ${FIRST_STEP}), strategy = (SELECT rq.strategy ${FIRST_STEP})
     WHERE project_id = ? AND row_index >= ? AND row_index < ? AND outcome IN ${SETTLED_BY_AN_ANSWER}`,
  );
  for (const { id, last } of projects) {
    for (let from = 0; last !== null && from <= last; from += ROWS_PER_SLICE) {
      db.transaction(() => sendBack.run(id, from, from + ROWS_PER_SLICE))();
      await nextTurn();
    }
  }
  return db.transaction(() => clearCache(db))();
}
