// Whether each accepted row of the labeled set carries the right job change (issue 45): the status the engine stored
// for the row's chosen person (what export writes as match_job_change) against what the simulator's world says of
// that person and the company the row names (jobChangeTruth). Measured on the person chosen, right or wrong: the job
// change is a statement about the match as made. And whether the candidate card marks a job at the sheet's company
// wherever the job change found one, so the timeline and the status agree.
import type { RowDetail } from '../../shared/contract';
import type { Person } from '../../electron/simulator/dataset';
import { jobChangeTruth, type EvaluationLabel, type JobChangeTruth } from '../../electron/simulator/evaluation-set';

/** Row states that hold a chosen person. */
const ACCEPTED_STATES = new Set(['auto', 'accepted']);

export interface JobChangeMiss {
  rowNumber: number;
  category: EvaluationLabel['category'];
  sheetCompany: string | null;
  expected: JobChangeTruth;
  got: string;
  /** The engine's reason for the status it stored. */
  reason: string;
}

export interface JobChangeScore {
  /** Accepted rows: those with a chosen person. */
  rows: number;
  /** Of those, how many in each category of the labeled set. */
  rowsByCategory: Partial<Record<EvaluationLabel['category'], number>>;
  right: number;
  /** right / rows; null without accepted rows. */
  share: number | null;
  misses: JobChangeMiss[];
  /** Rows whose job change is known (still there, moved, left) but whose chosen person's timeline marks no job at the sheet's company. */
  unmarked: number[];
}

export class JobChangeTally {
  private rows = 0;
  private right = 0;
  private readonly rowsByCategory: Partial<Record<EvaluationLabel['category'], number>> = {};
  private readonly misses: JobChangeMiss[] = [];
  private readonly unmarked: number[] = [];

  /** `personOf` reads the world as it is now: call it before the world moves on again. */
  constructor(private readonly personOf: (id: string) => Person | undefined) {}

  add(row: RowDetail, label: EvaluationLabel): void {
    if (!ACCEPTED_STATES.has(row.state) || row.chosenRank === null) return;
    const candidate = row.candidates.find((c) => c.rank === row.chosenRank);
    const chosen = candidate?.personId ?? null;
    const person = chosen === null ? undefined : this.personOf(chosen);
    if (!person) throw new Error(`Row ${row.rowNumber}: the chosen person ${chosen ?? '(none)'} is not in the simulator's dataset.`);
    this.rows++;
    this.rowsByCategory[label.category] = (this.rowsByCategory[label.category] ?? 0) + 1;
    const expected = jobChangeTruth(person, label.companyId);
    const got = row.jobChange?.status ?? 'none';
    if (got === expected) this.right++;
    else this.misses.push({ rowNumber: row.rowNumber, category: label.category, sheetCompany: row.input.company, expected, got, reason: row.jobChange?.reason ?? 'no job change stored' });
    if (got !== 'unknown' && got !== 'none' && !candidate?.jobs.some((j) => j.atSheetCompany)) this.unmarked.push(row.rowNumber);
  }

  score(): JobChangeScore {
    return { rows: this.rows, rowsByCategory: { ...this.rowsByCategory }, right: this.right, share: this.rows === 0 ? null : this.right / this.rows, misses: [...this.misses], unmarked: [...this.unmarked] };
  }
}

/** "job change right: N of M (P%)". */
export function jobChangeLine(score: JobChangeScore): string {
  const share = score.share === null ? '-' : `${(score.share * 100).toFixed(2)}%`;
  return `job change right: ${score.right} of ${score.rows} (${share})`;
}

/** The misses by kind ("expected no_change, got unknown"), most common first, with a few examples of each. */
export function jobChangeMissLines(score: JobChangeScore, examplesPerKind = 3): string[] {
  const kinds = new Map<string, JobChangeMiss[]>();
  for (const miss of score.misses) {
    const kind = `expected ${miss.expected}, got ${miss.got}`;
    const list = kinds.get(kind);
    if (list) list.push(miss);
    else kinds.set(kind, [miss]);
  }
  return [...kinds.entries()]
    .sort((a, b) => b[1].length - a[1].length)
    .flatMap(([kind, misses]) => [
      `  ${kind}: ${misses.length} rows`,
      ...misses.slice(0, examplesPerKind).map((m) => `    row ${m.rowNumber} (${m.category}), company "${m.sheetCompany ?? ''}": ${m.reason}`),
    ]);
}
