import type { Database, Statement } from 'better-sqlite3';
import type { Mapping } from '../../../shared/model';
import { readStoredPersonFacts, rowInput, type CandidateFacts } from '../matching';
import { parseCells } from '../rows/row-cells';
import { CHOSEN_SQL, chosenValues, rowStatusColumns, toRowStatus, type ChosenPerson, type RowStatusRow } from '../rows/row-status';
import { PersonHistoryWriter } from '../rows/person-history';
import { stateOfSummary } from '../rows/person-state';
import { chosenWithFacts, jobChanged, rowBefore } from '../rows/refreshed-choice';

/** What one slice of rows did. */
export interface WrittenSlice {
  /** Matched rows given the fresh record. */
  updated: number;
  /** Of those, rows whose person's job changed. */
  changed: number;
  /** The last listed row it read; null once no row is left to read. */
  lastRow: number | null;
}

/**
 * A listed row waiting for its person's fresh record: its status (rows/row-status.ts), person, cells, and the person's
 * facts as the refresh found them, with the `people` row it stored them in.
 */
type WaitingRow = RowStatusRow & { slug: string; cells: string; facts: string; person: number | null };

/**
 * Gives the rows of a refresh that chose a person the person's fresh record, once the service found them: their
 * decision stays (state, rank, confidence, who decided and when), the person's fields and the job change against each
 * row's own company are updated, and what the row said before is kept in row_refreshes, which also marks the row as
 * written by this refresh. A row decided otherwise since the refresh began (rejected, cleared, another person chosen)
 * is left alone.
 *
 * The rows are written in sheet order, a slice at a time, after the people are asked (refresh-run.ts): a call's 100
 * people have rows anywhere in the project, and writing them as each call landed wrote several pages a row at random
 * in a large project (docs/performance.md, "Refresh").
 */
export class FreshPersonWriter {
  private readonly waiting: Statement;
  private readonly listed: Statement;
  private readonly writeChosen: Statement;
  private readonly writeBefore: Statement;
  private readonly history: PersonHistoryWriter;

  /** `scope`: the service asked, as refreshes keep it (the person history is kept under it). */
  constructor(
    db: Database,
    private readonly projectId: number,
    private readonly refreshId: number,
    private readonly mapping: Mapping,
    scope: string,
  ) {
    this.history = new PersonHistoryWriter(db, scope, refreshId);
    // The joins in this order: the refresh's rows by row, skipping those whose person was not found (yet) or that it
    // wrote already before the row and its cells are read; the person's facts by position (refresh_found, migration 14).
    // A row whose chosen person the service sent again unchanged (the same `people` row) reads its facts there too.
    this.waiting = db
      .prepare(
        `SELECT ${rowStatusColumns('rs', { person: 'f.person', facts: 'f.facts' })}, rr.slug, r.cells, f.facts, f.person
         FROM refresh_rows AS rr
         CROSS JOIN refresh_people AS p ON p.refresh_id = rr.refresh_id AND p.slug = rr.slug
         CROSS JOIN refresh_found AS f ON f.id = p.found_id
         CROSS JOIN row_status AS rs ON rs.project_id = @projectId AND rs.row_index = rr.row_index
         CROSS JOIN rows AS r ON r.project_id = @projectId AND r.row_index = rr.row_index
         WHERE rr.refresh_id = @refreshId AND rr.row_index > @after AND p.state = 'found'
           AND NOT EXISTS (SELECT 1 FROM row_refreshes AS w WHERE w.project_id = @projectId AND w.row_index = rr.row_index AND w.refresh_id = @refreshId)
         ORDER BY rr.row_index LIMIT @limit`,
      );
    this.listed = db.prepare('SELECT coalesce(rows, 0) FROM refresh_people WHERE refresh_id = ? AND slug = ?').pluck();
    // A chosen person written anew is no longer what the model's verdict made (a later run must not copy it:
    // runs/copied-verdicts.ts); written as it was, the verdict stands.
    this.writeChosen = db.prepare(`UPDATE row_status SET ${CHOSEN_SQL}, verdict_basis = CASE WHEN ? THEN verdict_basis END WHERE project_id = ? AND row_index = ?`);
    this.writeBefore = db.prepare(
      `INSERT OR REPLACE INTO row_refreshes
         (project_id, row_index, refresh_id, slug, changed, previous_company, previous_title, previous_job_change, previous_job_change_date)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
  }

  /** At the start of the transaction `writeAfter` runs in, before it writes (rows/person-history.ts). */
  begin(): void {
    this.history.begin();
  }

  /** That transaction has committed. */
  committed(): void {
    this.history.committed();
  }

  /** How many matched rows chose the person with this slug when the refresh began. */
  rowsListed(slug: string): number {
    return this.listed.get(this.refreshId, slug) as number;
  }

  /**
   * Up to `limit` listed rows after `afterRow`, in sheet order, whose person the service found and that this refresh
   * has not written yet, given the person's fresh record. Runs in the caller's transaction.
   */
  writeAfter(afterRow: number, limit: number): WrittenSlice {
    const rows = this.waiting.all({ projectId: this.projectId, refreshId: this.refreshId, after: afterRow, limit }) as WaitingRow[];
    const slice: WrittenSlice = { updated: 0, changed: 0, lastRow: rows.length < limit ? null : rows[rows.length - 1]!.row_index };
    let person = null as { slug: string; facts: CandidateFacts | null } | null;
    for (const row of rows) {
      const { slug, cells, facts: stored, person: personId } = row;
      const { rowIndex, state, chosen } = toRowStatus(row);
      // A person's rows are usually apart in the sheet: their facts are read again for each.
      if (person?.slug !== slug) {
        const facts = readStoredPersonFacts(stored);
        if (facts && personId !== null) facts.personId = personId;
        person = { slug, facts };
      }
      if (!person.facts || (state !== 'auto' && state !== 'accepted') || chosen === null) continue;
      if (chosen.summary.social !== slug) continue;
      const changed = this.write(rowIndex, slug, state, chosen, person.facts, cells);
      slice.updated++;
      if (changed) slice.changed++;
    }
    return slice;
  }

  /** One row given the person's fresh facts; true when where they work changed. */
  private write(rowIndex: number, slug: string, state: 'auto' | 'accepted', chosen: ChosenPerson, facts: CandidateFacts, cells: string): boolean {
    const after = chosenWithFacts(chosen, facts, rowInput(parseCells(cells), this.mapping).company);
    const before = rowBefore(chosen);
    const changed = jobChanged(before, after);
    // What the row said of its person before: the baseline of "changes since" a date before this refresh.
    this.history.see(slug, stateOfSummary(chosen.summary), true);
    // Found as it was, the row keeps its verdict's basis (a later run may copy it: runs/copied-verdicts.ts); a chosen
    // person written anew is no longer what the model's verdict made.
    const same = sameRecord(chosen, after);
    if (!same || chosen.personId !== after.personId) this.writeChosen.run(...chosenValues(state, after), same ? 1 : 0, this.projectId, rowIndex);
    this.writeBefore.run(
      this.projectId,
      rowIndex,
      this.refreshId,
      slug,
      changed ? 1 : 0,
      before.company,
      before.title,
      before.jobChange?.status ?? null,
      before.jobChange?.date ?? null,
    );
    return changed;
  }
}

/** The refresh found the person as the row has them: the same fields and the same job change. */
function sameRecord(chosen: ChosenPerson, after: ChosenPerson): boolean {
  return (
    JSON.stringify(chosen.summary) === JSON.stringify(after.summary) &&
    chosen.jobChange?.status === after.jobChange?.status &&
    (chosen.jobChange?.date ?? null) === (after.jobChange?.date ?? null)
  );
}
