import type { Database } from 'better-sqlite3';
import type { JobBoard, JobHandle } from '../jobs/job-board';
import type { Candidate } from '../../../shared/model';
import { IdleWork } from '../idle-turn';
import { answerPeople } from '../matching';
import { answersLeftToMove, answersToMove, moveAnswers } from '../store';
import { PersonDigests } from '../store/person-digests';

/** Answers moved per transaction: a short slice, so a call that comes in meanwhile waits only briefly. */
const ANSWERS_PER_SLICE = 500;

/**
 * How far moving the answers stored by an older version to the current layout is (after an upgrade, in the
 * background: they read as they were stored until then).
 */
export interface AnswersMoving {
  answersMoved: number;
  answersTotal: number;
  done: boolean;
}

/** The move told as a job of its own (kind `answerMove`, on no project), opened at its first word. Not cancellable. */
export function answerMoveJob(jobs: JobBoard): (progress: AnswersMoving) => void {
  let job: JobHandle | null = null;
  return ({ answersMoved, answersTotal, done }) => {
    job ??= jobs.open({ kind: 'answerMove', projectId: null, cancellable: false, phase: 'moving answers' });
    job.progress(answersMoved, answersTotal);
    if (done) job.state('done');
  };
}

/**
 * Moves the answers stored before migration 25 (each with its candidates' whole records and facts) to the new layout,
 * a slice per transaction while the engine is idle: their people stored once, the answer keeping their ids. Until
 * then they read as they were stored, so nothing waits for it. A slice is all moved or not at all: a quit or a crash
 * part-way leaves each answer in one layout or the other, and the next start goes on from what is left. Says how far
 * it is after each slice (`onProgress`) for a host to show.
 */
export class AnswerMove extends IdleWork {
  constructor(
    db: Database,
    isIdle: () => boolean,
    private readonly onProgress: (progress: AnswersMoving) => void = () => {},
  ) {
    super(db, isIdle);
  }

  protected async workAll(): Promise<void> {
    try {
      const total = answersLeftToMove(this.db);
      if (total === 0) return;
      let moved = 0;
      let after = 0;
      this.onProgress({ answersMoved: 0, answersTotal: total, done: false });
      const people = PersonDigests.of(this.db);
      for (;;) {
        if (!(await this.turn())) return;
        const slice = this.db.transaction(() => {
          // Nothing is written yet in this transaction: the people known now are committed (store/digest-ids.ts).
          people.catchUp(true);
          const answers = answersToMove(this.db, after, ANSWERS_PER_SLICE);
          moveAnswers(this.db, answers.map(({ rowid, candidates }) => ({ rowid, stored: peopleOf(candidates) })));
          return answers;
        })();
        if (!this.db.inTransaction) people.committed();
        if (slice.length === 0) break;
        after = slice[slice.length - 1]!.rowid;
        moved += slice.length;
        this.onProgress({ answersMoved: Math.min(moved, total), answersTotal: total, done: false });
      }
      this.onProgress({ answersMoved: total, answersTotal: total, done: true });
    } catch {
      // The database closed under it, or another process holds the write lock: the next start goes on.
    }
  }
}

/** An answer's people from its candidates as stored before; null when they no longer read. */
function peopleOf(candidates: string): ReturnType<typeof answerPeople> | null {
  try {
    const parsed = JSON.parse(candidates) as unknown;
    return Array.isArray(parsed) ? answerPeople(parsed as Candidate[]) : null;
  } catch {
    return null;
  }
}
