// The demo project set up and run over the contract, for specs whose subject comes after the run.
import type { RunProgress } from '../../../shared/contract';
import type { RunningHost } from './web-host';

export async function waitForRun(app: RunningHost, projectId: number, until: (progress: RunProgress) => boolean, timeoutMs = 60_000): Promise<RunProgress> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const progress = await app.value('run.status', { projectId });
    if (progress && until(progress)) return progress;
    if (Date.now() > deadline) throw new Error(`The run of project ${projectId} did not get there in time; last: ${JSON.stringify(progress)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** "Try with demo data" with its detected mapping, run to the end. */
export async function runDemoProject(app: RunningHost): Promise<number> {
  const { project } = await app.value('demo.start', {});
  const detail = await app.value('projects.get', { projectId: project.id });
  await app.value('mapping.save', { projectId: project.id, mapping: detail.mapping, strategies: detail.strategies });
  await app.value('run.start', { projectId: project.id });
  const done = await waitForRun(app, project.id, (progress) => progress.status !== 'running');
  if (done.status !== 'done' || done.errors > 0) throw new Error(`The demo run ended ${done.status} with ${done.errors} errors: ${done.message}`);
  return project.id;
}
