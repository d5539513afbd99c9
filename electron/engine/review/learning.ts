// Learning from a project's reviewer decisions (issue 43): each row decided by hand is a labelled pair, counted per
// reason pattern (matching/learned-model.ts) and, with the sheet's other rows, the ground the model's m figures are
// estimated again on (matching/sheet-weights.ts); the rows still waiting for review are then assessed again under
// what was learned, and a pattern the labels support lifts its rows' guard, so the accept of confident rows takes them.
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Database } from 'better-sqlite3';
import type { LearningSource, LearningSummary, ReviewGroup, ReviewPage } from '../../../shared/contract';
import { EngineError } from '../engine-errors';
import { LIFTED_REASON, learnFrom, learnedSentences, learnedVerdict, supportOf, usableState, type Label, type LearnedState } from '../matching/learned-model';
import { learnablePattern, patternWords, reasonPattern } from '../matching/reason-pattern';
import { estimateSheetWeights, type SheetRow } from '../matching/sheet-weights';
import type { RowAssessment } from '../matching/assess-row';
import { readyProjectIds, requireProject, type ProjectRecord } from '../rows/project-record';
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

/** The fields a project's sheet maps, sorted: two sheets of the same kind map the same. */
function mappedFields(p: ProjectRecord): string {
  return Object.keys(p.mapping)
    .filter((k) => p.mapping[k as keyof ProjectRecord['mapping']] !== undefined)
    .sort()
    .join(', ');
}

/**
 * The projects besides `to` whose learning it may be offered to start from: those that learned something under this
 * model version, the same kind of sheet first (another kind is listed, and learning.learn says why it refuses it).
 */
export function learningSources(db: Database, to: ProjectRecord): LearningSource[] {
  const sources: LearningSource[] = [];
  for (const id of readyProjectIds(db)) {
    const stored = id === to.id ? null : storedLearning(db, id);
    if (!stored || usableState(stored.state).note) continue;
    const from = requireProject(db, id);
    sources.push({ projectId: id, name: from.name, labels: stored.labels, sameKind: mappedFields(from) === mappedFields(to) });
  }
  return sources.sort((a, b) => Number(b.sameKind) - Number(a.sameKind));
}

/**
 * Another project's learned state for a new project to start from, when the user chooses it: refused when that
 * project learned nothing under this model version, or its sheet maps other fields (another kind of sheet).
 */
export function learningToStartFrom(db: Database, from: ProjectRecord, to: ProjectRecord): LearnedState {
  const stored = storedLearning(db, from.id);
  const { state, note } = usableState(stored?.state ?? null);
  if (!stored || note) throw new EngineError('invalid_input', `"${from.name}" has learned nothing to start from${note ? ` (${note})` : ''}.`);
  if (mappedFields(from) !== mappedFields(to)) {
    throw new EngineError('invalid_input', `"${from.name}" maps ${mappedFields(from) || 'no column'} and "${to.name}" maps ${mappedFields(to) || 'no column'}: what one learned fits only a sheet of the same kind.`);
  }
  return state;
}

/** The row indexes of the project's rows in a state, in file order. */
function rowIndexes(db: Database, projectId: number, where: string): number[] {
  return db.prepare(`SELECT row_index FROM row_status WHERE project_id = ? AND query_id IS NOT NULL AND ${where} ORDER BY row_index`).pluck().all(projectId) as number[];
}

/** Rows besides those decided by hand that EM reads, spread over the sheet: enough to estimate every common level. */
const SAMPLE_ROWS = 20_000;

/** One slice of rows read at a time, with `onProgress` and `signal` heard in between. */
class Slices {
  private done = 0;
  constructor(
    private readonly total: number,
    private readonly onProgress: (rowsDone: number, rowsTotal: number) => void,
    private readonly signal: AbortSignal | undefined,
  ) {}

  async step(): Promise<void> {
    this.done++;
    if (this.done % ROWS_PER_SLICE === 0) {
      this.onProgress(this.done, this.total);
      await this.turn();
    }
  }

  async turn(): Promise<void> {
    await nextTurn();
    this.check();
  }

  check(): void {
    if (this.signal?.aborted) throw new EngineError('cancelled', 'Learning from your decisions was cancelled: nothing was changed.');
  }
}

/** Every n-th of `rows` so that at most `most` are kept, in order. */
function spread(rows: number[], most: number): number[] {
  if (rows.length <= most) return rows;
  const step = rows.length / most;
  return Array.from({ length: most }, (_, i) => rows[Math.floor(i * step)]!);
}

/**
 * Counts the project's hand-made decisions as labels (the decided row's best candidate right when it was the one
 * chosen, wrong when another was or none fits), on top of `startFrom` (another project's state, if the user chose
 * it); estimates the model's m figures again from the sheet's candidate pairs with those labels (EM,
 * matching/sheet-weights.ts); then assesses the rows waiting for review again: a supported pattern lifts a row, a
 * pattern no longer supported drops a lift, and the sheet's figures may lower a confidence. Everything is worked out
 * first, a slice at a time with `onProgress` and `signal` heard in between, and written in one transaction: a cancel
 * changes nothing.
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
  const others = spread(rowIndexes(db, project.id, "outcome = 'to_review' AND NOT (source IS 'manual' AND state IN ('accepted', 'rejected'))"), SAMPLE_ROWS);
  const waiting = rowIndexes(db, project.id, "state = 'to_review'");
  const slices = new Slices(decided.length + others.length + waiting.length, onProgress, signal);
  const assess = (rowIndex: number) => {
    const status = readRowStatus(db, project.id, rowIndex)!;
    return { status, assessed: assessedRow(db, project, status, rowCells(db, project.id, rowIndex) ?? []) };
  };
  const labels: Label[] = [];
  const sheet: SheetRow[] = [];
  onProgress(0, decided.length + others.length + waiting.length);
  for (const rowIndex of decided) {
    const { status, assessed } = assess(rowIndex);
    if (assessed) {
      const { candidates } = assessed.assessment;
      const chosen = status.state === 'accepted' ? candidates.findIndex((c) => c.rank === status.chosenRank) : -1;
      const pattern = reasonPattern(assessed.assessment);
      if (pattern) labels.push({ pattern, right: chosen === 0 });
      // A chosen person no longer among the candidates says nothing of them.
      if (status.state === 'rejected' || chosen >= 0) sheet.push({ levels: candidates.map((c) => c.levels), label: chosen >= 0 ? chosen : null });
    }
    await slices.step();
  }
  for (const rowIndex of others) {
    const { assessed } = assess(rowIndex);
    if (assessed) sheet.push({ levels: assessed.assessment.candidates.map((c) => c.levels) });
    await slices.step();
  }
  const weights = sheet.length === 0 ? null : await estimateSheetWeights(sheet, () => slices.turn());
  // What the project started from (another project's state, chosen now or at an earlier learning) stays under its own labels.
  const base = usableState(startFrom ?? storedLearning(db, project.id)?.base ?? null).state;
  const state: LearnedState = { ...learnFrom(labels, base), weights };

  const writes: { rowIndex: number; confidence: number; guard: string | null; reason: string; modelAlone: boolean }[] = [];
  const lifted = new Map<string, number>();
  for (const rowIndex of waiting) {
    const { status, assessed } = assess(rowIndex);
    if (assessed) {
      const { assessment } = assessed;
      const verdict = learnedVerdict(assessment, state);
      const reason = verdict.learned ? `${assessment.reason}${LIFTED_REASON}` : assessment.reason;
      if (verdict.learned) lifted.set(verdict.pattern!, (lifted.get(verdict.pattern!) ?? 0) + 1);
      const stored = status.verdict;
      if (!stored || stored.confidence !== verdict.confidence || stored.guard !== verdict.guard || stored.reason !== reason) {
        writes.push({ rowIndex, confidence: verdict.confidence, guard: verdict.guard, reason, modelAlone: verdict.confidence === assessment.confidence && verdict.guard === assessment.guard });
      }
    }
    await slices.step();
  }
  slices.check();

  // A verdict that is not the model's alone (lifted, or lowered by the sheet's figures) has verdict_basis NULL, so it
  // is never copied to another project. A row decided while learning went on keeps its decision's verdict.
  const write = db.prepare(
    "UPDATE row_status SET confidence = ?, guard = ?, reason = ?, verdict_basis = CASE WHEN ? THEN verdict_basis ELSE NULL END WHERE project_id = ? AND row_index = ? AND state = 'to_review'",
  );
  const rowsLifted = [...lifted.values()].reduce((a, b) => a + b, 0);
  db.transaction(() => {
    for (const w of writes) write.run(w.confidence, w.guard, w.reason, w.modelAlone ? 1 : 0, project.id, w.rowIndex);
    db.prepare(
      `INSERT INTO learned_models (project_id, model_version, patterns, base, weights, labels, rows_lifted, learned_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (project_id) DO UPDATE SET model_version = excluded.model_version, patterns = excluded.patterns, base = excluded.base,
         weights = excluded.weights, labels = excluded.labels, rows_lifted = excluded.rows_lifted, learned_at = excluded.learned_at`,
    ).run(project.id, state.modelVersion, JSON.stringify(state.patterns), JSON.stringify(base.patterns), weights ? JSON.stringify(weights) : null, labels.length, rowsLifted, at);
  })();
  onProgress(decided.length + others.length + waiting.length, decided.length + others.length + waiting.length);
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

/** Forgets what the project learned and puts every waiting row the learning changed back to what the model alone says. */
export async function resetLearning(db: Database, project: ProjectRecord): Promise<LearningSummary> {
  const waiting = rowIndexes(db, project.id, "state = 'to_review'");
  const write = db.prepare('UPDATE row_status SET confidence = ?, guard = ?, reason = ? WHERE project_id = ? AND row_index = ?');
  const back: { rowIndex: number; a: RowAssessment }[] = [];
  for (let i = 0; i < waiting.length; i++) {
    const rowIndex = waiting[i]!;
    const status = readRowStatus(db, project.id, rowIndex)!;
    const assessed = assessedRow(db, project, status, rowCells(db, project.id, rowIndex) ?? []);
    const a = assessed?.assessment;
    const v = status.verdict;
    if (a && (!v || v.confidence !== a.confidence || v.guard !== a.guard || v.reason !== a.reason)) back.push({ rowIndex, a });
    if (i % ROWS_PER_SLICE === ROWS_PER_SLICE - 1) await nextTurn();
  }
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
