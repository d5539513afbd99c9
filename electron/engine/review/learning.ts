// Learning from a project's reviewer decisions (issue 43): each row decided by hand is a labelled pair, counted per
// reason pattern (matching/learned-model.ts); the rows still waiting for review are then assessed again under what
// was learned, and a pattern the labels support lifts its rows' guard, so the accept of confident rows takes them.
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Database } from 'better-sqlite3';
import type { LearningSummary, ReviewGroup, ReviewPage } from '../../../shared/contract';
import { EngineError } from '../engine-errors';
import { LIFTED_REASON, learnFrom, learnedSentences, learnedVerdict, supportOf, usableState, type Label, type LearnedState } from '../matching/learned-model';
import { learnablePattern, patternWords, reasonPattern } from '../matching/reason-pattern';
import type { ProjectRecord } from '../rows/project-record';
import { storedLearning } from '../rows/stored-learning';
import { ROW_STATUS_COLUMNS, readRowStatus, type RowStatusRow } from '../rows/row-status';
import { lastRefreshOf } from '../store/refresh-tables';
import { reviewFigures, reviewRowsOf, type ChangedCount } from './review-page';
import { assessedRow, rowCells } from './row-detail';

const ROWS_PER_SLICE = 500;

/** What was learned, in words, and what it changed; a state from another model version is dropped with a note. */
export function learningSummary(db: Database, project: ProjectRecord, changes: LearningSummary['changes'] = []): LearningSummary {
  const stored = storedLearning(db, project.id);
  const { state, note } = usableState(stored?.state ?? null);
  return { projectId: project.id, labels: note ? 0 : (stored?.labels ?? 0), rowsLifted: note ? 0 : (stored?.rowsLifted ?? 0), sentences: learnedSentences(state), note, changes };
}

/**
 * Another project's learned state for a new project to start from, when the user chooses it: refused when that
 * project learned nothing under this model version, or its sheet maps other fields (another kind of sheet).
 */
export function learningToStartFrom(db: Database, from: ProjectRecord, to: ProjectRecord): LearnedState {
  const stored = storedLearning(db, from.id);
  const { state, note } = usableState(stored?.state ?? null);
  if (!stored || note) throw new EngineError('invalid_input', `"${from.name}" has learned nothing to start from${note ? ` (${note})` : ''}.`);
  const fields = (p: ProjectRecord) => Object.keys(p.mapping).filter((k) => p.mapping[k as keyof ProjectRecord['mapping']] !== undefined).sort().join(', ');
  if (fields(from) !== fields(to)) {
    throw new EngineError('invalid_input', `"${from.name}" maps ${fields(from) || 'no column'} and "${to.name}" maps ${fields(to) || 'no column'}: what one learned fits only a sheet of the same kind.`);
  }
  return state;
}

/** The row indexes of the project's rows in a state, in file order. */
function rowIndexes(db: Database, projectId: number, where: string): number[] {
  return db.prepare(`SELECT row_index FROM row_status WHERE project_id = ? AND query_key IS NOT NULL AND ${where} ORDER BY row_index`).pluck().all(projectId) as number[];
}

/**
 * Counts the project's hand-made decisions as labels (the decided row's best candidate right when it was the one
 * chosen, wrong when another was or none fits), on top of `startFrom` (another project's state, if the user chose
 * it), then assesses the rows waiting for review again: a supported pattern lifts a row, a pattern no longer
 * supported drops a lift. Everything is worked out first, a slice at a time with `onProgress` and `signal` heard in
 * between, and written in one transaction: a cancel changes nothing.
 */
export async function learnFromDecisions(
  db: Database,
  project: ProjectRecord,
  at: string,
  startFrom: LearnedState | null,
  onProgress: (rowsDone: number, rowsTotal: number) => void = () => undefined,
  signal?: AbortSignal,
): Promise<LearningSummary> {
  const decided = rowIndexes(db, project.id, "source = 'manual' AND state IN ('accepted', 'rejected')");
  const waiting = rowIndexes(db, project.id, "state = 'to_review'");
  const total = decided.length + waiting.length;
  const labels: Label[] = [];
  let done = 0;
  const step = async () => {
    done++;
    if (done % ROWS_PER_SLICE !== 0) return;
    onProgress(done, total);
    await nextTurn();
    if (signal?.aborted) throw new EngineError('cancelled', 'Learning from your decisions was cancelled: nothing was changed.');
  };
  onProgress(0, total);
  for (const rowIndex of decided) {
    const status = readRowStatus(db, project.id, rowIndex)!;
    const assessed = assessedRow(db, project, status, rowCells(db, project.id, rowIndex) ?? []);
    const pattern = assessed ? reasonPattern(assessed.assessment) : null;
    if (assessed && pattern) labels.push({ pattern, right: status.state === 'accepted' && status.chosenRank === assessed.assessment.candidates[0]!.rank });
    await step();
  }
  // What the project started from (another project's state, chosen now or at an earlier learning) stays under its own labels.
  const base = usableState(startFrom ?? storedLearning(db, project.id)?.base ?? null).state;
  const state = learnFrom(labels, base);

  const writes: { rowIndex: number; confidence: number; guard: string | null; reason: string; lifted: boolean }[] = [];
  const lifted = new Map<string, number>();
  for (const rowIndex of waiting) {
    const status = readRowStatus(db, project.id, rowIndex)!;
    const assessed = assessedRow(db, project, status, rowCells(db, project.id, rowIndex) ?? []);
    if (assessed) {
      const verdict = learnedVerdict(assessed.assessment, state);
      const reason = verdict.learned ? `${assessed.assessment.reason}${LIFTED_REASON}` : assessed.assessment.reason;
      if (verdict.learned) lifted.set(verdict.pattern!, (lifted.get(verdict.pattern!) ?? 0) + 1);
      const stored = status.verdict;
      if (!stored || stored.confidence !== verdict.confidence || stored.guard !== verdict.guard || verdict.learned || stored.reason.endsWith(LIFTED_REASON)) {
        writes.push({ rowIndex, confidence: verdict.confidence, guard: verdict.guard, reason, lifted: verdict.learned });
      }
    }
    await step();
  }
  if (signal?.aborted) throw new EngineError('cancelled', 'Learning from your decisions was cancelled: nothing was changed.');

  // A lifted verdict is not the model's alone: verdict_basis NULL keeps it from being copied to another project.
  // A row decided while learning went on keeps its decision's verdict.
  const write = db.prepare(
    "UPDATE row_status SET confidence = ?, guard = ?, reason = ?, verdict_basis = CASE WHEN ? THEN NULL ELSE verdict_basis END WHERE project_id = ? AND row_index = ? AND state = 'to_review'",
  );
  const rowsLifted = [...lifted.values()].reduce((a, b) => a + b, 0);
  db.transaction(() => {
    for (const w of writes) write.run(w.confidence, w.guard, w.reason, w.lifted ? 1 : 0, project.id, w.rowIndex);
    db.prepare(
      `INSERT INTO learned_models (project_id, model_version, patterns, base, labels, rows_lifted, learned_at) VALUES (?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (project_id) DO UPDATE SET model_version = excluded.model_version, patterns = excluded.patterns, base = excluded.base,
         labels = excluded.labels, rows_lifted = excluded.rows_lifted, learned_at = excluded.learned_at`,
    ).run(project.id, state.modelVersion, JSON.stringify(state.patterns), JSON.stringify(base.patterns), labels.length, rowsLifted, at);
  })();
  onProgress(total, total);
  const changes = [...lifted].map(([pattern, rows]) => {
    const { accepted, rejected } = state.patterns[pattern]!;
    const total = accepted + rejected;
    return {
      pattern,
      words: `Rows ${patternWords(pattern)}`,
      rows,
      confidence: supportOf(state.patterns[pattern])!,
      sentence: `You accepted ${accepted} of ${total} row${total === 1 ? '' : 's'} ${patternWords(pattern)}; ${rows} more row${rows === 1 ? ' now looks' : 's now look'} like them.`,
    };
  });
  return learningSummary(db, project, changes.sort((a, b) => b.rows - a.rows));
}

/** Forgets what the project learned and puts every lifted row back to what the model alone says. */
export function resetLearning(db: Database, project: ProjectRecord): LearningSummary {
  const lifted = db.prepare("SELECT row_index FROM row_status WHERE project_id = ? AND state = 'to_review' AND reason LIKE ?").pluck().all(project.id, `%${LIFTED_REASON}`) as number[];
  const write = db.prepare('UPDATE row_status SET confidence = ?, guard = ?, reason = ? WHERE project_id = ? AND row_index = ?');
  const back = lifted.flatMap((rowIndex) => {
    const assessed = assessedRow(db, project, readRowStatus(db, project.id, rowIndex)!, rowCells(db, project.id, rowIndex) ?? []);
    return assessed ? [{ rowIndex, a: assessed.assessment }] : [];
  });
  db.transaction(() => {
    for (const { rowIndex, a } of back) write.run(a.confidence, a.guard, a.reason, project.id, rowIndex);
    db.prepare('DELETE FROM learned_models WHERE project_id = ?').run(project.id);
  })();
  return learningSummary(db, project);
}

/** The rows waiting for review of one reason pattern, in file order: what review.page gives for `pattern`. */
export async function patternIndexes(db: Database, project: ProjectRecord, pattern: string): Promise<number[]> {
  const matching: number[] = [];
  const waiting = rowIndexes(db, project.id, "state = 'to_review'");
  for (let i = 0; i < waiting.length; i++) {
    const rowIndex = waiting[i]!;
    const assessed = assessedRow(db, project, readRowStatus(db, project.id, rowIndex)!, rowCells(db, project.id, rowIndex) ?? []);
    if (assessed && reasonPattern(assessed.assessment) === pattern) matching.push(rowIndex);
    if (i % ROWS_PER_SLICE === ROWS_PER_SLICE - 1) await nextTurn();
  }
  return matching;
}

/** A review page of the rows of one reason pattern ("rows like this"), so a reviewer decides a group after a few. */
export async function patternPage(db: Database, project: ProjectRecord, pattern: string, offset: number, limit: number, changed?: ChangedCount): Promise<ReviewPage> {
  const matching = await patternIndexes(db, project, pattern);
  const read = db.prepare(`SELECT ${ROW_STATUS_COLUMNS} FROM row_status WHERE project_id = ? AND row_index = ?`);
  const rows = matching.slice(offset, offset + limit).map((i) => read.get(project.id, i) as RowStatusRow);
  return { rows: reviewRowsOf(db, project.id, rows), total: matching.length, ...reviewFigures(db, project.id, changed), lastRefreshAt: lastRefreshOf(db, project.id)?.startedAt ?? null };
}

/**
 * "Rows like this": the rows waiting for review grouped by reason pattern, the largest group first, each with its
 * words and whether what is learned may ever lift it (twins and conflicting names never).
 */
export async function reviewGroups(db: Database, project: ProjectRecord): Promise<ReviewGroup[]> {
  const groups = new Map<string, number>();
  const waiting = rowIndexes(db, project.id, "state = 'to_review'");
  for (let i = 0; i < waiting.length; i++) {
    const rowIndex = waiting[i]!;
    const assessed = assessedRow(db, project, readRowStatus(db, project.id, rowIndex)!, rowCells(db, project.id, rowIndex) ?? []);
    const pattern = assessed ? reasonPattern(assessed.assessment) : null;
    if (pattern) groups.set(pattern, (groups.get(pattern) ?? 0) + 1);
    if (i % ROWS_PER_SLICE === ROWS_PER_SLICE - 1) await nextTurn();
  }
  return [...groups]
    .map(([pattern, rows]) => ({ pattern, words: `Rows ${patternWords(pattern)}`, rows, learnable: learnablePattern(pattern) }))
    .sort((a, b) => b.rows - a.rows || a.pattern.localeCompare(b.pattern));
}
