import type { Database, Statement } from 'better-sqlite3';
import type { Mapping } from '../../../shared/model';
import { rowInput, type CandidateFacts } from '../matching';
import { parseCells } from '../runs/row-cells';
import { jobChangeOf, type ChosenPerson } from '../runs/row-status';
import { chosenWithFacts, jobChanged, rowBefore } from './refreshed-choice';

export interface AppliedPerson {
  /** Matched rows given the fresh record. */
  updated: number;
  /** Of those, rows whose person's job changed. */
  changed: number;
}

/** A row that chose a person when the refresh began: its index, state, chosen person (JSON) and cells. */
export type ChoosingRow = [rowIndex: number, state: string, chosen: string | null, cells: string];

/**
 * Gives the rows of a refresh that chose a person the person's fresh record: their decision stays (state, rank,
 * confidence, who decided and when), the person's fields and the job change against each row's own company are
 * updated, and what the row said before is kept in row_refreshes. A row decided otherwise since the refresh began
 * (rejected, cleared, another person chosen) is left alone. Runs in the caller's transaction.
 */
export class FreshPersonWriter {
  private readonly rowsOf: Statement;
  private readonly writeChosen: Statement;
  private readonly writeBefore: Statement;

  constructor(
    db: Database,
    private readonly projectId: number,
    private readonly refreshId: number,
    private readonly mapping: Mapping,
  ) {
    // One statement for a call's people, not one a person: SQLite (3.54) compiles a join again each time its
    // parameters are bound anew (~26 µs), which was 1.7 s of a 100k refresh's 17 s (docs/performance.md, Phase 14).
    this.rowsOf = db
      .prepare(
        `SELECT rr.slug, rr.row_index, rs.state, rs.chosen, r.cells FROM refresh_rows AS rr
         JOIN row_status AS rs ON rs.project_id = @projectId AND rs.row_index = rr.row_index
         JOIN rows AS r ON r.project_id = @projectId AND r.row_index = rr.row_index
         WHERE rr.refresh_id = @refreshId AND rr.slug IN (SELECT value FROM json_each(@slugs)) ORDER BY rr.slug, rr.row_index`,
      )
      .raw();
    this.writeChosen = db.prepare('UPDATE row_status SET chosen = ?, job_change = ? WHERE project_id = ? AND row_index = ?');
    this.writeBefore = db.prepare(
      `INSERT OR REPLACE INTO row_refreshes
         (project_id, row_index, refresh_id, slug, changed, previous_company, previous_title, previous_job_change, previous_job_change_date)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
  }

  /** The matched rows that chose each of these people (by profile slug) when the refresh began; a slug with none is absent. */
  rowsOfPeople(slugs: readonly string[]): Map<string, ChoosingRow[]> {
    const rows = new Map<string, ChoosingRow[]>();
    const found = this.rowsOf.all({ projectId: this.projectId, refreshId: this.refreshId, slugs: JSON.stringify(slugs) }) as [string, ...ChoosingRow][];
    for (const [slug, ...row] of found) {
      let list = rows.get(slug);
      if (!list) rows.set(slug, (list = []));
      list.push(row);
    }
    return rows;
  }

  /** Gives `rows`, those that chose the person with this slug (rowsOfPeople), the person's fresh facts. */
  apply(slug: string, facts: CandidateFacts, rows: readonly ChoosingRow[]): AppliedPerson {
    const applied: AppliedPerson = { updated: 0, changed: 0 };
    for (const [rowIndex, state, chosenText, cells] of rows) {
      if ((state !== 'auto' && state !== 'accepted') || chosenText === null) continue;
      const chosen = JSON.parse(chosenText) as ChosenPerson;
      if (chosen.summary.social !== slug) continue;
      const after = chosenWithFacts(chosen, facts, rowInput(parseCells(cells), this.mapping).company);
      const before = rowBefore(chosen);
      const changed = jobChanged(before, after);
      this.writeChosen.run(JSON.stringify(after), jobChangeOf(state, after), this.projectId, rowIndex);
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
      applied.updated++;
      if (changed) applied.changed++;
    }
    return applied;
  }
}
