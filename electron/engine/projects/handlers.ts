// The projects.*, mapping.* and demo.start calls: importing a sheet, saving its mapping (a plan), and the demo.
import { join } from 'node:path';
import type { Database } from 'better-sqlite3';
import type { CallParsedInput, ProjectSummary } from '../../../shared/contract';
import type { Profile } from '../../../shared/model';
import { CancellableCalls } from '../cancellable-calls';
import type { Clock } from '../clock';
import { DEMO_PROJECT_NAME, DEMO_SHEET, findResourcesDir, type DemoService } from '../demo/demo-service';
import type { Handlers } from '../dispatch';
import { EngineError } from '../engine-errors';
import type { Action } from '../jobs/concurrency';
import type { JobBoard } from '../jobs/job-board';
import type { Connections } from '../connections/connections';
import { requireProject } from '../rows/project-record';
import { NO_SCOPE } from '../rows/service-scope';
import type { MappingPreviews } from '../runs/mapping-preview';
import type { ProjectPreparation } from '../runs/project-preparation';
import { reassessRows } from '../runs/reassess-rows';
import type { ChangedCount } from '../review/review-page';
import { listSheets } from '../sheets';
import { importProject } from './import-project';
import { deleteProject, readyProjectNamed, renameProject, touchProject } from './manage-projects';
import { projectDetail, projectSummary, listProjectSummaries } from './project-summary';

export interface ProjectHandlersDeps {
  db: Database;
  clock: Clock;
  changed: ChangedCount | undefined;
  prep: ProjectPreparation;
  jobs: JobBoard;
  connections: Connections;
  demo: DemoService;
  resourcesDir: string | undefined;
  /** Mapping previews: going on by project and the screen that asked (a newer one lets the same screen's older one go), and the last few kept. */
  mappingPreviews: MappingPreviews;
  /** Lets the action start on the project as the overlap table says (jobs/concurrency.ts). */
  enter(action: Action, projectId: number): Promise<void>;
  /** Removes what a deleted or cancelled project left (projects/project-cleanup.ts). */
  cleanUp(): Promise<void>;
}

export interface ProjectHandlers {
  handlers: Handlers;
  /** Cancels imports and previews under way: each undoes what it began rather than meet a closed database. */
  close(): void;
}

export function createProjectHandlers(deps: ProjectHandlersDeps): ProjectHandlers {
  const { db, clock, prep, mappingPreviews } = deps;
  /** Imports under way by file: the user may cancel each part-way (job.cancel), and closing cancels them. */
  const imports = new CancellableCalls<string>();
  const now = () => new Date(clock.now()).toISOString();

  /** Imports a sheet as an `import` job, its ImportProgress the job's detail; cancelled, it keeps nothing. */
  function importAsJob(input: CallParsedInput<'projects.import'>): Promise<number> {
    const { file } = input;
    const detail = { file, rowsRead: 0, percent: 0 };
    return deps.jobs.run({ kind: 'import', projectId: null, options: input, stop: () => imports.cancel(file), phase: 'reading the sheet', detail }, (job) =>
      imports.run(file, async (signal) => {
        try {
          return await importProject(db, clock, input, (progress) => job.progress(progress.percent, 100, undefined, { file, ...progress }), { signal });
        } finally {
          // A cancelled import left its rows to the cleanup.
          if (signal.aborted) await deps.cleanUp();
        }
      }),
    );
  }

  async function startDemo(): Promise<{ profile: Profile; project: ProjectSummary }> {
    const sim = await deps.demo.start();
    const profile = await deps.connections.useDemo({ baseUrl: sim.baseUrl, orgId: sim.orgId, clientId: sim.demo.clientId, clientSecret: sim.demo.clientSecret });
    const reuse = readyProjectNamed(db, DEMO_PROJECT_NAME);
    if (reuse !== undefined) return { profile, project: projectSummary(db, requireProject(db, reuse), deps.changed) };
    const resources = findResourcesDir(deps.resourcesDir);
    if (!resources) throw new EngineError('not_found', 'The demo sheet (resources/demo/sample-people.csv) is missing from this installation.');
    const file = join(resources, DEMO_SHEET);
    const id = await importAsJob({ file, name: DEMO_PROJECT_NAME });
    return { profile, project: projectSummary(db, requireProject(db, id), deps.changed) };
  }

  const handlers: Handlers = {
    'demo.start': () => startDemo(),
    'projects.list': () => listProjectSummaries(db, deps.changed, clock.now()),
    'projects.sheets': (input) => listSheets(input.file),
    'projects.import': async (input) => projectDetail(db, await importAsJob(input), deps.changed),
    'projects.get': (input) => projectDetail(db, input.projectId, deps.changed),
    'projects.rename': (input) => {
      renameProject(db, input.projectId, input.name, now());
      return projectSummary(db, requireProject(db, input.projectId), deps.changed);
    },
    'projects.delete': async (input) => {
      requireProject(db, input.projectId);
      // A run or refresh going is cancelled first; a plan or an accept refuses (jobs/concurrency.ts).
      await deps.enter('delete', input.projectId);
      deleteProject(db, input.projectId);
      mappingPreviews.forget(input.projectId);
      await deps.cleanUp();
    },

    'mapping.preview': (input) => mappingPreviews.preview(db, requireProject(db, input.projectId), input),
    'mapping.save': async (input) => {
      const project = requireProject(db, input.projectId);
      await deps.enter('plan', project.id);
      // Its plan is the project's `plan` job: job.cancel stops it, and the project keeps the mapping it had.
      await prep.withPlanLock(project.id, async (job) => {
        // Only rows that had candidates before are compared again: rows a run following this plan settles are assessed
        // under the new mapping already (runs/plan-frontier.ts).
        const remapped = JSON.stringify(project.mapping) !== JSON.stringify(input.mapping);
        const hadCandidates = remapped && db.prepare("SELECT 1 FROM row_status WHERE project_id = ? AND outcome = 'to_review' AND query_id IS NOT NULL LIMIT 1").get(project.id) !== undefined;
        await prep.plan(project, { mapping: input.mapping, strategies: input.strategies, scope: deps.connections.activeScope() ?? NO_SCOPE }, 'mapping', job);
        // Rows that keep their candidates are compared with them again: another column is other evidence.
        if (hadCandidates) await reassessRows(db, project.id, input.mapping, 'all');
      });
      touchProject(db, project.id, now());
      return projectDetail(db, project.id, deps.changed);
    },
  };

  return {
    handlers,
    close() {
      imports.cancelAll();
      mappingPreviews.cancelAll();
    },
  };
}
