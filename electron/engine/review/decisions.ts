import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Database } from 'better-sqlite3';
import type { AcceptPreview, DecisionResult } from '../../../shared/contract';
import { MANUAL_STATES, type AutoAcceptRule, type RowState } from '../../../shared/model';
import type { Clock } from '../clock';
import { CLOSING } from '../cancellable-calls';
import { EngineError, notFound } from '../engine-errors';
import type { ProjectRecord } from '../rows/project-record';
import { sheetRowNumber, touchProject } from '../rows/project-record';
import { clearsLimitsWhere, jobChange, rowInput } from '../matching';
import { FreshestFacts } from '../rows/freshest-facts';
import { chosenWithFacts } from '../rows/refreshed-choice';
import { answerFacts } from '../runs/answer-facts';
import { chosenFrom } from '../runs/row-verdict';
import { rowsAsking } from '../runs/shared-queries';
import { CHOSEN_SQL, chosenValues, readRowStatus, sameChosen, type ChosenPerson, type RowStatusRecord } from '../rows/row-status';
import { statement } from '../store';
import { assessedRow, rowCells, rowDetail } from './row-detail';
import { ReviewMoves, reviewFigures, withReviewMoves, type ChangedCount } from './review-page';
import { readRows, type RowsReader } from '../runs/reading-thread';

/** The part of a row's status a decision sets, as logged before and after each change. */
interface DecisionFields {
  state: RowState;
  chosenRank: number | null;
  chosen: ChosenPerson | null;
  source: 'auto' | 'manual' | null;
  decidedAt: string | null;
}

interface Change {
  rowIndex: number;
  before: DecisionFields;
  after: DecisionFields;
}

/** A person just chosen for a row, before the freshest record of them is looked up. */
interface Picked {
  chosen: ChosenPerson;
  queryId: number | null;
  sheetCompany: string | null;
}

const KEYS_PER_READ = 500;
const ENTRIES_PER_READ = 500;
/** The thresholds "accept all at or above" shows counts for, besides the setting's. */
const PREVIEW_THRESHOLDS = [0.99, 0.97, 0.95, 0.9, 0.85, 0.8, 0.7, 0.6, 0.5];

/**
 * What a person decides about rows. Every change is written with its entry in the append-only decision log in
 * one transaction, grouped in a batch (one user action), so undo reverts exactly the last action, also after a
 * restart. "Apply to identical" covers the rows that were settled by the same query and that nobody decided
 * by hand yet: a decision someone made row by row is never overwritten in bulk.
 */
export class Decisions {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    /** How a decision's figures count the rows changed at the last refresh (review-page.ts ChangedCount). */
    private readonly changed?: ChangedCount,
  ) {}

  choose(project: ProjectRecord, rowIndex: number, rank: number, applyToIdentical: boolean): DecisionResult {
    const row = this.row(project, rowIndex);
    const assessed = assessedRow(this.db, project, row, rowCells(this.db, project.id, rowIndex) ?? []);
    const count = assessed?.facts.length ?? 0;
    // The assessed candidates are already the freshest records of them (row-detail.ts assessedRow).
    const chosen = assessed ? chosenFrom(assessed.assessment, assessed.facts, rank, assessed.sheetCompany) : null;
    if (!chosen) {
      throw new EngineError(
        'invalid_input',
        count === 0
          ? `Row ${sheetRowNumber(project, rowIndex)} has no candidates to choose from${row.outcome === 'to_review' ? ' (its answer is no longer in the cache; run the project again)' : ''}.`
          : `Row ${sheetRowNumber(project, rowIndex)} has ${count} candidate${count === 1 ? '' : 's'}; there is no number ${rank}.`,
      );
    }
    const after = this.decided('accepted', chosen);
    const rows = applyToIdentical ? [row, ...this.identical(project, row, true)] : [row];
    return this.commit(project, rowIndex, rows.map((r) => ({ rowIndex: r.rowIndex, before: fieldsOf(r), after })));
  }

  reject(project: ProjectRecord, rowIndex: number, applyToIdentical: boolean): DecisionResult {
    const row = this.row(project, rowIndex);
    const after = this.decided('rejected', null);
    const rows = applyToIdentical ? [row, ...this.identical(project, row, false)] : [row];
    return this.commit(project, rowIndex, rows.map((r) => ({ rowIndex: r.rowIndex, before: fieldsOf(r), after })));
  }

  skip(project: ProjectRecord, rowIndex: number): DecisionResult {
    const row = this.row(project, rowIndex);
    return this.commit(project, rowIndex, [{ rowIndex, before: fieldsOf(row), after: this.decided('skipped', null) }]);
  }

  /**
   * Decisions from a file (matchdesk decide), as a reviewer would make them, in one action that one undo reverts:
   * each names a row by its sheet number and the person chosen, or null for none of the candidates. Every entry is
   * checked before any is written: a row not in the project, without candidates, or a person not among its
   * candidates refuses the whole file, naming the entry's line.
   */
  record(project: ProjectRecord, entries: readonly { line: number; row: number; personId: string | null }[]): DecisionResult {
    const seen = new Map<number, number>();
    const changes = entries.map(({ line, row: number, personId }): Change => {
      const refuse = (why: string) => new EngineError('invalid_input', `Line ${line}: ${why}. Nothing was recorded; correct the file and run it again.`);
      const rowIndex = number - project.firstRow;
      const status = rowIndex >= 0 ? readRowStatus(this.db, project.id, rowIndex) : null;
      if (!status) throw refuse(`row ${number} is not a row of "${project.name}" (its rows are ${project.firstRow} to ${sheetRowNumber(project, project.rowCount - 1)}, blank rows aside)`);
      if (seen.has(rowIndex)) throw refuse(`row ${number} was already decided on line ${seen.get(rowIndex)}`);
      seen.set(rowIndex, line);
      if (personId === null) return { rowIndex, before: fieldsOf(status), after: this.decided('rejected', null) };
      const assessed = assessedRow(this.db, project, status, rowCells(this.db, project.id, rowIndex) ?? []);
      const person = assessed?.facts.find((f) => f.summary.id === personId);
      if (!assessed || !person) {
        const ids = assessed?.facts.map((f) => f.summary.id).filter(Boolean) ?? [];
        throw refuse(`person ${personId} is not among row ${number}'s candidates (${ids.length ? ids.join(', ') : 'it has none'})`);
      }
      const chosen = chosenFrom(assessed.assessment, assessed.facts, person.rank, assessed.sheetCompany)!;
      return { rowIndex, before: fieldsOf(status), after: this.decided('accepted', chosen) };
    });
    return this.commit(project, null, changes);
  }

  /** Back to what the run found, as if nobody had decided. */
  clear(project: ProjectRecord, rowIndex: number): DecisionResult {
    const row = this.row(project, rowIndex);
    const after: DecisionFields = { state: row.outcome, chosenRank: null, chosen: null, source: null, decidedAt: null };
    return this.commit(project, rowIndex, [{ rowIndex, before: fieldsOf(row), after }]);
  }

  /**
   * How many rows waiting for review "accept all at or above" takes at each threshold: rows whose best candidate
   * is at least that confident, leads the runner-up by the rule's minLead, and has no guard.
   */
  async acceptPreview(project: ProjectRecord, rule: AutoAcceptRule, elsewhere?: RowsReader): Promise<AcceptPreview> {
    const thresholds = [...new Set([...PREVIEW_THRESHOLDS, rule.minConfidence])].sort((a, b) => b - a);
    // One walk of the queue, each row counted under every threshold it clears, by the condition acceptAtOrAbove
    // selects with. A count a threshold read each row's runner-up and guard again, ten times over; the one walk reads
    // each row's once (and `elsewhere` may take it off the engine's thread).
    const clears = thresholds.map((minConfidence) => clearsLimitsWhere({ minConfidence, minLead: rule.minLead }));
    const sql = `SELECT coalesce(sum(guard IS NOT NULL), 0) AS guarded, ${clears.map((c, i) => `coalesce(sum(${c.sql}), 0) AS t${i}`).join(', ')}
      FROM row_status INDEXED BY row_status_to_review_by_confidence WHERE project_id = ? AND state = 'to_review'`;
    const params = [...clears.flatMap((c) => c.params), project.id];
    const counts = (await readRows(this.db, sql, params, elsewhere))[0] as Record<string, number>;
    return { thresholds: thresholds.map((t, i) => ({ minConfidence: t, rows: counts[`t${i}`]! })), minLead: rule.minLead, setting: rule.minConfidence, guarded: counts.guarded! };
  }

  /**
   * Every row waiting for review whose best candidate is at or above `minConfidence` (and leads the runner-up by the
   * rule's minLead, with no guard) becomes 'auto', as one action that undo reverts. Counted by acceptPreview first.
   * Only the rows' indexes are held (4 bytes a row): the changes, each with its chosen person, are worked out and
   * written KEYS_PER_READ rows a transaction, giving other calls their turn in between (a large queue of confident
   * rows would hold the engine for many seconds in one), so a review queue of a million confident rows
   * needs no more memory than a few hundred. Meanwhile the project's rows take no other decision: the overlap table
   * (jobs/concurrency.ts) has them wait. A crash part-way leaves the slices written so far, logged as the action:
   * undo reverts them. `onProgress` hears the rows gone through, of those counted, at the start and after every slice. Aborting `signal`
   * stops it before its next slice: a user's cancel reverts the slices written, the engine closing keeps them.
   * `only` limits it to those rows (one reason pattern's, as a learning's change names them).
   */
  async acceptAtOrAbove(
    project: ProjectRecord,
    rule: AutoAcceptRule,
    minConfidence: number,
    onProgress: (rowsDone: number, rowsTotal: number) => void = () => undefined,
    signal?: AbortSignal,
    only?: ReadonlySet<number>,
  ): Promise<DecisionResult> {
    const clears = clearsLimitsWhere({ minConfidence, minLead: rule.minLead });
    const qualifying = this.db
      .prepare(
        `SELECT row_index FROM row_status INDEXED BY row_status_to_review_by_confidence
         WHERE project_id = ? AND state = 'to_review' AND ${clears.sql}`,
      )
      .pluck()
      .iterate(project.id, ...clears.params) as IterableIterator<number>;
    const indexes = Int32Array.from(only ? [...qualifying].filter((i) => only.has(i)) : qualifying);
    const at = this.now();
    let batch: number | null = null;
    let changed = 0;
    onProgress(0, indexes.length);
    for (let i = 0; i < indexes.length; i += KEYS_PER_READ) {
      if (i > 0) await nextTurn();
      if (signal?.aborted) break;
      const slice = this.logBatch(project, (write) => write(this.autoAccepted(project, indexes.subarray(i, i + KEYS_PER_READ), at)), batch);
      changed += slice.changed;
      batch = slice.batch;
      onProgress(Math.min(i + KEYS_PER_READ, indexes.length), indexes.length);
    }
    // The engine closing keeps the slices written: they are the action, as a crash would leave it, and undo reverts
    // them. The user's cancel takes them back.
    if (signal?.aborted && signal.reason !== CLOSING) {
      if (batch !== null) await this.revert(project, batch, () => undefined);
      throw new EngineError('cancelled', 'Accepting the confident rows was cancelled: no row was changed.');
    }
    return { changed, row: null, ...reviewFigures(this.db, project.id, this.changed) };
  }

  /** The changes that make these rows 'auto' with their best candidate (its freshest record); rows that lost it are left out. */
  private autoAccepted(project: ProjectRecord, rowIndexes: Int32Array, at: string): Change[] {
    const rows = [...rowIndexes].map((i) => readRowStatus(this.db, project.id, i)).filter((r) => r?.state === 'to_review' && r.verdict && r.queryId !== null) as RowStatusRecord[];
    const facts = answerFacts(
      this.db,
      rows.map((r) => r.queryId!),
      Number.MIN_SAFE_INTEGER,
    );
    const changes: Change[] = [];
    const picked: Picked[] = [];
    for (const row of rows) {
      const person = facts.get(row.queryId!)?.find((c) => c.rank === row.verdict!.bestRank);
      if (!person) continue;
      const sheetCompany = rowInput(rowCells(this.db, project.id, row.rowIndex) ?? [], project.mapping).company;
      const chosen: ChosenPerson = {
        rank: person.rank,
        score: person.score,
        summary: person.summary,
        confidence: row.verdict!.confidence,
        reason: row.verdict!.reason,
        jobChange: jobChange(sheetCompany, person.jobs),
      };
      if (person.personId !== undefined) chosen.personId = person.personId;
      picked.push({ chosen, queryId: row.queryId, sheetCompany });
      changes.push({ rowIndex: row.rowIndex, before: fieldsOf(row), after: { state: 'auto', chosenRank: person.rank, chosen, source: 'auto', decidedAt: at } });
    }
    const fresh = this.freshest(project, picked);
    changes.forEach((c, i) => (c.after.chosen = fresh[i]!));
    return changes;
  }

  /**
   * Reverts the project's last action that is not undone yet, row by row where nothing changed the row since. The
   * action's log is read and reverted ENTRIES_PER_READ entries a transaction, other calls taking their turn in between
   * (the undo of a large accept would hold the engine for many seconds in one), so an "accept all" over a
   * million rows is undone in the memory of a few hundred. Meanwhile the project's rows take no other decision: the
   * overlap table (jobs/concurrency.ts) has them wait. An action over more than one slice of rows is told to `onProgress` as it goes: the log entries
   * gone through, of the action's. Aborting `signal` stops it before its next slice, as a crash would: the rows taken
   * back stay so, the action is not marked undone, and the next undo takes back the rest.
   */
  undo(project: ProjectRecord, onProgress: (rowsDone: number, rowsTotal: number) => void = () => undefined, signal?: AbortSignal): Promise<DecisionResult> {
    const batch = this.db.prepare('SELECT max(batch_id) FROM decision_log WHERE project_id = ? AND undone_at IS NULL').pluck().get(project.id) as number | null;
    if (batch === null) return Promise.resolve({ changed: 0, row: null, ...reviewFigures(this.db, project.id, this.changed) });
    return this.revert(project, batch, onProgress, signal);
  }

  /**
   * Reverts one action (`batch` of the decision log) a slice at a time, and marks it undone with the last. A crash
   * part-way leaves it not marked: the next undo takes back the rest, passing over the rows already reverted (they no
   * longer hold what the action wrote).
   */
  private async revert(project: ProjectRecord, batch: number, onProgress: (rowsDone: number, rowsTotal: number) => void, signal?: AbortSignal): Promise<DecisionResult> {
    const db = this.db;
    const entriesAfter = statement(db, 'SELECT id, row_index, before, after FROM decision_log WHERE project_id = ? AND batch_id = ? AND id > ? ORDER BY id LIMIT ?');
    const entriesTotal = statement(db, 'SELECT count(*) AS n FROM decision_log WHERE project_id = ? AND batch_id = ? AND undone_at IS NULL').get(project.id, batch) as { n: number };
    // A few rows are undone at once; only an action over more than a slice says how far it is.
    const tell = entriesTotal.n > ENTRIES_PER_READ ? onProgress : () => undefined;
    const at = this.now();
    let changed = 0;
    let done = 0;
    let first: number | null = null;
    tell(0, entriesTotal.n);
    for (let lastId = 0; ; ) {
      if (lastId > 0) await nextTurn();
      if (signal?.aborted) {
        if (done === 0) throw new EngineError('cancelled', 'Undo cancelled: no row was changed.');
        const of = `${done.toLocaleString('en-US')} of ${entriesTotal.n.toLocaleString('en-US')}`;
        throw new EngineError('cancelled', `Undo stopped after ${of} rows: those are back as they were, the rest as the action left them. Undo again to take back the rest.`);
      }
      const entries = entriesAfter.all(project.id, batch, lastId, ENTRIES_PER_READ) as { id: number; row_index: number; before: string; after: string }[];
      first ??= entries[0]?.row_index ?? null;
      const moves = new ReviewMoves(project.id);
      withReviewMoves(db, moves, () =>
        db.transaction(() => {
          for (const e of entries) {
            const current = readRowStatus(db, project.id, e.row_index);
            const after = JSON.parse(e.after) as DecisionFields;
            // A run or another decision may have changed the row since: then the old state no longer applies to it. A
            // refresh (or a new mapping) only brought the same person's record up to date: that is the same decision.
            if (!current || !sameDecision(fieldsOf(current), after)) continue;
            const before = JSON.parse(e.before) as DecisionFields;
            if (before.chosen) {
              const sheetCompany = rowInput(rowCells(db, project.id, e.row_index) ?? [], project.mapping).company;
              before.chosen = this.freshest(project, [{ chosen: before.chosen, queryId: current.queryId, sheetCompany }])[0]!;
            }
            this.write(project.id, e.row_index, before);
            moves.add(e.row_index, fieldsOf(current), before);
            changed++;
          }
          if (entries.length < ENTRIES_PER_READ) {
            db.prepare('UPDATE decision_log SET undone_at = ? WHERE project_id = ? AND batch_id = ?').run(at, project.id, batch);
            touchProject(db, project.id, at);
          }
        })(),
      );
      done += entries.length;
      tell(Math.min(done, entriesTotal.n), entriesTotal.n);
      if (entries.length < ENTRIES_PER_READ) break;
      lastId = entries[entries.length - 1]!.id;
    }
    return { changed, row: first === null ? null : rowDetail(db, project, first), ...reviewFigures(db, project.id, this.changed) };
  }

  private row(project: ProjectRecord, rowIndex: number): RowStatusRecord {
    const row = readRowStatus(this.db, project.id, rowIndex);
    if (!row) throw notFound(`Row ${sheetRowNumber(project, rowIndex)} of "${project.name}"`);
    return row;
  }

  /** Other rows settled by the same query that no person has decided yet. */
  private identical(project: ProjectRecord, row: RowStatusRecord, withCandidates: boolean): RowStatusRecord[] {
    if (row.queryId === null) return [];
    const manual = MANUAL_STATES.map((s) => `'${s}'`).join(', ');
    const indexes = rowsAsking(this.db, project, row.queryId, `s.row_index != @row AND s.outcome = @outcome AND s.state NOT IN (${manual})`, {
      row: row.rowIndex,
      outcome: withCandidates ? 'to_review' : row.outcome,
    });
    return indexes.map((i) => readRowStatus(this.db, project.id, i)!).filter(Boolean);
  }

  /** Each chosen person with the freshest record on file: a refresh's when newer than the row's answer. */
  private freshest(project: ProjectRecord, picked: readonly Picked[]): ChosenPerson[] {
    const fresh = FreshestFacts.load(
      this.db,
      project.planScope,
      picked.map((p) => ({ slug: p.chosen.summary.social, queryId: p.queryId })),
    );
    return picked.map((p) => {
      const facts = fresh.facts(p.chosen.summary.social, p.queryId);
      return facts ? chosenWithFacts(p.chosen, facts, p.sheetCompany) : p.chosen;
    });
  }

  private decided(state: RowState, chosen: ChosenPerson | null): DecisionFields {
    return { state, chosenRank: chosen?.rank ?? null, chosen, source: 'manual', decidedAt: this.now() };
  }

  private commit(project: ProjectRecord, rowIndex: number | null, changes: Change[]): DecisionResult {
    const { changed } = this.logBatch(project, (write) => write(changes));
    return {
      changed,
      row: rowIndex === null ? null : rowDetail(this.db, project, rowIndex),
      ...reviewFigures(this.db, project.id, this.changed),
    };
  }

  /**
   * One user action, or one transaction of it: the changes `produce` hands to `write` (in as many parts as it likes)
   * are written with their log entries in one transaction, leaving out those that change nothing, under `batch` (a
   * new batch when null). Returns how many changed, and the batch (null while nothing was logged under it, so a
   * later transaction of the same action takes a new number that no other action can have taken meanwhile).
   */
  private logBatch(project: ProjectRecord, produce: (write: (changes: readonly Change[]) => void) => void, batchOfAction: number | null = null): { changed: number; batch: number | null } {
    const db = this.db;
    const log = statement(db, 'INSERT INTO decision_log (project_id, batch_id, row_index, before, after, at) VALUES (?, ?, ?, ?, ?, ?)');
    // The review's counts and lists follow the decision instead of being counted again (a walk of the project).
    const moves = new ReviewMoves(project.id);
    let changed = 0;
    let batch = batchOfAction;
    withReviewMoves(db, moves, () =>
      db.transaction(() => {
        const at = this.now();
        batch ??= ((db.prepare('SELECT max(batch_id) FROM decision_log').pluck().get() as number | null) ?? 0) + 1;
        produce((changes) => {
          for (const c of changes) {
            if (sameFields(c.before, c.after, true)) continue;
            this.write(project.id, c.rowIndex, c.after);
            log.run(project.id, batch, c.rowIndex, JSON.stringify(c.before), JSON.stringify(c.after), at);
            moves.add(c.rowIndex, c.before, c.after);
            changed++;
          }
        });
        if (changed > 0) touchProject(db, project.id, at);
      })(),
    );
    return { changed, batch: changed > 0 ? batch : batchOfAction };
  }

  private write(projectId: number, rowIndex: number, f: DecisionFields): void {
    statement(this.db, `UPDATE row_status SET state = ?, chosen_rank = ?, ${CHOSEN_SQL}, source = ?, decided_at = ?, verdict_basis = NULL WHERE project_id = ? AND row_index = ?`)
      .run(f.state, f.chosenRank, ...chosenValues(f.state, f.chosen), f.source, f.decidedAt, projectId, rowIndex);
  }

  private now(): string {
    return new Date(this.clock.now()).toISOString();
  }
}

function fieldsOf(r: RowStatusRecord): DecisionFields {
  return { state: r.state, chosenRank: r.chosenRank, chosen: r.chosen, source: r.source, decidedAt: r.decidedAt };
}

/** The same decision about the same person, whatever record of them it holds (a refresh updates that). */
function sameDecision(a: DecisionFields, b: DecisionFields): boolean {
  return (
    a.state === b.state &&
    a.chosenRank === b.chosenRank &&
    a.source === b.source &&
    a.decidedAt === b.decidedAt &&
    (a.chosen?.summary.id ?? null) === (b.chosen?.summary.id ?? null) &&
    (a.chosen?.summary.social ?? null) === (b.chosen?.summary.social ?? null)
  );
}

/** Equal decisions; `ignoreTime` treats re-choosing the same thing as no change. */
function sameFields(a: DecisionFields, b: DecisionFields, ignoreTime = false): boolean {
  return (
    a.state === b.state &&
    a.chosenRank === b.chosenRank &&
    a.source === b.source &&
    (ignoreTime || a.decidedAt === b.decidedAt) &&
    sameChosen(b.state, a.chosen, b.chosen)
  );
}
