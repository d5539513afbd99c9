import type { Database } from 'better-sqlite3';
import type { FindQuery, Mapping, Strategy } from '../../../shared/model';
import { plannedQueries, rowInput, type RowInput } from '../matching';
import { queryKey } from '../store';
import { replannedStatus, type PlannedStep } from './replan-row';
import { ROW_STATUS_COLUMNS, WRITE_ROW_STATUS_SQL, rowStatusParams, toRowStatus, type RowStatusRecord, type RowStatusRow } from './row-status';
import { scopeId, type ServiceScope } from './service-scope';

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
}

/** Rows per transaction: large enough to be fast, small enough that the UI's reads interleave. */
const PAGE_ROWS = 4000;
/** Distinct queries whose keys are remembered while planning (about 15 MB at most). */
const KEY_CACHE_SIZE = 100_000;

/**
 * Works out every row's queries (in strategy order) under a mapping and fills `row_queries` and the rows'
 * status and labels, page by page; only rows whose plan or status changed are written. Never holds
 * more than one page of the sheet in memory. While it works the project's plan_scope is NULL, so a plan cut
 * off by a crash is redone by the next run. Callers make sure no run of the project goes on meanwhile.
 */
export async function planProject(db: Database, projectId: number, req: PlanRequest): Promise<PlanOutcome> {
  const scope = scopeId(req.scope);
  const previous = db.prepare('SELECT plan_scope FROM projects WHERE id = ?').pluck().get(projectId) as string | null;
  // Same service as the old plan: an unchanged query keeps its key (no hashing), and untouched steps stay put.
  const sameService = previous === scope;
  db.prepare('UPDATE projects SET plan_scope = NULL, mapping = ?, strategies = ? WHERE id = ?').run(
    JSON.stringify(req.mapping),
    JSON.stringify(req.strategies),
    projectId,
  );

  const pageOfRows = db.prepare('SELECT row_index, cells FROM rows WHERE project_id = ? AND row_index >= ? ORDER BY row_index LIMIT ?');
  const oldPlan = db.prepare('SELECT row_index, step, query_key, query FROM row_queries WHERE project_id = ? AND row_index BETWEEN ? AND ?');
  const oldStatus = db.prepare(`SELECT ${ROW_STATUS_COLUMNS} FROM row_status WHERE project_id = ? AND row_index BETWEEN ? AND ?`);
  const dropSteps = db.prepare('DELETE FROM row_queries WHERE project_id = ? AND step >= ? AND row_index IN (SELECT value FROM json_each(?))');
  const addStep = db.prepare('INSERT INTO row_queries (project_id, row_index, step, strategy, query_key, query) VALUES (?, ?, ?, ?, ?, ?)');
  const writeStatus = db.prepare(WRITE_ROW_STATUS_SQL);

  // Identical queries recur across rows: hash each once, in a cache bounded so a huge sheet stays out of memory.
  const keys = new Map<string, string>();
  const keyFor = (text: string, query: FindQuery): string => {
    let key = keys.get(text);
    if (key === undefined) {
      if (keys.size >= KEY_CACHE_SIZE) keys.clear();
      key = queryKey(req.scope.baseUrl, req.scope.orgId, query);
      keys.set(text, key);
    }
    return key;
  };

  const outcome: PlanOutcome = { rows: 0, withoutQuery: 0, unchanged: 0 };
  const planPage = db.transaction((from: number): number | null => {
    const rows = pageOfRows.all(projectId, from, PAGE_ROWS) as { row_index: number; cells: string }[];
    if (rows.length === 0) return null;
    const first = rows[0]!.row_index;
    const last = rows[rows.length - 1]!.row_index;

    const olds = new Map<number, { keys: string[]; texts: string[] }>();
    for (const r of oldPlan.all(projectId, first, last) as { row_index: number; step: number; query_key: string; query: string }[]) {
      let old = olds.get(r.row_index);
      if (!old) olds.set(r.row_index, (old = { keys: [], texts: [] }));
      old.keys[r.step] = r.query_key;
      old.texts[r.step] = r.query;
    }
    const statuses = new Map<number, RowStatusRecord>();
    for (const r of oldStatus.all(projectId, first, last) as RowStatusRow[]) statuses.set(r.row_index, toRowStatus(r));

    // Work out the page first, then write: stale steps go in one statement per kept length, before the new ones.
    const changes: { rowIndex: number; plan: PlannedStep[]; kept: number; status: RowStatusRecord | null }[] = [];
    const drops = new Map<number, number[]>();
    for (const row of rows) {
      const cells = parseCells(row.cells);
      const input = rowInput(cells, req.mapping);
      const old = olds.get(row.row_index) ?? { keys: [], texts: [] };
      const plan: PlannedStep[] = [];
      for (const p of plannedQueries(input, req.strategies)) {
        const text = JSON.stringify(p.query);
        // Two strategies asking the very same thing would only ask it twice.
        if (plan.some((s) => s.signature === text)) continue;
        const i = plan.length;
        const key = sameService && old.texts[i] === text ? old.keys[i]! : keyFor(text, p.query);
        plan.push({ key, signature: text, strategy: p.strategy });
      }
      const kept = sameService ? commonPrefix(old.texts, plan.map((p) => p.signature)) : 0;
      const samePlan = kept === old.texts.length && kept === plan.length;
      if (!samePlan && old.texts.length > kept) {
        let list = drops.get(kept);
        if (!list) drops.set(kept, (list = []));
        list.push(row.row_index);
      }
      const before = statuses.get(row.row_index) ?? null;
      const next = replannedStatus(before, old.texts, plan, rowLabel(input, cells), row.row_index);
      const statusChanged = !before || !sameStatus(before, next);
      if (samePlan && !statusChanged) outcome.unchanged++;
      else changes.push({ rowIndex: row.row_index, plan: samePlan ? [] : plan, kept: samePlan ? plan.length : kept, status: statusChanged ? next : null });
      outcome.rows++;
      if (plan.length === 0) outcome.withoutQuery++;
    }
    for (const [kept, rowIndexes] of drops) dropSteps.run(projectId, kept, JSON.stringify(rowIndexes));
    for (const c of changes) {
      for (let i = c.kept; i < c.plan.length; i++) addStep.run(projectId, c.rowIndex, i, c.plan[i]!.strategy, c.plan[i]!.key, c.plan[i]!.signature);
      if (c.status) writeStatus.run(rowStatusParams(projectId, c.status));
    }
    return last + 1;
  });

  for (let from: number | null = 0; from !== null; ) {
    from = planPage(from);
    // Let other calls (the review list, progress events) in between pages of a large sheet.
    await new Promise<void>((resolve) => setImmediate(resolve));
  }

  db.prepare('UPDATE projects SET plan_scope = ? WHERE id = ?').run(scope, projectId);
  return outcome;
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

export function parseCells(text: string): string[] {
  try {
    const cells = JSON.parse(text) as unknown;
    return Array.isArray(cells) ? cells.map((c) => (typeof c === 'string' ? c : c == null ? '' : String(c))) : [];
  } catch {
    return [];
  }
}

function commonPrefix(a: readonly string[], b: readonly string[]): number {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
}

function sameStatus(a: RowStatusRecord, b: RowStatusRecord): boolean {
  return (
    a.state === b.state &&
    a.outcome === b.outcome &&
    a.step === b.step &&
    a.strategy === b.strategy &&
    a.queryKey === b.queryKey &&
    a.candidateCount === b.candidateCount &&
    a.chosenRank === b.chosenRank &&
    a.source === b.source &&
    a.decidedAt === b.decidedAt &&
    a.label === b.label &&
    JSON.stringify(a.chosen) === JSON.stringify(b.chosen)
  );
}
