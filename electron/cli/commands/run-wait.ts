import type { RunProgress } from '../../../shared/contract';
import { ROW_STATES, type RowState } from '../../../shared/model';
import type { CliSession } from '../connect';
import { waitForJob } from '../wait-for-job';

const FINAL: RunProgress['status'][] = ['done', 'cancelled', 'failed', 'out_of_credits', 'paused'];

/**
 * Starts a run and resolves with its final progress. On `stop` (Ctrl-C) the run is paused, so whatever is in
 * flight lands and is kept, and the promise resolves with the paused state.
 */
export function waitForRun(
  cli: CliSession,
  start: () => Promise<RunProgress>,
  onProgress: (p: RunProgress) => void,
  stop: AbortSignal,
): Promise<RunProgress> {
  return waitForJob(
    cli,
    {
      kind: 'run',
      idOf: (p) => p.projectId,
      isFinal: (p) => FINAL.includes(p.status),
      start,
      status: (projectId) => cli.call('run.status', { projectId }),
      stop: (projectId) => cli.call('run.pause', { projectId }),
    },
    onProgress,
    stop,
  );
}

/** Prints the project's rows per state, and returns them. */
export async function printCounts(cli: CliSession, projectId: number): Promise<Record<RowState, number>> {
  const page = await cli.call('review.page', { projectId, offset: 0, limit: 1 });
  const parts = ROW_STATES.filter((s) => page.counts[s] > 0).map((s) => `${s.replace('_', ' ')} ${page.counts[s]}`);
  process.stderr.write(`Rows: ${parts.join(', ')}\n`);
  return page.counts;
}
