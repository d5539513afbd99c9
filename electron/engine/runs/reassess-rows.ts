import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Database } from 'better-sqlite3';
import type { Mapping } from '../../../shared/model';
import { assessRow, jobChange, rowFacts, rowInput } from '../matching';
import { FreshestFacts } from '../rows/freshest-facts';
import { chosenWithFacts } from '../rows/refreshed-choice';
import { LIFTED_REASON, learnedVerdict, usableState } from '../matching/learned-model';
import { storedLearning } from '../rows/stored-learning';
import { answerFacts } from './answer-facts';
import { parseCells } from '../rows/row-cells';
import { chosenValues, rowStatusColumns, toRowStatus, type ChosenPerson, type RowStatusRow } from '../rows/row-status';

const PAGE_ROWS = 2000;
/** Rows with candidates the model assesses (row_status as rs). */
const TO_ASSESS = "rs.outcome = 'to_review' AND rs.query_id IS NOT NULL";
/** Of those, rows settled before the model existed. */
const UNASSESSED = 'rs.confidence IS NULL';

/**
 * Whether the project has rows settled before the confidence model existed (reassessRows 'unassessed' has work), as a
 * statement giving the first such row's index (`k`): it reads the whole project when there is none, so the engine may
 * have a worker run it (runs/reading-thread.ts).
 */
export function unassessedProbe(projectId: number): { sql: string; params: unknown[] } {
  return { sql: `SELECT rs.row_index AS k FROM row_status AS rs WHERE rs.project_id = ? AND ${TO_ASSESS} AND ${UNASSESSED} LIMIT 1`, params: [projectId] };
}

/**
 * Works out the confidence model's verdict again for the rows of a project that have candidates, without asking
 * the service: `unassessed` fills rows settled before the model existed, `all` follows a new mapping (another
 * location or company column changes the evidence). Decisions stay as they are; only what the model says
 * about the candidates changes, and where a chosen person is now against the sheet's company; what the project
 * learned from its decisions still lifts the waiting rows it supports (matching/learned-model.ts). Returns how many
 * rows it assessed.
 */
export async function reassessRows(db: Database, projectId: number, mapping: Mapping, which: 'unassessed' | 'all'): Promise<number> {
  const page = db.prepare(
    `SELECT ${rowStatusColumns('rs')}, r.cells FROM row_status AS rs
     JOIN rows AS r ON r.project_id = rs.project_id AND r.row_index = rs.row_index
     WHERE rs.project_id = ? AND rs.row_index >= ? AND ${TO_ASSESS} ${which === 'unassessed' ? `AND ${UNASSESSED}` : ''}
     ORDER BY rs.row_index LIMIT ?`,
  );
  // The chosen person's reason is compared with the row's new one, not the one this statement replaces.
  const write = db.prepare(
    `UPDATE row_status SET confidence = ?, runner_up = ?, best_rank = ?, reason = ?, guard = ?, verdict_basis = NULL,
       chosen = ?, chosen_person = ?, chosen_score = ?, chosen_confidence = ?, chosen_reason = ?, job_change = ?, job_change_date = ?, job_change_reason = ?
     WHERE project_id = ? AND row_index = ?`,
  );
  const scope = db.prepare('SELECT plan_scope FROM projects WHERE id = ?').pluck().get(projectId) as string | null;
  // What the project learned from its decisions still lifts the rows of the patterns it supports.
  const learned = usableState(storedLearning(db, projectId)?.state ?? null).state;
  let assessed = 0;
  for (let from = 0; ; ) {
    const rows = (page.all(projectId, from, PAGE_ROWS) as (RowStatusRow & { cells: string })[]).map((r) => ({ status: toRowStatus(r), cells: r.cells }));
    if (rows.length === 0) return assessed;
    const facts = answerFacts(
      db,
      rows.map((r) => r.status.queryId!),
      Number.MIN_SAFE_INTEGER,
    );
    // A person a refresh found since the row's answer: their jobs are the refresh's, not the answer's.
    const fresh = FreshestFacts.load(
      db,
      scope,
      rows.map(({ status }) => ({ slug: status.chosen?.summary.social ?? null, queryId: status.queryId })),
    );
    db.transaction(() => {
      for (const { status, cells } of rows) {
        const { rowIndex, queryId: key, strategy, state, chosen } = status;
        const candidates = facts.get(key!);
        // The answer is gone from the cache: the row keeps what it had, and a run asks again.
        if (!candidates || candidates.length === 0) continue;
        const input = rowInput(parseCells(cells), mapping);
        const a = assessRow(rowFacts(input), candidates, strategy, 'best');
        const refreshed = chosen ? fresh.facts(chosen.summary.social, key) : null;
        const person = chosen ? candidates.find((c) => c.rank === chosen.rank) : undefined;
        const rechosen: ChosenPerson | null =
          chosen && refreshed
            ? chosenWithFacts(chosen, refreshed, input.company)
            : chosen && person
              ? { ...chosen, jobChange: jobChange(input.company, person.jobs) }
              : chosen;
        const v = state === 'to_review' ? learnedVerdict(a, learned) : { ...a, learned: false };
        const reason = v.learned ? `${a.reason}${LIFTED_REASON}` : a.reason;
        const verdictValues = [v.confidence, a.runnerUp, a.candidates[0]!.rank, reason, v.guard];
        write.run(...verdictValues, ...chosenValues(state, rechosen, reason), projectId, rowIndex);
        assessed++;
      }
    })();
    from = rows[rows.length - 1]!.status.rowIndex + 1;
    await nextTurn();
  }
}
