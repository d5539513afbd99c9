import type { RunProgress } from '../../../shared/contract';
import { ROW_STATES } from '../../../shared/model';
import type { CliSession } from '../connect';

const FINAL: RunProgress['status'][] = ['done', 'cancelled', 'failed', 'out_of_credits', 'paused'];

/**
 * Starts a run and resolves with its final progress. On `stop` (Ctrl-C) the run is paused, so whatever is in
 * flight lands and is kept, and the promise resolves with the paused state.
 */
export async function waitForRun(
  cli: CliSession,
  start: () => Promise<RunProgress>,
  onProgress: (p: RunProgress) => void,
  stop: AbortSignal,
): Promise<RunProgress> {
  let projectId: number | null = null;
  let settle: (p: RunProgress) => void = () => {};
  const finished = new Promise<RunProgress>((resolve) => (settle = resolve));
  const unsubscribe = cli.engine.on('run.progress', (p) => {
    if (projectId !== null && p.projectId !== projectId) return;
    onProgress(p);
    if (FINAL.includes(p.status)) settle(p);
  });
  const onStop = () => {
    if (projectId !== null) void cli.call('run.pause', { projectId });
  };
  stop.addEventListener('abort', onStop, { once: true });
  try {
    const first = await start();
    projectId = first.projectId;
    if (FINAL.includes(first.status)) return first;
    if (stop.aborted) onStop();
    // Events may have been missed between the start call and the subscription filter: poll as a backstop.
    const poll = setInterval(async () => {
      const now = await cli.call('run.status', { projectId: projectId! }).catch(() => null);
      if (now && FINAL.includes(now.status)) settle(now);
    }, 1_000);
    try {
      return await finished;
    } finally {
      clearInterval(poll);
    }
  } finally {
    stop.removeEventListener('abort', onStop);
    unsubscribe();
  }
}

export async function printCounts(cli: CliSession, projectId: number): Promise<void> {
  const page = await cli.call('review.page', { projectId, offset: 0, limit: 1 });
  const parts = ROW_STATES.filter((s) => page.counts[s] > 0).map((s) => `${s.replace('_', ' ')} ${page.counts[s]}`);
  process.stderr.write(`Rows: ${parts.join(', ')}\n`);
}
