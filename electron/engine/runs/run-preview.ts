import type { Database } from 'better-sqlite3';
import type { RunPreview } from '../../../shared/contract';
import { MAX_QUERIES_PER_FIND } from '../api';
import { estimatedSeconds, type WorkPace } from '../rows/call-timing';
import { readRows, type RowsReader } from './reading-thread';
import { MANUAL_STATES, type RowState, type Strategy } from '../../../shared/model';
import { ASKABLE_STATES, stateCounts } from '../rows/row-status';
import { MAX_PEOPLE_PER_QUERY } from './service-credits';

/** States as an SQL list of literals (the planner sees them, as it would written out). */
const sqlStates = (states: readonly RowState[]) => states.map((s) => `'${s}'`).join(', ');

export interface RunPreviewOptions extends WorkPace {
  offline: boolean;
  /** Lookups fetched at or after this instant are fresh (the cache TTL). */
  freshAfterMs: number;
  /** What the service last said remain (runs/service-credits.ts); null (the default) when it never said. */
  creditsRemaining?: number | null;
  /**
   * The figures as they stood at this instant (ms), when a project's first run started beside its first plan: every
   * row counted at its first step (all were there), answers fetched since not counted as cached.
   */
  before?: number;
}

/**
 * What a run would do now, before anything is sent: the distinct queries the undecided rows ask at their
 * current step (identical ones counted once), how many the cache answers, and the calls left to make.
 * Later waterfall steps depend on the answers, so they are not counted.
 */
export async function runPreview(db: Database, projectId: number, rowCount: number, blankRows: number, opts: RunPreviewOptions, elsewhere?: RowsReader): Promise<RunPreview> {
  if (opts.before !== undefined) return firstRunPreview(db, projectId, rowCount, blankRows, opts, opts.before, elsewhere);
  const counts = stateCounts(db, projectId);
  const waiting = ASKABLE_STATES.reduce((n, s) => n + counts[s], 0);
  // Each distinct query once, by its id. Most rows waiting (a project not run yet): the project's rows walked in row
  // order (`+state` keeps the state index out), their ids grouped in a temporary B-tree of integers. A few waiting (a
  // project run before): those rows through the state index, where a walk read every row's state even with none waiting.
  const few = waiting * 4 < rowCount;
  const sql = `WITH asked AS (
       SELECT query_id, strategy FROM row_status ${few ? 'INDEXED BY row_status_by_state' : ''}
       WHERE project_id = ? AND ${few ? '' : '+'}state IN (${sqlStates(ASKABLE_STATES)}) AND query_id IS NOT NULL
       GROUP BY query_id
     )
     SELECT a.strategy AS strategy, count(*) AS n,
            coalesce(sum(l.status = 'ok' AND l.fetched_at >= ?), 0) AS cached
     FROM asked a LEFT JOIN lookups l ON l.query_id = a.query_id
     GROUP BY a.strategy`;
  // Offline, any answer on file will do, however old.
  const params = [projectId, opts.offline ? Number.MIN_SAFE_INTEGER : opts.freshAfterMs];
  // A project not run yet reads each waiting row's query and its answer (seconds in a large project): `elsewhere` may.
  const groups = (waiting === 0 ? [] : await readRows(db, sql, params, elsewhere)) as { strategy: Strategy; n: number; cached: number }[];
  return previewOf(groups, rowCount, blankRows, withoutQueryCount(db, projectId), waiting, opts);
}

/** The preview of a project's first run as it stood at `before` (RunPreviewOptions.before), its plan whole. */
async function firstRunPreview(db: Database, projectId: number, rowCount: number, blankRows: number, opts: RunPreviewOptions, before: number, elsewhere?: RowsReader): Promise<RunPreview> {
  const sql = `WITH asked AS (SELECT query_id, strategy FROM row_queries WHERE project_id = ? AND step = 0 GROUP BY query_id)
     SELECT a.strategy AS strategy, count(*) AS n,
            coalesce(sum(l.status = 'ok' AND l.fetched_at >= ? AND l.fetched_at < ?), 0) AS cached
     FROM asked a LEFT JOIN lookups l ON l.query_id = a.query_id
     GROUP BY a.strategy`;
  const params = [projectId, opts.offline ? Number.MIN_SAFE_INTEGER : opts.freshAfterMs, before];
  const groups = (await readRows(db, sql, params, elsewhere)) as { strategy: Strategy; n: number; cached: number }[];
  const withoutQuery = withoutQueryCount(db, projectId);
  return previewOf(groups, rowCount, blankRows, withoutQuery, rowCount - withoutQuery, opts);
}

/** Rows without a query: in that state unless someone decided them by hand. */
function withoutQueryCount(db: Database, projectId: number): number {
  // Counted through the state index, where a count by outcome read the whole table.
  return (
    db
      .prepare(
        `SELECT count(*) AS n FROM row_status INDEXED BY row_status_by_state
         WHERE project_id = ? AND state IN ('no_query', ${sqlStates(MANUAL_STATES)}) AND outcome = 'no_query'`,
      )
      .get(projectId) as { n: number }
  ).n;
}

function previewOf(
  groups: { strategy: Strategy; n: number; cached: number }[],
  rowCount: number,
  blankRows: number,
  withoutQuery: number,
  waiting: number,
  opts: RunPreviewOptions,
): RunPreview {
  const byStrategy: Partial<Record<Strategy, number>> = {};
  let distinct = 0;
  let cached = 0;
  for (const g of groups) {
    byStrategy[g.strategy] = g.n;
    distinct += g.n;
    cached += g.cached;
  }
  const toFetch = opts.offline ? 0 : distinct - cached;
  const calls = Math.ceil(toFetch / MAX_QUERIES_PER_FIND);
  return {
    rows: rowCount,
    blankRows,
    rowsWithoutQuery: withoutQuery,
    distinctQueries: distinct,
    cachedFresh: cached,
    toFetch,
    calls,
    // Every waiting row is read, assessed and written, whether a call or the cache answers it.
    estimatedSeconds: estimatedSeconds(calls, waiting, opts),
    byStrategy,
    offline: opts.offline,
    creditsRemaining: opts.creditsRemaining ?? null,
    creditsUpTo: toFetch * MAX_PEOPLE_PER_QUERY,
  };
}
