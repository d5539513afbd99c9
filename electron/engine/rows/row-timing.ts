import type { Database } from 'better-sqlite3';

/**
 * The kinds of work whose rows are timed: a matching run's rows worked out from their answers, a run's rows whose
 * verdicts it copied from another project of the same sheet (copied-verdicts.ts), a refresh's matched rows.
 */
export type RowWork = 'run' | 'copy' | 'refresh';

/**
 * What a row takes of the engine's own work, until this machine has timed one (seconds): a run's row is read, assessed
 * and written, a refresh's matched row listed and then brought up to date. A copied row takes about three quarters of
 * a worked-out one. Only a first guess: each machine's own timings replace it.
 */
export const ASSUMED_SECONDS_PER_ROW: Readonly<Record<RowWork, number>> = { run: 30e-6, copy: 22e-6, refresh: 70e-6 };

/** Fewer rows than this are not timed: a few thousand rows take a second at most, and fixed costs would be most of it. */
export const TIMED_ROWS = 10_000;

/** What the engine's own work on a number of rows took, with no call in it. */
export interface TimedWork {
  rows: number;
  seconds: number;
}

/**
 * The engine's own time a row takes for each kind of work: averaged over the runs and refreshes this machine finished,
 * and kept in the database (row_timings, migrations 15 and 17) as call_timings keeps what a call takes. It is timed
 * only where no call is in it, as a run's calls overlap its rows' work: against a slow service a run's whole time is
 * its calls', and taking them away would leave nothing. So a run is timed when the cache answered all of it (online,
 * no call: an offline run's rows with no answer on file cost next to nothing), as a copy when it copied nearly all its
 * rows and as a run when it copied nearly none (runFigure), and a refresh by its listing and its rows' pass, before
 * and after its calls. A preview adds the figure to the calls' time: at a million rows that is about half a run
 * against a fast service, and the whole of a run the cache answers.
 */
export class RowTiming {
  constructor(private readonly db: Database) {}

  /**
   * Work finished: kept when it had rows enough for its time to say something. Never throws: the figure only feeds
   * the next previews, and the work it times is done whether or not it is kept.
   */
  record(work: RowWork, { rows, seconds }: TimedWork): void {
    if (rows < TIMED_ROWS || !Number.isFinite(seconds) || seconds < 0 || !this.db.open) return;
    const measured = seconds / rows;
    try {
      const before = this.stored(work);
      // Each figure is a whole run's average already: the last two count alike.
      const average = before === null ? measured : (before + measured) / 2;
      this.db
        .prepare(
          `INSERT INTO row_timings (work, seconds_per_row, updated_at) VALUES (?, ?, ?)
           ON CONFLICT (work) DO UPDATE SET seconds_per_row = excluded.seconds_per_row, updated_at = excluded.updated_at`,
        )
        .run(work, average, new Date().toISOString());
    } catch {
      // The database is closing or failing: the previews go on from the figure kept before.
    }
  }

  /** What a row of `work` takes, as timed on this machine, else assumed. */
  secondsPerRow(work: RowWork): number {
    return this.stored(work) ?? ASSUMED_SECONDS_PER_ROW[work];
  }

  private stored(work: RowWork): number | null {
    const seconds = this.db.prepare('SELECT seconds_per_row FROM row_timings WHERE work = ?').pluck().get(work) as number | undefined;
    return seconds !== undefined && Number.isFinite(seconds) && seconds >= 0 ? seconds : null;
  }
}

/**
 * What a run's time says something about: the copy's pace when it copied nine rows in ten or more, a worked-out run's
 * when one in ten or fewer, and neither when it did both in earnest (its time cannot be told apart between the two).
 */
export function runFigure(rows: number, copiedRows: number): 'run' | 'copy' | null {
  if (copiedRows * 10 >= rows * 9) return 'copy';
  if (copiedRows * 10 <= rows) return 'run';
  return null;
}
