import type { RefreshProgress, WatchRun } from '../../../shared/contract';
import { abortOnSignal } from '../cancel-on-signal';
import { parseCommandArgs, positiveInt } from '../args';
import { CliError } from '../cli-error';
import { checkConnection, openCliSession, selectProfile, type CliSession } from '../connect';
import { EXIT_CODES } from '../exit-codes';
import { stoppedRunExitCode } from '../failed-rows';
import { formatJobChanges, formatRefreshLine, formatRefreshOutcome, formatRefreshPreview } from '../refresh-text';
import { confirm } from '../prompt';
import { waitForJob } from '../wait-for-job';

const FINAL: RefreshProgress['status'][] = ['done', 'cancelled', 'failed', 'out_of_credits', 'paused'];
const RESUMABLE: RefreshProgress['status'][] = ['paused', 'failed', 'out_of_credits'];
const PLAIN_LINE_EVERY_MS = 2_000;

/**
 * `matchdesk refresh --project N [--older-than DAYS] [--yes]`: asks the service again for the people the project's
 * matched rows chose, after the cost preview; goes on with a refresh that was stopped (Ctrl-C, a crash) instead.
 */
export async function refreshCommand(argv: string[]): Promise<number> {
  const { values } = parseCommandArgs(argv, {
    project: { type: 'string' },
    'older-than': { type: 'string' },
    profile: { type: 'string' },
    due: { type: 'boolean' },
    yes: { type: 'boolean', short: 'y' },
  });
  if (values.due) {
    if (values.project !== undefined || values['older-than'] !== undefined || values.profile !== undefined) {
      throw CliError.usage('--due runs every due watch with its own profile: it takes no --project, --older-than or --profile.');
    }
    return refreshDue(Boolean(values.yes));
  }
  const projectId = positiveInt(values.project, '--project');
  if (!projectId) throw CliError.usage('Name the project: matchdesk refresh --project <id> [--older-than DAYS].');
  const olderThanDays = days(values['older-than']);
  if (!values.yes && !process.stdin.isTTY) throw CliError.usage('Not on a terminal, so nothing can be confirmed: add --yes to send the calls.');

  const cli = await openCliSession();
  const stop = new AbortController();
  try {
    const profile = await selectProfile(cli, values.profile);
    await checkConnection(cli, profile);
    const last = await cli.call('refresh.status', { projectId });
    let start: () => Promise<RefreshProgress>;
    if (last && RESUMABLE.includes(last.status)) {
      const left = last.peopleTotal - last.peopleDone + last.failed;
      process.stderr.write(`Going on with the refresh started ${last.startedAt}: ${last.peopleDone - last.failed} of ${last.peopleTotal} people already asked, ${left} to go.\n`);
      if (olderThanDays !== null) process.stderr.write('  note: --older-than applies to a new refresh; this one goes on with the people it chose.\n');
      if (!values.yes && !(await confirm(`Ask the service for ${left} more ${left === 1 ? 'person' : 'people'}?`))) {
        process.stderr.write('Nothing sent.\n');
        return EXIT_CODES.failed;
      }
      start = async () => (await cli.call('refresh.resume', { projectId }))!;
    } else {
      const preview = await cli.call('refresh.preview', { projectId, ...(olderThanDays !== null ? { olderThanDays } : {}) });
      process.stderr.write(formatRefreshPreview(preview));
      if (preview.people === 0) {
        process.stderr.write(preview.matchedRows === 0 ? 'No matched rows: nobody to refresh.\n' : 'Nobody to ask.\n');
        return EXIT_CODES.ok;
      }
      if (!values.yes && !(await confirm(`Send ${preview.calls} call(s) to the service?`))) {
        process.stderr.write('Nothing sent.\n');
        return EXIT_CODES.failed;
      }
      start = () => cli.call('refresh.start', { projectId, ...(olderThanDays !== null ? { olderThanDays } : {}) });
    }

    const final = await follow(cli, start, stop);
    if (final.status === 'paused' || final.status === 'cancelled') {
      process.stderr.write(`Stopped. Everything that landed is kept; run "matchdesk refresh --project ${projectId} --yes" to go on.\n`);
      return EXIT_CODES.interrupted;
    }
    if (final.status === 'failed' || final.status === 'out_of_credits') {
      process.stderr.write(`matchdesk refresh: ${(final.message ?? 'The refresh stopped; the service did not say why.').replace(/\s+/g, ' ').trim()}\n`);
      process.stderr.write(`Everything that landed is kept. Go on with "matchdesk refresh --project ${projectId} --yes".\n`);
      return final.status === 'failed' ? stoppedRunExitCode(final.stopKind, []) : EXIT_CODES.serviceFailed;
    }
    process.stderr.write(formatRefreshOutcome(final));
    const page = await cli.call('review.page', { projectId, offset: 0, limit: 1 });
    process.stderr.write(`Matched rows now: ${formatJobChanges(page.jobChanges)}.\n`);
    if (page.changedAtLastRefresh !== 0) process.stderr.write(`Write the rows that changed with "matchdesk export ${projectId} --changes-only --out <file>".\n`);
    if (final.failed > 0) {
      process.stderr.write(`matchdesk refresh: ${final.failed} ${final.failed === 1 ? 'person' : 'people'} could not be asked; their rows keep what they had. Refresh again to ask them.\n`);
      return EXIT_CODES.rowsFailed;
    }
    return EXIT_CODES.ok;
  } finally {
    await cli.close();
  }
}

/** A due watch that did not start its refresh, and why. */
class NotStarted extends Error {
  constructor(readonly run: Exclude<WatchRun, { outcome: 'started' }>) {
    super(run.outcome);
  }
}

/**
 * `matchdesk refresh --due [--yes]`: runs every due watch, one project after another, each with its own profile, as
 * the system's scheduler does. A watch that cannot run (no secret, over its ceiling, out of credits) or whose refresh
 * stops (the network is gone) says so on the watch and is tried again at the next run: exit 0, so a scheduled run
 * never fails loudly; 130 on Ctrl-C.
 */
async function refreshDue(yes: boolean): Promise<number> {
  if (!yes && !process.stdin.isTTY) throw CliError.usage('Not on a terminal, so nothing can be confirmed: add --yes to run the due watches.');
  const cli = await openCliSession();
  const stop = new AbortController();
  try {
    const watches = await cli.call('watch.list', {});
    const due = watches.filter((w) => w.due);
    if (due.length === 0) {
      const next = watches[0];
      process.stderr.write(next ? `No watch is due; the next is "${next.projectName}" at ${next.nextRefreshAt}.\n` : 'No project is watched: set one with "matchdesk watch set".\n');
      return EXIT_CODES.ok;
    }
    process.stderr.write(`Due: ${due.map((w) => `"${w.projectName}" (project ${w.projectId})`).join(', ')}.\n`);
    if (!yes && !(await confirm(`Refresh ${due.length === 1 ? 'it' : `these ${due.length}`} now?`))) {
      process.stderr.write('Nothing sent.\n');
      return EXIT_CODES.failed;
    }
    for (const watch of due) {
      if (stop.signal.aborted) break;
      process.stderr.write(`${watch.projectName} (project ${watch.projectId}):\n`);
      try {
        const final = await follow(
          cli,
          async () => {
            const run = await cli.call('watch.runDue', { projectId: watch.projectId });
            if (run.outcome !== 'started') throw new NotStarted(run);
            return run.progress;
          },
          stop,
        );
        if (final.status === 'paused' && stop.signal.aborted) break;
        const after = (await cli.call('watch.list', {})).find((w) => w.projectId === watch.projectId);
        if (after?.lastResult) process.stderr.write(`  ${after.lastResult}\n`);
      } catch (error) {
        // One watch that cannot run does not keep the others from theirs.
        if (error instanceof NotStarted) {
          const run = error.run;
          process.stderr.write(run.outcome === 'not_due' ? `  not due until ${run.nextRefreshAt}.\n` : `  not refreshed: ${run.reason}\n`);
        } else {
          process.stderr.write(`  not refreshed: ${error instanceof Error ? error.message : String(error)}\n`);
        }
      }
    }
    if (stop.signal.aborted) {
      process.stderr.write('Stopped. Everything that landed is kept; the next "matchdesk refresh --due" goes on with it.\n');
      return EXIT_CODES.interrupted;
    }
    return EXIT_CODES.ok;
  } finally {
    await cli.close();
  }
}

/** Runs the refresh to its end, printing progress; Ctrl-C pauses it, so what is in flight lands and is kept. */
async function follow(cli: CliSession, start: () => Promise<RefreshProgress>, stop: AbortController): Promise<RefreshProgress> {
  const signalsOff = abortOnSignal(stop);
  let lastPlain = 0;
  const show = (p: RefreshProgress) => {
    if (process.stderr.isTTY) return void process.stderr.write(`\r${formatRefreshLine(p)}\x1b[K`);
    if (Date.now() - lastPlain >= PLAIN_LINE_EVERY_MS) {
      lastPlain = Date.now();
      process.stderr.write(`${formatRefreshLine(p)}\n`);
    }
  };
  try {
    const final = await waitForJob(
      cli,
      {
        kind: 'refresh',
        idOf: (p) => p.projectId,
        isFinal: (p) => FINAL.includes(p.status),
        start,
        status: (projectId) => cli.call('refresh.status', { projectId }),
        stop: (projectId) => cli.call('refresh.pause', { projectId }),
      },
      show,
      stop.signal,
    );
    if (process.stderr.isTTY) process.stderr.write('\r\x1b[K');
    process.stderr.write(`${formatRefreshLine(final)}\n`);
    return final;
  } finally {
    signalsOff();
  }
}

function days(value: string | undefined): number | null {
  if (value === undefined) return null;
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n < 0 || n > 36_500) throw CliError.usage(`--older-than takes a number of days (e.g. 30), not "${value}".`);
  return n;
}
