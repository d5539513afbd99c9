import type { Database } from 'better-sqlite3';
import type { FailedQuery } from '../../../shared/contract';
import { requireProject } from '../rows/project-record';
import { stateRowsHint } from '../rows/row-status';
import { getLookups } from '../store';
import { queriesById } from './query-ids';
import { describeQuery } from './query-records';

/** The project's failed queries (run.failures), one per query with the rows waiting on it, in sheet order. */
export function runFailures(db: Database, projectId: number): FailedQuery[] {
  requireProject(db, projectId);
  const groups = db
    .prepare(
      `SELECT query_id AS id, strategy, count(*) AS n, min(row_index) AS first FROM row_status ${stateRowsHint(db, projectId, 'error')}
       WHERE project_id = ? AND state = 'error' AND query_id IS NOT NULL GROUP BY query_id ORDER BY first LIMIT 1000`,
    )
    .all(projectId) as { id: number; strategy: FailedQuery['strategy']; n: number; first: number }[];
  const ids = groups.map((g) => g.id);
  const lookups = getLookups(db, ids, Number.MIN_SAFE_INTEGER);
  const queries = queriesById(db, ids);
  return groups.map((g) => {
    const lookup = lookups.get(g.id);
    const query = queries.get(g.id);
    return {
      queryId: g.id,
      strategy: g.strategy,
      terms: query ? describeQuery(query) : '',
      error: lookup?.error?.message ?? 'The query failed without a message.',
      errorKind: lookup?.error?.kind ?? null,
      rows: g.n,
    };
  });
}
