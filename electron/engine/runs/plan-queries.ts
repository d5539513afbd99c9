import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Database } from 'better-sqlite3';
import { STRATEGIES, type Mapping, type Strategy } from '../../../shared/model';
import { EngineError } from '../engine-errors';
import { queryDigests } from '../store';
import { queryFromStored } from '../store/query-text';
import { pageRows, plannedPage, type PagePlanInput, type PlannedPage } from './planned-page';
import { QueryIds } from './query-ids';
import { saveSharedQueries } from './shared-queries';
import { replannedStatus, type PlannedStep } from './replan-row';
import { NEW_STATUS_SQL, newStatusValues, ROW_STATUS_COLUMNS, REPLACE_STATUS_SQL, rowStatusValues, toRowStatus, type NewStatusValues, type RowStatusRecord, type RowStatusRow, type RowStatusValues } from '../rows/row-status';
import { scopeId, type ServiceScope } from '../rows/service-scope';
import type { VerdictThread } from './verdict-thread';

export interface PlanRequest {
  mapping: Mapping;
  strategies: Strategy[];
  scope: ServiceScope;
}

export interface PlanOutcome {
  rows: number;
  withoutQuery: number;
  /** Rows whose plan and status did not change at all. */
  unchanged: number;
  /** Pages the verdict worker worked out (runs/planned-page.ts); the others were worked out on this thread. */
  pagesElsewhere: number;
}

/**
 * Rows per transaction, by row index. Each commit writes every page it dirtied; the tables and indexes a plan writes
 * are filed in row order (queries by their id, runs/query-ids.ts, new ones appended), so a page dirties little more
 * than the pages it appends. A page of 10,000 rows is short enough work for the UI's reads to interleave.
 */
const PAGE_ROWS = 10_000;

/** One row of row_queries as written (project_id aside). */
type StepRow = [rowIndex: number, step: number, strategy: Strategy, queryId: number];
interface OldPlan {
  ids: number[];
  texts: string[];
}
const NO_OLD_PLAN: OldPlan = { ids: [], texts: [] };

/**
 * Works out every row's queries (in strategy order) under a mapping and fills `row_queries` and the rows'
 * status and labels, page by page; only rows whose plan or status changed are written (a blank row gets neither). The
 * queries rows share are kept once the plan is whole (runs/shared-queries.ts).
 * Never holds more than one page of the sheet in memory. A sheet of more than one page is planned on both threads:
 * while this one gives a page its query ids and writes it, the verdict worker (`worker`, asked for only then) works out
 * the next one (runs/planned-page.ts), so at most one page waits there. A page it fails, and every page after, is
 * worked out here, the same way.
 * While it works the project's plan_scope is NULL, so a plan cut off by a crash is redone by the next run. Callers make
 * sure no run of the project goes on meanwhile, but one following a first plan (runs/plan-frontier.ts). `onPage` is told the
 * rows planned so far, of them those without a query, and the row index all rows below are planned, after each page. Cancelled by
 * `signal` (looked at between pages), it puts the project's mapping before back and fails as `cancelled`.
 */
export async function planProject(
  db: Database,
  projectId: number,
  req: PlanRequest,
  onPage: (rowsPlanned: number, withoutQuery: number, before: number) => void = () => undefined,
  signal?: AbortSignal,
  worker: () => VerdictThread | null = () => null,
): Promise<PlanOutcome> {
  const scope = scopeId(req.scope);
  const { plan_scope: previous, mapping: oldMapping, strategies: oldStrategies } = db
    .prepare('SELECT plan_scope, mapping, strategies FROM projects WHERE id = ?')
    .get(projectId) as { plan_scope: string | null; mapping: string; strategies: string };
  // Same service as the old plan: an unchanged query keeps its id (no hashing), and untouched steps stay put.
  const sameService = previous === scope;
  db.prepare('UPDATE projects SET plan_scope = NULL, mapping = ?, strategies = ? WHERE id = ?').run(
    JSON.stringify(req.mapping),
    JSON.stringify(req.strategies),
    projectId,
  );
  const { mapping, strategies } = req;
  const lastRow = db.prepare('SELECT max(row_index) FROM rows WHERE project_id = ?').pluck().get(projectId) as number | null;
  const pages = lastRow === null ? 0 : Math.floor(lastRow / PAGE_ROWS) + 1;

  const oldPlan = db
    .prepare('SELECT rq.row_index, rq.step, rq.query_id, q.query FROM row_queries AS rq JOIN queries AS q ON q.id = rq.query_id WHERE rq.project_id = ? AND rq.row_index BETWEEN ? AND ?')
    .raw();
  const oldStatus = db.prepare(`SELECT ${ROW_STATUS_COLUMNS} FROM row_status WHERE project_id = ? AND row_index BETWEEN ? AND ?`);
  const dropSteps = db.prepare('DELETE FROM row_queries WHERE project_id = ? AND step >= ? AND row_index IN (SELECT value FROM json_each(?))');
  const addStep = db.prepare('INSERT INTO row_queries (project_id, row_index, step, strategy, query_id) VALUES (?, ?, ?, ?, ?)');
  // A row without a status yet (every row of a first plan) is inserted, with only the columns a new status has:
  // cheaper than a replace finding nothing.
  const insertNewStatus = db.prepare(NEW_STATUS_SQL);
  const replaceStatus = db.prepare(REPLACE_STATUS_SQL);

  // Every new query is hashed, repeats too: remembering 100,000 keys cost as much time as hashing the repeats
  // again (a map lookup hashes the query's text as well) and 15 MB besides. A page worked out here for the same
  // service hashes only the queries whose step changed; the worker hashes them all, beside this thread.
  const digestOf = queryDigests(req.scope.baseUrl, req.scope.orgId);
  // A query already stored, by this project or another, keeps its id: its answer is found by it.
  const ids = QueryIds.of(db);

  const pageInput = (page: number, hash: boolean): PagePlanInput => ({
    projectId,
    from: page * PAGE_ROWS,
    to: (page + 1) * PAGE_ROWS,
    mapping,
    strategies,
    baseUrl: req.scope.baseUrl,
    orgId: req.scope.orgId,
    hash,
  });
  const workedHere = (page: number): PlannedPage => {
    const input = pageInput(page, !sameService);
    return plannedPage(pageRows(db, projectId, input.from, input.to), input);
  };
  // One page has nothing to be worked out beside.
  let thread = pages > 1 ? worker() : null;
  // Null when the worker cannot (its thread failed or stopped, the database did not open there): from then on, here.
  const workedElsewhere = (page: number): Promise<PlannedPage | null> | null =>
    thread?.plannedPage(pageInput(page, true)).catch(() => {
      thread = null;
      return null;
    }) ?? null;

  const outcome: PlanOutcome = { rows: 0, withoutQuery: 0, unchanged: 0, pagesElsewhere: 0 };
  let planChanged = false;
  const writePage = db.transaction((page: PlannedPage): void => {
    if (page.rows.length === 0) return;
    // Nothing is written yet in this transaction: the ids known now are committed.
    ids.catchUp(true);
    const { first, last } = page;

    // A first plan finds nothing here: both reads come back empty and every row is simply written.
    const olds = new Map<number, OldPlan>();
    for (const [rowIndex, step, id, query] of oldPlan.all(projectId, first, last) as [number, number, number, string | null][]) {
      let old = olds.get(rowIndex);
      if (!old) olds.set(rowIndex, (old = { ids: [], texts: [] }));
      old.ids[step] = id;
      // A query known by its key alone (migration 28) compares unequal to any: it is planned again.
      old.texts[step] = query ?? '';
    }
    const statuses = new Map<number, RowStatusRecord>();
    for (const r of oldStatus.all(projectId, first, last) as RowStatusRow[]) statuses.set(r.row_index, toRowStatus(r));

    // The page is worked out first, then written: stale steps first (one statement per kept length), then the new
    // steps and statuses, positional values bound from small arrays. Writing each row as it was worked out took longer
    // (the matching code and SQLite took turns at the CPU caches), and one INSERT ... SELECT FROM json_each(?) per page
    // longer still.
    const steps: StepRow[] = [];
    const newStatuses: NewStatusValues[] = [];
    const replaces: RowStatusValues[] = [];
    const drops = new Map<number, number[]>();
    const { ids: stepIds, signatures } = idsByStep(page, (r, i, j, signature) => {
      const old = olds.get(page.rows[r]!) ?? NO_OLD_PLAN;
      return sameService && old.texts[i] === signature ? old.ids[i]! : ids.idOf(page.digests ? page.digests[j]! : digestOf(queryFromStored(signature)), signature);
    });
    let j = 0;
    for (let r = 0; r < page.rows.length; r++) {
      const rowIndex = page.rows[r]!;
      // Each row's label comes before its steps' queries in the page's texts.
      const label = pageText(page, j + r);
      const old = olds.get(rowIndex) ?? NO_OLD_PLAN;
      const plan: PlannedStep[] = [];
      for (const end = page.stepEnds[r]!; j < end; j++) plan.push({ id: stepIds[j]!, signature: signatures[j]!, strategy: STRATEGIES[page.strategies[j]!]! });
      outcome.rows++;
      if (plan.length === 0) outcome.withoutQuery++;
      const kept = sameService ? commonPrefix(old.texts, plan) : 0;
      const samePlan = kept === old.texts.length && kept === plan.length;
      const before = statuses.get(rowIndex) ?? null;
      const next = replannedStatus(before, old.texts, plan, label, rowIndex);
      const statusChanged = !before || !sameStatus(before, next);
      if (samePlan && !statusChanged) {
        outcome.unchanged++;
        continue;
      }
      if (!samePlan) {
        if (old.texts.length > kept) {
          let list = drops.get(kept);
          if (!list) drops.set(kept, (list = []));
          list.push(rowIndex);
        }
        for (let i = kept; i < plan.length; i++) steps.push([rowIndex, i, plan[i]!.strategy, plan[i]!.id]);
      }
      if (statusChanged) {
        // A row's first status is only its query and label (replan-row.ts freshStatus); anything more is written in full.
        const bare = before ? null : newStatusValues(next);
        if (bare) newStatuses.push(bare);
        else replaces.push(rowStatusValues(next));
      }
    }
    if (steps.length > 0 || drops.size > 0) planChanged = true;
    for (const [kept, rowIndexes] of drops) dropSteps.run(projectId, kept, JSON.stringify(rowIndexes));
    for (const step of steps) addStep.run(projectId, ...step);
    for (const status of newStatuses) insertNewStatus.run(projectId, ...status);
    for (const status of replaces) replaceStatus.run(projectId, ...status);
  });

  let coming: Promise<PlannedPage | null> | null = null;
  for (let page = 0; page < pages; page++) {
    const made = coming ? await coming : null;
    if (made) outcome.pagesElsewhere++;
    coming = page + 1 < pages ? workedElsewhere(page + 1) : null;
    writePage(made ?? workedHere(page));
    // Its new queries are stored (committed, unless it ran inside a caller's transaction): the next page need not read
    // them back to check.
    if (!db.inTransaction) ids.committed();
    onPage(outcome.rows, outcome.withoutQuery, (page + 1) * PAGE_ROWS);
    // Let other calls (the review list, progress events, a cancel) in between pages of a large sheet.
    await nextTurn();
    // A cancel after the last page still counts: the plan is not marked whole, the mapping before stands.
    if (signal?.aborted) {
      // The mapping before stands again; its plan, part-rewritten, is redone when it is next needed (plan_scope NULL).
      // A page the worker is still working out is let go.
      db.prepare('UPDATE projects SET mapping = ?, strategies = ? WHERE id = ?').run(oldMapping, oldStrategies, projectId);
      throw new EngineError('cancelled', 'Saving the mapping was cancelled: the project keeps the mapping it had.');
    }
  }

  // A plan cut off before (plan_scope NULL) may have changed steps its shared queries do not show yet.
  db.transaction(() => {
    if (planChanged || previous !== scope) saveSharedQueries(db, projectId);
    db.prepare('UPDATE projects SET plan_scope = ? WHERE id = ?').run(scope, projectId);
  })();
  return outcome;
}

/**
 * The query id of each step of a page (`page.strategies`' order), given by `idOf(row, step of the row, step of the page,
 * its query as stored)`, with that query's text: every row's last step first, then every step before it, the first
 * steps last. `lookups` is filed by query id; a run stores a page's first answers in row order, a call's worth at a
 * time, and a row's next step's answer only once its first found nobody, a few a call. With the first steps' ids last
 * the many are appended at the table's end and the few go in just before them; the other way round, every call's
 * first answers went in before the page's later ones already stored, splitting a full page there each time
 * (docs/performance.md). A later step named first in an earlier page has its id there: its answer goes among that
 * page's, a page rewritten for it alone.
 */
function idsByStep(
  page: PlannedPage,
  idOf: (row: number, step: number, pageStep: number, signature: string) => number,
): { ids: number[]; signatures: string[] } {
  const ids: number[] = new Array<number>(page.strategies.length);
  const signatures: string[] = new Array<string>(page.strategies.length);
  let steps = 0;
  for (let r = 0; r < page.rows.length; r++) steps = Math.max(steps, page.stepEnds[r]! - (r === 0 ? 0 : page.stepEnds[r - 1]!));
  for (let step = steps - 1; step >= 0; step--) {
    for (let r = 0; r < page.rows.length; r++) {
      const j = (r === 0 ? 0 : page.stepEnds[r - 1]!) + step;
      if (j >= page.stepEnds[r]!) continue;
      // Each row's label comes before its steps' queries: the step's is text j + r + 1.
      const signature = pageText(page, j + r + 1);
      signatures[j] = signature;
      ids[j] = idOf(r, step, j, signature);
    }
  }
  return { ids, signatures };
}

/** The page's text `t`: its texts are, in order, each row's label, then its steps' queries. */
function pageText(page: PlannedPage, t: number): string {
  return page.text.slice(t === 0 ? 0 : page.textEnds[t - 1], page.textEnds[t]);
}

function commonPrefix(oldTexts: readonly string[], plan: readonly PlannedStep[]): number {
  let i = 0;
  while (i < oldTexts.length && i < plan.length && oldTexts[i] === plan[i]!.signature) i++;
  return i;
}

function sameStatus(a: RowStatusRecord, b: RowStatusRecord): boolean {
  return (
    a.state === b.state &&
    a.outcome === b.outcome &&
    a.step === b.step &&
    a.strategy === b.strategy &&
    a.queryId === b.queryId &&
    a.candidateCount === b.candidateCount &&
    a.chosenRank === b.chosenRank &&
    a.source === b.source &&
    a.decidedAt === b.decidedAt &&
    a.label === b.label &&
    JSON.stringify(a.chosen) === JSON.stringify(b.chosen) &&
    JSON.stringify(a.verdict) === JSON.stringify(b.verdict)
  );
}
