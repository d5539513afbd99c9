import { resolve } from 'node:path';
import { MAPPED_FIELDS, STRATEGIES, type Mapping, type Strategy } from '../../../shared/model';
import { percent } from '../../../shared/progress';
import { lookupShortfall } from '../../../shared/lookup-needs';
import { applyMapOverrides, mapHint } from '../map-overrides';
import type { ProjectDetail, RunProgress } from '../../../shared/contract';
import { confidenceThreshold, exportFormat, parseCommandArgs, positiveInt } from '../args';
import { abortOnSignal, cancelOnSignal } from '../cancel-on-signal';
import { CliError } from '../cli-error';
import { checkConnection, openCliSession, selectProfile, type CliSession } from '../connect';
import { EXIT_CODES } from '../exit-codes';
import { exportWithProgress } from '../export-with-progress';
import { importWithProgress } from '../import-with-progress';
import { toReviewNote } from '../review-note';
import { failedRowsLine, stoppedRunExitCode } from '../failed-rows';
import { sheetHeaders } from '../sheet-headers';
import { ProgressReporter, formatPreview } from '../progress';
import { withProgressLine } from '../progress-line';
import { confirm } from '../prompt';
import { printThresholds } from './accept';
import { printCounts, waitForRun } from './run-wait';

export async function matchCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseCommandArgs(
    argv,
    {
      out: { type: 'string' },
      candidates: { type: 'string' },
      map: { type: 'string', multiple: true },
      strategy: { type: 'string' },
      sheet: { type: 'string' },
      project: { type: 'string' },
      profile: { type: 'string' },
      'auto-accept': { type: 'boolean' },
      'min-confidence': { type: 'string' },
      offline: { type: 'boolean' },
      concurrency: { type: 'string' },
      'matched-only': { type: 'boolean' },
      fresh: { type: 'boolean' },
      yes: { type: 'boolean', short: 'y' },
    },
    1,
  );
  const input = positionals[0];
  if (!input && !values.project) throw CliError.usage('Name the sheet to match: matchdesk match <input.csv|xlsx> --out <file>.');
  if (!values.out) throw CliError.usage('Say where to write the result with --out <file.csv|xlsx>.');
  if (values.fresh && !values.project) throw CliError.usage('--fresh goes with --project N: a new sheet starts a new run anyway.');
  const format = exportFormat(values.out);
  const strategies = parseStrategies(values.strategy);
  const concurrency = positiveInt(values.concurrency, '--concurrency');
  const minConfidence = confidenceThreshold(values['min-confidence'], '--min-confidence');
  if (!values.yes && !process.stdin.isTTY) {
    throw CliError.usage('Not on a terminal, so nothing can be confirmed: add --yes to send the calls.');
  }

  const offline = values.offline ?? false;
  const overrides = values.map ?? [];
  const out = resolve(values.out);

  const cli = await openCliSession();
  const stopOnSignal = new AbortController();
  let lateSignalsOff = (): void => undefined;
  try {
    const profile = await selectProfile(cli, values.profile);
    if (!offline) await checkConnection(cli, profile);
    let detail: ProjectDetail;
    let imported = false;
    if (values.project) {
      detail = await cli.call('projects.get', { projectId: positiveInt(values.project, '--project')! });
    } else {
      const path = resolve(input!);
      if (overrides.length > 0) applyMapOverrides({ headers: await sheetHeaders(path, values.sheet), mapping: {} }, overrides);
      detail = await importSheet(cli, path, values.sheet);
      imported = true;
    }
    const projectId = detail.summary.id;

    const final = await mapAndRun(cli, detail, imported, {
      overrides,
      strategies: strategies ?? detail.strategies,
      offline,
      yes: values.yes ?? false,
      fresh: values.fresh ?? false,
      autoAccept: Boolean(values['auto-accept']),
      minConfidence,
      concurrency,
      stop: stopOnSignal,
    });
    if (!final) return EXIT_CODES.failed;

    if (final.status === 'paused' || final.status === 'cancelled') {
      process.stderr.write(`Stopped. Everything that landed is kept; run "matchdesk match --project ${projectId} --out ${values.out} --yes" to go on.\n`);
      return EXIT_CODES.interrupted;
    }
    if (final.status === 'failed' || final.status === 'out_of_credits') {
      // A run that stopped part-way is no result to hand a script: the file there stays as it was.
      const failures = await cli.call('run.failures', { projectId });
      process.stderr.write(`matchdesk match: ${oneLine(final.message ?? 'The run stopped; the service did not say why.')}\n`);
      process.stderr.write(
        `Everything that landed is kept and ${values.out} was not written. Go on with "matchdesk match --project ${projectId} --out ${values.out} --yes", ` +
          `or write what is there with "matchdesk export ${projectId} --out ${values.out}".\n`,
      );
      return final.status === 'failed' ? stoppedRunExitCode(final.stopKind, failures) : EXIT_CODES.serviceFailed;
    }
    // The run has ended. A Ctrl-C from here on stops the command before it writes (or cancels the export under way)
    // rather than killing it between steps; one that came as the run was ending stops it here too.
    lateSignalsOff = abortOnSignal(stopOnSignal);
    const keptLine = `The matches are kept: write them with "matchdesk export ${projectId} --out ${values.out}".`;
    if (stopOnSignal.signal.aborted) throw new CliError(`Stopped before writing ${values.out}. ${keptLine}`, EXIT_CODES.interrupted);
    const scope = values['matched-only'] ? 'matched' : 'all';
    const note = toReviewNote((await cli.call('review.page', { projectId, offset: 0, limit: 1 })).counts.to_review, scope);
    if (note) process.stderr.write(`${note}\n`);
    const exported = await exportWithProgress(cli, {
      projectId,
      format,
      scope,
      candidates: Boolean(values.candidates),
      destination: out,
      ...(values.candidates ? { candidatesDestination: resolve(values.candidates) } : {}),
    }).catch(sayOnCancel((reason) => `${reason}\n${keptLine}`));
    process.stderr.write(`Wrote ${exported.rows} rows to ${exported.path}\n`);
    const counts = await printCounts(cli, projectId);
    await printThresholds(cli, projectId);
    if (counts.error > 0) {
      process.stderr.write(`matchdesk match: ${failedRowsLine(counts.error, await cli.call('run.failures', { projectId }))}\n`);
      return EXIT_CODES.rowsFailed;
    }
    return EXIT_CODES.ok;
  } finally {
    lateSignalsOff();
    await cli.close();
  }
}

const RESUMABLE: RunProgress['status'][] = ['paused', 'failed', 'out_of_credits'];

/** What a resumed run goes on with, and which of this command's options it does not take. */
export function resumedLine(run: RunProgress, choices: Pick<RunChoices, 'autoAccept' | 'minConfidence'>): string {
  const rule = run.autoAccept;
  const accepts = rule === null ? 'the settings\' auto-accept rule' : rule.enabled ? `auto-accept at ${Math.round(rule.minConfidence * 100)}%` : 'no auto-accept';
  const line = `Going on with run ${run.runId}, which stopped part-way, under the options it started with (${accepts}).`;
  const differs =
    rule !== null && (choices.autoAccept !== rule.enabled || (choices.minConfidence !== undefined && choices.minConfidence !== rule.minConfidence));
  return differs
    ? `${line}\n  note: this command's --auto-accept/--min-confidence are not applied to it; add --fresh to start a new run with them.`
    : line;
}

interface RunChoices {
  overrides: string[];
  strategies: Strategy[];
  offline: boolean;
  yes: boolean;
  /** Drop a run that stopped part-way instead of going on with it. */
  fresh: boolean;
  autoAccept: boolean;
  minConfidence: number | undefined;
  concurrency: number | undefined;
  stop: AbortController;
}

/**
 * Saves the mapping, shows the cost, asks (unless --yes) and runs to the end; null when the user chose not to
 * send. Until the run has started a failure leaves nothing behind: a project this command imported goes again.
 */
async function mapAndRun(cli: CliSession, detail: ProjectDetail, imported: boolean, choices: RunChoices): Promise<RunProgress | null> {
  const projectId = detail.summary.id;
  let started = false;
  try {
    const mapping = applyMapOverrides(detail, choices.overrides);
    const shortfall = lookupShortfall(mapping, choices.strategies);
    if (shortfall) throw CliError.usage(`${shortfall} ${mapHint(detail.headers)}`);
    // Nothing to confirm and nothing planned before: the calls go out as the first rows are planned.
    if (choices.yes && imported && !choices.offline) {
      return await planAndRun(cli, detail, mapping, choices, () => (started = true));
    }
    // Planning a large sheet's queries and costing them takes a while: a terminal is told what it waits for.
    const planning = `Planning the queries of ${detail.summary.rowCount} rows...`;
    const preview = await withProgressLine(
      cli,
      'plan',
      (p) => (p.projectId === projectId ? `${planning} ${percent(p.rowsPlanned, p.rowsTotal)}%` : null),
      async () => {
        await cancelOnSignal(
          () => cli.call('job.cancel', { projectId, kind: 'plan' }),
          () => cli.call('mapping.save', { projectId, mapping, strategies: choices.strategies }),
        ).catch(sayOnCancel(() => 'Cancelled while planning the queries: nothing was sent.'));
        return cli.call('run.preview', { projectId, offline: choices.offline });
      },
      planning,
    );
    describeMapping(detail.headers, mapping);
    if (preview.rows > 0 && preview.rowsWithoutQuery === preview.rows) {
      // Columns are mapped but no cell of them gives anything to ask with (not one e-mail that reads as one, ...).
      throw CliError.usage(`None of the ${preview.rows} rows has anything to look up with this mapping. ${mapHint(detail.headers)}`);
    }
    process.stderr.write(formatPreview(preview));
    if (!choices.yes && preview.toFetch > 0 && !choices.offline && !(await confirm(`Send ${preview.calls} call(s) to the service?`))) {
      process.stderr.write(`Nothing sent. The project is kept as number ${projectId}.\n`);
      return null;
    }
    const signalsOff = abortOnSignal(choices.stop);
    const reporter = new ProgressReporter();
    try {
      const start = async () => {
        // A run stopped part-way goes on under the options it started with, so it ends as it would have uninterrupted.
        const stoppedPartWay = RESUMABLE.includes((await cli.call('run.status', { projectId }))?.status ?? 'done');
        if (stoppedPartWay && choices.fresh) await cli.call('job.cancel', { projectId, kind: 'run' });
        const resumed = stoppedPartWay && !choices.fresh ? await cli.call('run.resume', { projectId }) : null;
        if (resumed) {
          process.stderr.write(`${resumedLine(resumed, choices)}\n`);
          started = true;
          return resumed;
        }
        const first = await startRun(cli, projectId, choices);
        started = true;
        return first;
      };
      const final = await waitForRun(cli, start, (p) => reporter.update(p), choices.stop.signal);
      reporter.finish(final);
      return final;
    } finally {
      signalsOff();
    }
  } catch (err) {
    if (imported && !started) {
      await cli.call('projects.delete', { projectId }).catch(() => undefined);
      if (err instanceof CliError) throw new CliError(`${err.message}\nThe project imported for this run was removed again.`, err.exitCode);
    }
    throw err;
  }
}

/**
 * A sheet just imported, with --yes: the run starts as soon as the plan's first page is written and follows the plan
 * (runs/plan-frontier.ts), so calls go out while the rest is planned. The preview's figures, as they stood before
 * the run, are printed once the plan is whole; `started` is called once they show something to ask. Ctrl-C pauses
 * the run and cancels the plan: what landed is kept, and `--project N` goes on.
 */
async function planAndRun(cli: CliSession, detail: ProjectDetail, mapping: Mapping, choices: RunChoices, started: () => void): Promise<RunProgress> {
  const projectId = detail.summary.id;
  process.stderr.write(`Planning the queries of ${detail.summary.rowCount} rows; matching starts with the first rows planned.\n`);
  const cancelPlan = () => void cli.call('job.cancel', { projectId, kind: 'plan' }).catch(() => undefined);
  let planGoing = () => undefined as void;
  const going = new Promise<void>((resolve) => (planGoing = resolve));
  const off = cli.engine.on('job.progress', (job) => {
    if (job.kind === 'plan' && job.projectId === projectId) planGoing();
  });
  const saving = cli.call('mapping.save', { projectId, mapping, strategies: choices.strategies });
  const signalsOff = abortOnSignal(choices.stop);
  choices.stop.signal.addEventListener('abort', cancelPlan, { once: true });
  try {
    await Promise.race([going, saving]);
    off();
    // Once the plan is whole: what the run was to do, and whether the sheet gives anything to ask at all.
    let nothingToAsk = false;
    const previewed = saving.then(async () => {
      const preview = await cli.call('run.preview', { projectId, offline: false, beforeFirstRun: true });
      if (process.stderr.isTTY) process.stderr.write('\r\x1b[K');
      describeMapping(detail.headers, mapping);
      process.stderr.write(formatPreview(preview));
      nothingToAsk = preview.rows > 0 && preview.rowsWithoutQuery === preview.rows;
      if (!nothingToAsk) started();
    });
    // Its failure is read once the run has ended.
    previewed.catch(() => undefined);
    const reporter = new ProgressReporter();
    const start = () => startRun(cli, projectId, choices);
    const final = await waitForRun(cli, start, (p) => reporter.update(p), choices.stop.signal);
    reporter.finish(final);
    try {
      await previewed;
    } catch (err) {
      // The plan cancelled (Ctrl-C) stopped the run too: what landed is kept.
      if (final.status === 'paused' || final.status === 'cancelled') {
        started();
        return final;
      }
      throw err;
    }
    if (nothingToAsk) throw CliError.usage(`None of the ${detail.summary.rowCount} rows has anything to look up with this mapping. ${mapHint(detail.headers)}`);
    return final;
  } finally {
    off();
    signalsOff();
    choices.stop.signal.removeEventListener('abort', cancelPlan);
  }
}

/** Starts a new run of the project with this command's options. */
function startRun(cli: CliSession, projectId: number, choices: RunChoices): Promise<RunProgress> {
  return cli.call('run.start', {
    projectId,
    offline: choices.offline,
    autoAccept: choices.autoAccept,
    ...(choices.concurrency ? { concurrency: choices.concurrency } : {}),
    ...(choices.minConfidence !== undefined ? { minConfidence: choices.minConfidence } : {}),
  });
}

async function importSheet(cli: CliSession, path: string, sheet: string | undefined): Promise<ProjectDetail> {
  const detail = await importWithProgress(cli, { file: path, ...(sheet ? { sheet } : {}) });
  const blank = detail.summary.blankRows > 0 ? ` (and ${detail.summary.blankRows} blank ${detail.summary.blankRows === 1 ? 'row' : 'rows'}, kept in place)` : '';
  process.stderr.write(`Imported ${detail.summary.rowCount} rows${blank} into project ${detail.summary.id} (${detail.summary.name}).\n`);
  for (const warning of detail.warnings) process.stderr.write(`  note: ${warning.message}\n`);
  return detail;
}

function parseStrategies(value: string | undefined): Strategy[] | undefined {
  if (value === undefined) return undefined;
  const list = value.split(',').map((s) => s.trim()).filter(Boolean);
  for (const s of list) {
    if (!(STRATEGIES as readonly string[]).includes(s)) {
      throw CliError.usage(`Unknown strategy "${s}". Use any of: ${STRATEGIES.join(', ')}.`);
    }
  }
  if (list.length === 0) throw CliError.usage('--strategy needs at least one strategy.');
  return list as Strategy[];
}

/** Rethrows a step's failure, a cancel (Ctrl-C) in the words `say` makes of the engine's reason. */
function sayOnCancel(say: (reason: string) => string): (err: unknown) => never {
  return (err) => {
    if (err instanceof CliError && err.exitCode === EXIT_CODES.interrupted) throw new CliError(say(err.message), err.exitCode);
    throw err;
  };
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

function describeMapping(headers: string[], mapping: Mapping): void {
  const parts = MAPPED_FIELDS.filter((f) => mapping[f] !== undefined).map((f) => `${f} <- "${headers[mapping[f]!]}"`);
  process.stderr.write(`Mapping: ${parts.length ? parts.join(', ') : 'nothing mapped'}\n`);
}
