import type { Database, Statement } from 'better-sqlite3';

/** Rows a copy looks at in one transaction. */
const SPAN_ROWS = 2000;
/** The first rows of two sheets compared to tell whether one is the other again, and how many must be the same. */
const PROBE_ROWS = 50;
const PROBE_SAME = 25;
/** How far down the other sheet a first row is looked for: rows added or removed above it move it. */
const PROBE_SHIFT = 1000;
/**
 * Where a span's rows stop being copied (none of them, or none of the REALIGN_AFTER or more waiting after the last one
 * copied), the sheet's rows may have moved: rows added or removed above them. The first of those waiting, up to
 * REALIGN_TRIES of them, is looked for within REALIGN_ROWS of where the other project's rows were, and taken where it
 * and the REALIGN_RUN - 1 rows after it are the same there; at most REALIGN_TIMES times a span.
 */
const REALIGN_AFTER = 100;
const REALIGN_TRIES = 16;
const REALIGN_ROWS = 10_000;
const REALIGN_RUN = 3;
const REALIGN_TIMES = 4;

/** A row whose outcome was copied, with its queries: the run counts each once however many rows ask it. */
export interface CopiedRow {
  rowIndex: number;
  /** The ids of the queries the row took, first to last: those before the last found nobody. */
  queries: number[];
}

/**
 * Verdicts a run copies from another project of the same sheet instead of working them out again: a sheet imported
 * again (the same file a week later, or with a few cells edited) asks the same queries, the cache holds their answers,
 * and working out a large sheet's verdicts from them was most of a cached re-run's work on both cores
 * (docs/performance.md, "The cached re-run"). A row's verdict is a function of its cells, its answer and its basis
 * (verdict-basis.ts: the app, the model, the mapping, the rule), so it is copied from the row at the same place in the
 * other project (or where that row moved to, below) only when all of them are the same there:
 * - the same cells, settled by the same query at the same step of the waterfall, whose answer on file is the very
 *   one that row was settled by (fetched at the same time) and fresh enough for this run;
 * - the verdict was worked out by the same basis, by a run (a decision, a refresh or a reassessment since clears
 *   the basis), and nobody decided the row: only the model's own outcome, to review or accepted alone, is copied,
 *   never a person's choice. An accepted row is decided at this run's time, as working it out would.
 * A row the other project settled at a later step is moved there only when each earlier step's answer on file (fresh)
 * found nobody, as the run would have followed it; a row that found nobody at its last step ends so again when the
 * answer on file is the one that row ended on. A row that is not the same is left pending, and the run works it out
 * as always.
 *
 * The project copied from is the one whose first rows are among its own first rows, whose verdicts have the same basis
 * and that holds most of this project's rows (the newest of those that hold as many). Next week's export of the same
 * list has rows added and removed, and every row below moves: where a span's rows stop being copied, the rows after
 * the last one copied are looked for again nearby in the other project, and copying goes on from where they are now
 * (`shift`). Copying stops for the rest of the walk at a span with rows waiting that copies none of them even so
 * (another sheet from there on); a span with none waiting (a run resumed past it) goes on to the next.
 */
export class VerdictCopy {
  /** The copies of a span, in turn: found or nobody, at the row's own step or on from its first. */
  private readonly copies: { statement: Statement; fromFirstStep: boolean }[];
  private readonly earlierSteps: Statement;
  private readonly firstWaiting: Statement;
  /** Rows waiting in a range of this project, counted up to REALIGN_AFTER. */
  private readonly waiting: Statement;
  private readonly alignment: Statement;
  /** The highest row index looked at; beyond it rows are not copied yet. */
  private lookedThrough = -1;
  private stopped = false;
  /** The other project's row for this project's row i is row i + shift: rows added or removed above move it. */
  private shift = 0;

  private constructor(
    db: Database,
    private readonly projectId: number,
    private readonly donorId: number,
    private readonly basis: number,
    /** The project's last row index. */
    private readonly lastRow: number,
  ) {
    this.copies = (['found', 'nobody'] as const).flatMap((outcome) =>
      [false, true].map((fromFirstStep) => ({ statement: db.prepare(copySql(outcome, fromFirstStep)).raw(), fromFirstStep })),
    );
    // For a span's rows moved on, [[row_index, step], ...]: one statement, not one a row. The list first (CROSS JOIN),
    // each row's steps then read by their key, in step order (the planner walked the project's whole plan instead).
    this.earlierSteps = db
      .prepare(
        `SELECT rq.row_index, rq.query_id FROM json_each(?) AS j
         CROSS JOIN row_queries AS rq ON rq.project_id = ? AND rq.row_index = j.value ->> 0 AND rq.step < j.value ->> 1`,
      )
      .raw();
    this.firstWaiting = db
      .prepare(`SELECT row_index FROM row_status WHERE project_id = ? AND state = 'pending' AND row_index > ? AND row_index <= ? ORDER BY row_index LIMIT ${REALIGN_TRIES}`)
      .pluck();
    this.waiting = db
      .prepare(`SELECT count(*) FROM (SELECT 1 FROM row_status WHERE project_id = ? AND state = 'pending' AND row_index > ? AND row_index <= ? LIMIT ${REALIGN_AFTER})`)
      .pluck();
    // The nearest place of the other project where this row and the ones after it are the same, as a shift.
    this.alignment = db
      .prepare(
        `SELECT d.row_index - n.row_index FROM rows AS n
         JOIN rows AS d ON d.project_id = @donor AND d.row_index BETWEEN @row + @shift - ${REALIGN_ROWS} AND @row + @shift + ${REALIGN_ROWS} AND d.cells = n.cells
         WHERE n.project_id = @project AND n.row_index = @row
           AND (SELECT count(*) FROM rows AS a JOIN rows AS b ON b.project_id = @donor AND b.row_index = a.row_index + d.row_index - n.row_index AND b.cells = a.cells
                WHERE a.project_id = @project AND a.row_index > @row AND a.row_index < @row + ${REALIGN_RUN}) = min(${REALIGN_RUN - 1}, @last - @row)
         ORDER BY abs(d.row_index - n.row_index - @shift) LIMIT 1`,
      )
      .pluck();
  }

  /** A copy for the project's run, or null when no other project holds its sheet with verdicts of this basis. */
  static open(db: Database, projectId: number, basis: number): VerdictCopy | null {
    const source = VerdictCopy.source(db, projectId, basis);
    return source === null ? null : new VerdictCopy(db, projectId, source.donor, basis, source.lastRow);
  }

  /** Whether a run of the project would copy verdicts (a preview's pace), without preparing the copy's statements. */
  static available(db: Database, projectId: number, basis: number): boolean {
    return VerdictCopy.source(db, projectId, basis) !== null;
  }

  /** The project to copy from, with this project's last row index; null when there is none. */
  private static source(db: Database, projectId: number, basis: number): { donor: number; lastRow: number } | null {
    const lastRow = db.prepare('SELECT max(row_index) FROM row_status WHERE project_id = ?').pluck().get(projectId) as number | null;
    if (lastRow === null) return null;
    // Of the projects that hold this sheet, the one that holds most of its rows: a sample of its first rows run since
    // (a user trying the first 500 first) holds only those.
    const donor = db
      .prepare(
        `SELECT p.id FROM projects AS p
         WHERE p.kind = 'match' AND p.status = 'ready' AND p.id <> @project
           AND EXISTS (SELECT 1 FROM row_status AS d WHERE d.project_id = p.id AND d.row_index < @probe AND d.verdict_basis = @basis)
           AND (SELECT count(*) FROM rows AS a
                WHERE a.project_id = @project AND a.row_index < @probe
                  AND EXISTS (SELECT 1 FROM rows AS b WHERE b.project_id = p.id AND b.row_index < @probe + @shift AND b.cells = a.cells)) >= @same
         ORDER BY min(p.row_count, @rows) DESC, p.id DESC LIMIT 1`,
      )
      .pluck()
      .get({ project: projectId, probe: PROBE_ROWS, same: PROBE_SAME, shift: PROBE_SHIFT, basis, rows: lastRow + 1 }) as number | undefined;
    return donor === undefined ? null : { donor, lastRow };
  }

  /** The highest row index whose verdict may have been copied: rows up to it are the run's to work out, rows past it not yet. */
  get through(): number {
    return this.stopped ? Number.MAX_SAFE_INTEGER : this.lookedThrough;
  }

  get done(): boolean {
    return this.stopped;
  }

  /** The rows the copy goes through (its job's total). */
  get rows(): number {
    return this.lastRow + 1;
  }

  /**
   * Copies the verdicts of the pending rows in the next span after `after` (in the caller's transaction), and returns
   * those rows with the queries they took, in step order. `at`: when accepted rows are decided; `freshAfter`: the
   * oldest answer this run takes (ms).
   */
  copyNext(after: number, at: string, freshAfter: number): CopiedRow[] {
    if (this.stopped) return [];
    const through = Math.min(after + SPAN_ROWS, this.lastRow);
    const copied = this.copySpan(after, through, at, freshAfter);
    /** Rows waiting after the last one copied (after `after` while none was), as last counted. */
    let left = 0;
    for (let times = 0; times < REALIGN_TIMES; times++) {
      // Where the span's rows stopped being copied, the sheet may have moved under them.
      const from = copied.length > 0 ? Math.max(...copied.map((c) => c.rowIndex)) : after;
      left = this.waiting.get(this.projectId, from, through) as number;
      if (left === 0 || (copied.length > 0 && left < REALIGN_AFTER)) break;
      const shift = this.realigned(from, through);
      if (shift === null) break;
      this.shift = shift;
      const more = this.copySpan(from, through, at, freshAfter);
      if (more.length === 0) break;
      copied.push(...more);
    }
    this.lookedThrough = through;
    // A span with rows waiting that copied none of them, even looked for elsewhere: another sheet from here on.
    if (through >= this.lastRow || (copied.length === 0 && left > 0)) this.stopped = true;
    return copied;
  }

  private copySpan(after: number, through: number, at: string, freshAfter: number): CopiedRow[] {
    const params = { project: this.projectId, donor: this.donorId, basis: this.basis, shift: this.shift, after, through, at, freshAfter };
    const copied: CopiedRow[] = [];
    const moved = new Map<number, CopiedRow>();
    const movedSteps: [rowIndex: number, step: number][] = [];
    for (const { statement, fromFirstStep } of this.copies) {
      for (const [rowIndex, step, queryId] of statement.all(params) as [number, number, number][]) {
        const row = { rowIndex, queries: [queryId] };
        copied.push(row);
        if (fromFirstStep) {
          moved.set(rowIndex, { rowIndex, queries: [] });
          movedSteps.push([rowIndex, step]);
        }
      }
    }
    if (movedSteps.length === 0) return copied;
    // A moved row's earlier steps' queries (each found nobody), first to last, before the one it was settled by.
    for (const [rowIndex, queryId] of this.earlierSteps.all(JSON.stringify(movedSteps), this.projectId) as [number, number][]) moved.get(rowIndex)!.queries.push(queryId);
    return copied.map((row) => {
      const earlier = moved.get(row.rowIndex);
      return earlier ? { rowIndex: row.rowIndex, queries: [...earlier.queries, ...row.queries] } : row;
    });
  }

  /**
   * A new shift for the waiting rows after `after`, from the first of them found again elsewhere in the other project;
   * null when one is where the shift says (the sheet did not move there: the row is just not the same) or none is found.
   */
  private realigned(after: number, through: number): number | null {
    for (const row of this.firstWaiting.all(this.projectId, after, through) as number[]) {
      const shift = this.alignment.get({ project: this.projectId, donor: this.donorId, row, shift: this.shift, last: this.lastRow }) as number | undefined;
      if (shift === this.shift) return null;
      if (shift !== undefined) return shift;
    }
    return null;
  }
}

/**
 * The statement that copies one kind of outcome for a span's pending rows: `found`, a verdict on candidates; `nobody`,
 * a row that found nobody at its last step. `fromFirstStep`: rows at their first step that the other project settled
 * at a later one (each step before it found nobody in the answers on file); else rows settled at the step they are at.
 */
function copySql(outcome: 'found' | 'nobody', fromFirstStep: boolean): string {
  const written =
    outcome === 'found'
      ? `outcome = 'to_review', state = d.state, fetched_at = d.fetched_at, candidate_count = d.candidate_count,
         chosen_rank = d.chosen_rank, chosen = d.chosen, chosen_person = d.chosen_person, chosen_score = d.chosen_score,
         chosen_confidence = d.chosen_confidence, chosen_reason = d.chosen_reason, source = d.source, decided_at = CASE WHEN d.source IS NULL THEN NULL ELSE @at END,
         job_change = d.job_change, job_change_date = d.job_change_date, job_change_reason = d.job_change_reason, confidence = d.confidence, runner_up = d.runner_up, best_rank = d.best_rank, reason = d.reason,
         guard = d.guard, verdict_basis = d.verdict_basis`
      : `outcome = 'no_candidates', state = 'no_candidates', fetched_at = d.fetched_at, candidate_count = 0,
         confidence = NULL, runner_up = NULL, best_rank = NULL, reason = NULL, guard = NULL, verdict_basis = NULL`;
  const settled =
    outcome === 'found'
      ? `d.outcome = 'to_review' AND d.verdict_basis = @basis AND ((d.state = 'to_review' AND d.source IS NULL) OR (d.state = 'auto' AND d.source = 'auto'))`
      : `d.outcome = 'no_candidates' AND d.state = 'no_candidates' AND d.source IS NULL
         AND NOT EXISTS (SELECT 1 FROM row_queries AS later WHERE later.project_id = @project AND later.row_index = n.row_index AND later.step > d.step)`;
  // A row copied at its own step keeps its query as it is: assigned at all, an index holding it would be written again
  // (when one was ordered by the keys' hashes, at random: it doubled what a re-run wrote). A row moved on takes the
  // other's step and query, as the run's own moving on does. Query ids are shared by every project
  // (runs/query-ids.ts), so the same query is the same id in both.
  const steps = fromFirstStep
    ? `n.step = 0 AND d.step > 0
       AND NOT EXISTS (SELECT 1 FROM row_queries AS e LEFT JOIN lookups AS el ON el.query_id = e.query_id
         WHERE e.project_id = @project AND e.row_index = n.row_index AND e.step < d.step
           AND NOT coalesce(el.status = 'ok' AND el.candidate_count = 0 AND el.fetched_at >= @freshAfter, 0))
       AND q.project_id = @project AND q.row_index = n.row_index AND q.step = d.step AND q.query_id = d.query_id AND q.strategy = d.strategy`
    : 'd.step = n.step AND d.query_id = n.query_id AND d.strategy = n.strategy';
  const moved = fromFirstStep ? 'step = d.step, strategy = d.strategy, query_id = d.query_id, ' : '';
  // The answer that settled the other project's row is still the one on file, and fresh: looked up by its query's id,
  // the answers' key, in row order (migrations 28, 34), so a span's probes fall on neighbouring pages.
  const answer = `EXISTS (SELECT 1 FROM lookups AS l
       WHERE l.query_id = d.query_id AND l.fetched_at = d.fetched_at AND l.status = 'ok'${outcome === 'nobody' ? ' AND l.candidate_count = 0' : ''})`;
  return `UPDATE row_status AS n SET ${moved}${written}
     FROM row_status AS d, rows AS nr, rows AS dr${fromFirstStep ? ', row_queries AS q' : ''}
     WHERE n.project_id = @project AND n.state = 'pending' AND n.row_index > @after AND n.row_index <= @through
       AND d.project_id = @donor AND d.row_index = n.row_index + @shift AND ${steps} AND ${settled}
       AND d.fetched_at >= @freshAfter AND ${answer}
       AND nr.project_id = @project AND nr.row_index = n.row_index AND dr.project_id = @donor AND dr.row_index = d.row_index
       AND dr.cells = nr.cells
     RETURNING row_index, step, query_id`;
}
