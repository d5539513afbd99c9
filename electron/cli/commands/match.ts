import { resolve } from 'node:path';
import { MAPPED_FIELDS, STRATEGIES, type Mapping, type Strategy } from '../../../shared/model';
import { applyMapOverrides } from '../map-overrides';
import type { ProjectDetail, RunProgress } from '../../../shared/contract';
import { confidenceThreshold, exportFormat, parseCommandArgs, positiveInt } from '../args';
import { CliError } from '../cli-error';
import { openCliSession, selectProfile, type CliSession } from '../connect';
import { ProgressReporter, formatPreview } from '../progress';
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
      yes: { type: 'boolean', short: 'y' },
    },
    1,
  );
  const input = positionals[0];
  if (!input && !values.project) throw CliError.usage('Name the sheet to match: matchdesk match <input.csv|xlsx> --out <file>.');
  if (!values.out) throw CliError.usage('Say where to write the result with --out <file.csv|xlsx>.');
  const format = exportFormat(values.out);
  const strategies = parseStrategies(values.strategy);
  const concurrency = positiveInt(values.concurrency, '--concurrency');
  const minConfidence = confidenceThreshold(values['min-confidence'], '--min-confidence');
  if (!values.yes && !process.stdin.isTTY) {
    throw CliError.usage('Not on a terminal, so nothing can be confirmed: add --yes to send the calls.');
  }

  const cli = await openCliSession();
  const stopOnSignal = new AbortController();
  try {
    await selectProfile(cli, values.profile);
    const detail = values.project
      ? await cli.call('projects.get', { projectId: positiveInt(values.project, '--project')! })
      : await importSheet(cli, resolve(input!), values.sheet);
    const mapping = applyMapOverrides(detail, values.map ?? []);
    await cli.call('mapping.save', { projectId: detail.summary.id, mapping, strategies: strategies ?? detail.strategies });
    describeMapping(detail.headers, mapping);

    const offline = values.offline ?? false;
    const preview = await cli.call('run.preview', { projectId: detail.summary.id, offline });
    process.stderr.write(formatPreview(preview));
    if (!values.yes && preview.toFetch > 0 && !offline) {
      if (!(await confirm(`Send ${preview.calls} call(s) to the service?`))) {
        process.stderr.write(`Nothing sent. The project is kept as number ${detail.summary.id}.\n`);
        return 1;
      }
    }

    const onSignal = () => stopOnSignal.abort();
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
    const reporter = new ProgressReporter();
    const final: RunProgress = await waitForRun(
      cli,
      () =>
        cli.call('run.start', {
          projectId: detail.summary.id,
          offline,
          autoAccept: Boolean(values['auto-accept']),
          ...(concurrency ? { concurrency } : {}),
          ...(minConfidence !== undefined ? { minConfidence } : {}),
        }),
      (p) => reporter.update(p),
      stopOnSignal.signal,
    );
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    reporter.finish(final);
    if (final.status === 'paused' || final.status === 'cancelled') {
      process.stderr.write(
        `Stopped. Everything that landed is kept; run "matchdesk match --project ${detail.summary.id} --out ${values.out} --yes" to go on.\n`,
      );
      return 130;
    }
    const exported = await cli.call('export.run', {
      projectId: detail.summary.id,
      format,
      scope: values['matched-only'] ? 'matched' : 'all',
      candidates: Boolean(values.candidates),
      destination: resolve(values.out),
      ...(values.candidates ? { candidatesDestination: resolve(values.candidates) } : {}),
    });
    process.stderr.write(`Wrote ${exported.rows} rows to ${exported.path}\n`);
    await printCounts(cli, detail.summary.id);
    await printThresholds(cli, detail.summary.id);
    if (final.status === 'out_of_credits' || final.status === 'failed') {
      process.stderr.write(`${final.message ?? 'The run did not finish.'}\n`);
      return 3;
    }
    return 0;
  } finally {
    await cli.close();
  }
}

async function importSheet(cli: CliSession, path: string, sheet: string | undefined): Promise<ProjectDetail> {
  const unsubscribe = cli.engine.on('import.progress', (p) => {
    if (process.stderr.isTTY) process.stderr.write(`\rImporting: ${p.rowsRead} rows\x1b[K`);
  });
  try {
    const detail = await cli.call('projects.import', { file: path, ...(sheet ? { sheet } : {}) });
    if (process.stderr.isTTY) process.stderr.write('\r\x1b[K');
    process.stderr.write(`Imported ${detail.summary.rowCount} rows into project ${detail.summary.id} (${detail.summary.name}).\n`);
    for (const warning of detail.warnings) process.stderr.write(`  note: ${warning.message}\n`);
    return detail;
  } finally {
    unsubscribe();
  }
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

function describeMapping(headers: string[], mapping: Mapping): void {
  const parts = MAPPED_FIELDS.filter((f) => mapping[f] !== undefined).map((f) => `${f} <- "${headers[mapping[f]!]}"`);
  process.stderr.write(`Mapping: ${parts.length ? parts.join(', ') : 'nothing mapped'}\n`);
}
