// Bringing a project's rows up to date before work reads or writes them: its queries planned for the selected
// service (a plan), and every row carrying a verdict of the confidence model (an assessment).
import type { Database } from 'better-sqlite3';
import type { PlanCause } from '../../../shared/contract';
import type { JobBoard, JobHandle } from '../jobs/job-board';
import { KeyedWork } from '../keyed-work';
import { progressPace } from '../progress-pace';
import { requireProject, type ProjectRecord } from '../rows/project-record';
import { NO_SCOPE, scopeId, type ServiceScope } from '../rows/service-scope';
import { PlanFrontier } from './plan-frontier';
import { planProject, type PlanRequest } from './plan-queries';
import type { ListWalker } from './reading-thread';
import { reassessRows, unassessedProbe } from './reassess-rows';
import type { VerdictThread } from './verdict-thread';

export interface PreparationDeps {
  db: Database;
  activeScope(): ServiceScope | null;
  /** Whether a run of the project is starting or going: it plans the project itself. */
  runBusy(projectId: number): boolean;
  /** Walks a large project's rows on the reading worker; undefined to walk them here. */
  walkElsewhere(project: ProjectRecord): ListWalker | undefined;
  /** Each plan is a job there: job.cancel stops it, whoever started it (a mapping saved, a run, a read). */
  jobs: JobBoard;
  /** The verdict worker, started on first use, which works out a large plan's next page; null: the plan's thread does. */
  verdicts(): VerdictThread | null;
  /** No plan is going any more: the verdict worker a plan started may be stopped (unless a run uses it). */
  plansEnded(): void;
}

export class ProjectPreparation {
  /** Projects whose plan is being (re)computed, and when that ends: nothing else may touch their rows meanwhile. */
  private readonly planning = new KeyedWork<number>();
  /** Projects whose rows all carry a verdict of the confidence model (see assessed). */
  private readonly assessedIds = new Set<number>();
  /** Plans working out their rows (plan): the verdict worker is kept while one is. */
  private plansGoing = 0;
  /** First plans going, by project: a run may follow one (runs/plan-frontier.ts). */
  private readonly frontiers = new Map<number, PlanFrontier>();

  constructor(private readonly deps: PreparationDeps) {}

  /** Whether any project is being planned: background work waits for it. */
  get anyPlanning(): boolean {
    return this.planning.size > 0;
  }

  /** Whether a plan is working out its rows, maybe on the verdict worker. */
  get planGoing(): boolean {
    return this.plansGoing > 0;
  }

  /** The project's first plan while it goes, for a run to follow; null when none goes or the plan rewrites rows planned before. */
  frontier(projectId: number): PlanFrontier | null {
    return this.frontiers.get(projectId) ?? null;
  }

  /** Runs `work` (a plan) as the project's one plan job: another asked meanwhile is refused. */
  withPlanLock<T>(projectId: number, work: (job: JobHandle<'plan'>) => Promise<T>): Promise<T> {
    return this.planning.run(projectId, 'This project is being prepared (its queries are being planned).', () =>
      this.deps.jobs.run({ kind: 'plan', projectId, phase: 'planning queries' }, work),
    );
  }

  /** Re-plans a project whose queries were made for another service (or whose plan was cut off), for `startedBy`. */
  async ensurePlan(projectId: number, startedBy: PlanCause): Promise<void> {
    // A plan under way (a mapping being saved, a run or another screen's plan) is waited for, then looked at again. In
    // this loop, not planning.settled: with none under way it goes on in the same turn, so two callers cannot both
    // find none and then both start one.
    for (let pending = this.planning.current(projectId); pending; pending = this.planning.current(projectId)) await pending;
    const project = requireProject(this.deps.db, projectId);
    const scope = this.deps.activeScope();
    const wanted = scope ?? NO_SCOPE;
    if (project.planScope !== null && (scope === null || project.planScope === scopeId(wanted))) return;
    await this.withPlanLock(projectId, (job) => this.plan(project, { mapping: project.mapping, strategies: project.strategies, scope: wanted }, startedBy, job));
  }

  /**
   * Plans the project's queries as `job`, telling how far it is (its job's progress, a PlanProgress its detail): at the
   * start, a few times a second, at the end, each time saying who started it. Stopped by the job's cancel or by `signal`.
   */
  async plan(project: ProjectRecord, req: PlanRequest, startedBy: PlanCause, job: JobHandle<'plan'>, signal?: AbortSignal): Promise<void> {
    const pace = progressPace();
    const tell = (rowsPlanned: number) => job.progress(rowsPlanned, project.rowCount, undefined, { projectId: project.id, rowsPlanned, rowsTotal: project.rowCount, startedBy });
    // Only a first plan may be followed: a plan again rewrites rows a run could be settling.
    const first = this.deps.db.prepare('SELECT 1 FROM row_status WHERE project_id = ? LIMIT 1').get(project.id) === undefined;
    const frontier = first ? new PlanFrontier(req.mapping) : null;
    if (frontier) this.frontiers.set(project.id, frontier);
    tell(0);
    this.plansGoing++;
    try {
      await planProject(
        this.deps.db,
        project.id,
        req,
        (rowsPlanned, withoutQuery, before) => {
          frontier?.landed(rowsPlanned, withoutQuery, before);
          if (rowsPlanned < project.rowCount && pace()) tell(rowsPlanned);
        },
        signal ? AbortSignal.any([signal, job.signal]) : job.signal,
        () => this.deps.verdicts(),
      );
      frontier?.ended();
    } catch (error) {
      frontier?.ended(error);
      throw error;
    } finally {
      if (frontier) this.frontiers.delete(project.id);
      if (--this.plansGoing === 0) this.deps.plansEnded();
    }
    tell(project.rowCount);
  }

  /**
   * The project, its rows' statuses made: one never planned (just imported, its mapping not saved yet) is planned
   * first with the mapping it stores, as a run would be, and a plan under way (a mapping being saved) is waited for:
   * read while it goes, the rows it has not reached yet have no status, and a list, a count or an export would leave
   * them out. One being run is left to that (its rows settle as they are read; a run following a first plan reads
   * its rows as the plan lands them).
   */
  async planned(projectId: number): Promise<ProjectRecord> {
    if (!this.deps.runBusy(projectId)) await this.planning.settled(projectId);
    const project = requireProject(this.deps.db, projectId);
    if (project.planScope !== null || this.planning.has(projectId) || this.deps.runBusy(projectId)) return project;
    await this.ensurePlan(projectId, 'read');
    return requireProject(this.deps.db, projectId);
  }

  /**
   * Rows settled before the confidence model existed get their verdict once per project and session, before
   * anything reads verdicts in bulk (sorting by confidence, accepting at a threshold); rows settled since carry one.
   * Only when some row needs it is that a job (a `plan`, phase "assessing rows") the read waits on: otherwise the read
   * writes nothing.
   */
  async assessed(project: ProjectRecord): Promise<ProjectRecord> {
    if (this.assessedIds.has(project.id)) return project;
    // Finding that no row needs it reads the whole project: in a large one a worker looks first.
    const { sql, params } = unassessedProbe(project.id);
    const walk = this.deps.walkElsewhere(project);
    const elsewhere = walk ? await (walk(sql, params) ?? Promise.resolve(null)).catch(() => null) : null;
    const needed = elsewhere ? elsewhere.length > 0 : this.deps.db.prepare(sql).get(...params) !== undefined;
    if (needed) await this.deps.jobs.run({ kind: 'plan', projectId: project.id, phase: 'assessing rows' }, () => reassessRows(this.deps.db, project.id, project.mapping, 'unassessed'));
    this.assessedIds.add(project.id);
    return project;
  }

  /** The planned project with its verdicts made. */
  async plannedAndAssessed(projectId: number): Promise<ProjectRecord> {
    return this.assessed(await this.planned(projectId));
  }
}
