// The review.*, decisions.* and learning.* calls: reading a project's rows for review, deciding them, learning from it.
import type { Database } from 'better-sqlite3';
import type { BulkDecision } from '../../../shared/contract';
import { CancellableCalls } from '../cancellable-calls';
import type { Clock } from '../clock';
import type { Handlers } from '../dispatch';
import type { Action, Entry } from '../jobs/concurrency';
import type { JobBoard, JobHandle } from '../jobs/job-board';
import { requireProject, type ProjectRecord } from '../rows/project-record';
import type { ProjectPreparation } from '../runs/project-preparation';
import type { ReadingThread } from '../runs/reading-thread';
import { getSettings } from '../store';
import type { ChangedRowsCounter } from './changed-count';
import type { Decisions } from './decisions';
import { learnFromDecisions, learningSources, learningSummary, learningToStartFrom, patternIndexes, patternPage, resetLearning, reviewGroups } from './learning';
import { rowDetail } from './row-detail';
import { prefillRowTextIndex } from './row-text-index';
import { reviewPage, type ChangedCount } from './review-page';
import type { TextIndexJobs } from './text-index-jobs';
import { reviewCounts } from './view-counts';

export interface ReviewHandlersDeps {
  db: Database;
  clock: Clock;
  decisions: Decisions;
  jobs: JobBoard;
  prep: ProjectPreparation;
  /** Counts the rows changed at a large project's last refresh off the engine's thread; null where reads are made here. */
  changedRows: ChangedRowsCounter | null;
  changed: ChangedCount | undefined;
  reading: ReadingThread;
  readsElsewhere(project: ProjectRecord): boolean;
  /** Lets the action start on the project as the overlap table says (jobs/concurrency.ts). */
  enter(action: Action, projectId: number, entry?: Entry): Promise<void>;
  /** Nothing asked of the engine for a moment: the text index may fill a slice. */
  isIdle(): boolean;
  /** The text-index fills as jobs: whether a user's cancel still holds the background one back. */
  textIndex: Pick<TextIndexJobs, 'mayFillInBackground'>;
}

export interface ReviewHandlers {
  handlers: Handlers;
  /** An accept stops before its next slice and keeps those written (one action undo reverts); a learning changes nothing. */
  close(reason: unknown): void;
}

export function createReviewHandlers(deps: ReviewHandlersDeps): ReviewHandlers {
  const { db, decisions, prep } = deps;
  /** Accepts of a project's confident rows (long for a large queue): cancelled, they take back their rows; closing keeps them. */
  const accepts = new CancellableCalls<number>();
  /** Learnings from a project's decisions: cancelled (or the engine closing), they change nothing. */
  const learns = new CancellableCalls<number>();
  /** Undos of a project's last action, for the engine's close (job.cancel stops one by its job's signal). */
  const undos = new CancellableCalls<number>();

  /**
   * Decides once no action changes the project's rows a slice at a time (an accept, an undo), as the overlap table says
   * (jobs/concurrency.ts): in the turn it lets the decision go, so no such action may start in between.
   */
  async function after<T>(action: Action, projectId: number, decide: (project: ProjectRecord) => T | Promise<T>): Promise<T> {
    const project = await planned(projectId);
    let decided!: T | Promise<T>;
    await deps.enter(action, projectId, { admitted: () => void (decided = decide(project)) });
    return decided;
  }

  /** Runs a decision over many rows with a teller that gives its job how far it is (a DecisionsProgress its detail). */
  function tellingBulk<T>(job: JobHandle<BulkDecision>, projectId: number, action: BulkDecision, decide: (tell: (rowsDone: number, rowsTotal: number) => void) => Promise<T>): Promise<T> {
    return decide((rowsDone, rowsTotal) => job.progress(rowsDone, rowsTotal, undefined, { projectId, action, rowsDone, rowsTotal }));
  }

  /**
   * The action over many rows as the project's job of its kind, queued while the overlap table has it wait (an undo
   * behind an accept); `calls` holds the cancels of the action once it goes.
   */
  function asJob<T>(action: BulkDecision, projectId: number, calls: CancellableCalls<number>, work: (job: JobHandle<BulkDecision>) => Promise<T>): Promise<T> {
    const phase = action === 'accept' ? 'accepting rows' : action === 'undo' ? 'undoing the last action' : 'learning';
    const queue = (signal: AbortSignal, admitted: () => void) => deps.enter(action, projectId, { signal, admitted });
    return deps.jobs.run({ kind: action, projectId, stop: () => calls.cancel(projectId), phase, queue }, work);
  }

  const planned = (projectId: number) => prep.planned(projectId);

  const handlers: Handlers = {
    'review.page': async (input) => {
      const project = await planned(input.projectId);
      if (input.order !== 'file') await prep.assessed(project);
      if (input.pattern) return patternPage(db, await prep.assessed(project), input.pattern, input.offset, input.limit, deps.changed);
      // The changed rows' filter needs their list: one walked in the background is waited for, not walked again.
      if (input.changedAtLastRefresh) await deps.changedRows?.walked(input.projectId);
      // A large project's lists (a sort by confidence takes seconds) are walked on the reading worker.
      const page = await reviewPage(db, input.projectId, input, { changed: deps.changed, walk: deps.readsElsewhere(project) ? deps.reading.rowList : undefined });
      // Someone is reviewing: the text index fills while they read, so their first text filter need not wait for it
      // (unless they just cancelled that fill).
      if (deps.textIndex.mayFillInBackground(input.projectId)) prefillRowTextIndex(db, input.projectId, () => deps.isIdle());
      return page;
    },
    'review.counts': async (input) => {
      await planned(input.projectId);
      if (input.changedAtLastRefresh) await deps.changedRows?.walked(input.projectId);
      return reviewCounts(db, input.projectId, input, deps.changed);
    },
    'review.row': async (input) => rowDetail(db, await planned(input.projectId), input.rowIndex),
    'review.groups': async (input) => reviewGroups(db, await prep.plannedAndAssessed(input.projectId)),
    // A decision made while the project's confident rows are accepted, or an action undone, waits for that to end.
    'decisions.choose': (input) => after('decide', input.projectId, (project) => decisions.choose(project, input.rowIndex, input.rank, input.applyToIdentical)),
    'decisions.reject': (input) => after('decide', input.projectId, (project) => decisions.reject(project, input.rowIndex, input.applyToIdentical)),
    'decisions.skip': (input) => after('decide', input.projectId, (project) => decisions.skip(project, input.rowIndex)),
    'decisions.clear': (input) => after('decide', input.projectId, (project) => decisions.clear(project, input.rowIndex)),
    // Cancelled part-way, an undo keeps the rows it took back and says how many: undo again takes back the rest.
    'decisions.undo': (input) =>
      asJob('undo', input.projectId, undos, (job) =>
        undos.run(input.projectId, (closing) =>
          tellingBulk(job, input.projectId, 'undo', (tell) => decisions.undo(requireProject(db, input.projectId), tell, AbortSignal.any([job.signal, closing]))),
        ),
      ),
    'decisions.record': (input) => after('decide', input.projectId, (project) => decisions.record(project, input.entries)),
    'decisions.acceptPreview': async (input) => {
      const project = await prep.plannedAndAssessed(input.projectId);
      return decisions.acceptPreview(project, getSettings(db).autoAccept, deps.readsElsewhere(project) ? deps.reading.rows : undefined);
    },
    // Cancellable from the start: a cancel while the project's verdicts are made accepts nothing.
    'decisions.acceptAtOrAbove': (input) =>
      asJob('accept', input.projectId, accepts, (job) =>
        accepts.run(input.projectId, async (signal) => {
          const project = await prep.plannedAndAssessed(input.projectId);
          const rule = getSettings(db).autoAccept;
          // The rows a learning lifted, when the accept is the offer of its "what changed" line.
          const only = input.pattern === undefined ? undefined : new Set(await patternIndexes(db, project, input.pattern));
          return tellingBulk(job, project.id, 'accept', (tell) => decisions.acceptAtOrAbove(project, rule, input.minConfidence ?? rule.minConfidence, tell, signal, only));
        }),
      ),
    // Learning waits for an accept or undo under way, then works out every lift before writing any: cancelled, it changes nothing.
    'learning.learn': (input) =>
      asJob('learn', input.projectId, learns, (job) =>
        learns.run(input.projectId, async (signal) => {
          const project = await prep.plannedAndAssessed(input.projectId);
          const startFrom = input.startFromProjectId === undefined ? null : learningToStartFrom(db, requireProject(db, input.startFromProjectId), project);
          const at = new Date(deps.clock.now()).toISOString();
          return tellingBulk(job, project.id, 'learn', (tell) => learnFromDecisions(db, project, at, startFrom, tell, signal));
        }),
      ),
    'learning.summary': (input) => learningSummary(db, requireProject(db, input.projectId)),
    'learning.sources': (input) => learningSources(db, requireProject(db, input.projectId)),
    'learning.reset': (input) => after('decide', input.projectId, (project) => resetLearning(db, project)),
  };

  return {
    handlers,
    close(reason) {
      accepts.cancelAll(reason);
      learns.cancelAll();
      undos.cancelAll(reason);
    },
  };
}
