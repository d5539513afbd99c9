import { readFile } from 'node:fs/promises';
import { abortOnSignal } from '../cancel-on-signal';
import { resolve } from 'node:path';
import type { ColumnValues, SearchProgress, SearchStatus } from '../../../shared/contract';
import type { SearchFilter } from '../../../shared/search-filters';
import { SEARCH_TEMPLATE_IDS, searchTemplate, templateProblems, type TemplateValues } from '../../../shared/search-templates';
import { exportFormat, parseCommandArgs, positiveInt } from '../args';
import { CliError } from '../cli-error';
import { EXIT_CODES } from '../exit-codes';
import { checkConnection, openCliSession, selectProfile, type CliSession } from '../connect';
import { formatDuration } from '../progress';
import { confirm } from '../prompt';
import { waitForJob } from '../wait-for-job';

const FINAL: SearchStatus[] = ['done', 'cancelled', 'failed', 'out_of_credits'];

export async function searchCommand(argv: string[]): Promise<number> {
  const { values } = parseCommandArgs(argv, {
    filters: { type: 'string' },
    template: { type: 'string' },
    'companies-from': { type: 'string' },
    companies: { type: 'string' },
    functions: { type: 'string' },
    titles: { type: 'string' },
    since: { type: 'string' },
    sheet: { type: 'string' },
    resume: { type: 'string' },
    name: { type: 'string' },
    out: { type: 'string' },
    'values-per-call': { type: 'string' },
    refresh: { type: 'boolean' },
    offline: { type: 'boolean' },
    profile: { type: 'string' },
    'no-bom': { type: 'boolean' },
    yes: { type: 'boolean', short: 'y' },
  });
  const sources = [values.filters, values.template, values.resume].filter((v) => v !== undefined).length;
  if (sources !== 1) throw CliError.usage('Say what to search for with exactly one of --filters <file.json>, --template <id> or --resume <search-id>.');
  if (!values.out) throw CliError.usage('Say where to write the people found with --out <file.csv|xlsx>.');
  const format = exportFormat(values.out);
  const valuesPerCall = positiveInt(values['values-per-call'], '--values-per-call');
  const resumeId = positiveInt(values.resume, '--resume');
  const offline = values.offline ?? false;
  if (offline && values.refresh) throw CliError.usage('--offline answers from stored results, --refresh asks the service again: choose one.');
  if (!values.yes && !offline && !process.stdin.isTTY) {
    throw CliError.usage('Not on a terminal, so nothing can be confirmed: add --yes to send the search.');
  }
  const fromFile = values.filters ? await readFiltersFile(resolve(values.filters)) : null;

  const cli = await openCliSession();
  const stop = new AbortController();
  try {
    // Offline needs no connection, but a selected one narrows the stored answer to its service.
    const profile = await selectProfile(cli, values.profile).catch((err: unknown) => {
      if (!offline || values.profile) throw err;
      return null;
    });
    if (profile && !offline) await checkConnection(cli, profile);
    let filters: SearchFilter[] | null = fromFile;
    let name = values.name;
    if (values.template) {
      const built = await buildFromTemplate(cli, values.template, values);
      filters = built.filters;
      name ??= built.name;
    }
    if (filters) {
      process.stderr.write(`Filters:\n${filters.map((f) => `  ${describeFilter(f)}`).join('\n')}\n`);
      if (!values.yes && !offline && !(await confirm('Send this search to the service? (an identical recent one is answered from the cache)'))) {
        process.stderr.write('Nothing sent.\n');
        return EXIT_CODES.failed;
      }
    }

    const signalsOff = abortOnSignal(stop);
    const reporter = new SearchReporter();
    let final: SearchProgress;
    try {
      final = await waitForSearch(
        cli,
        () =>
          resumeId !== undefined
            ? cli.call('search.resume', { searchId: resumeId })
            : cli.call('search.run', {
                filters: filters!,
                ...(name ? { name } : {}),
                refresh: values.refresh ?? false,
                offline,
                ...(valuesPerCall ? { valuesPerCall } : {}),
              }),
        (p) => reporter.update(p),
        stop.signal,
      );
    } finally {
      signalsOff();
    }
    reporter.finish(final);
    if (final.fromCache) {
      process.stderr.write(
        final.offline ? 'Answered offline from stored results: nothing was sent.\n' : 'Answered from the cache (an identical search within the cache TTL): nothing was sent.\n',
      );
    }

    if (final.status === 'failed' || final.status === 'out_of_credits') {
      // A search that stopped part-way is no result to hand a script: the file there stays as it was.
      process.stderr.write(`matchdesk search: ${(final.message ?? 'The search did not finish.').replace(/\s+/g, ' ').trim()}\n`);
      process.stderr.write(`Every page that arrived is kept and ${values.out} was not written. Resume it later with "matchdesk search --resume ${final.searchId} --out ${values.out} --yes".\n`);
      return EXIT_CODES.serviceFailed;
    }
    const exported = await cli.call('search.export', { searchId: final.searchId, format, destination: resolve(values.out), bom: !values['no-bom'] });
    process.stderr.write(`Wrote ${exported.rows} people to ${exported.path} (search ${final.searchId}).\n`);
    if (final.status === 'cancelled') {
      process.stderr.write(
        `Stopped. Every page that arrived is kept (and exported); run "matchdesk search --resume ${final.searchId} --out ${values.out} --yes" to go on.\n`,
      );
      return EXIT_CODES.interrupted;
    }
    return EXIT_CODES.ok;
  } finally {
    await cli.close();
  }
}

async function readFiltersFile(path: string): Promise<SearchFilter[]> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    throw new CliError(`Cannot read the filters file ${path}: ${(err as NodeJS.ErrnoException).code === 'ENOENT' ? 'it does not exist' : (err as Error).message}.`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (err) {
    throw new CliError(`The filters file ${path} is not valid JSON (${(err as Error).message}).`, EXIT_CODES.usage);
  }
  // The request body as sent to the service, or just its filters array.
  const filters = Array.isArray(json) ? json : typeof json === 'object' && json !== null ? (json as { filters?: unknown }).filters : undefined;
  if (!Array.isArray(filters)) throw new CliError(`The filters file ${path} must hold an array of filters, or an object with a "filters" array.`, EXIT_CODES.usage);
  return filters as SearchFilter[];
}

type TemplateArgs = { 'companies-from'?: string; companies?: string; functions?: string; titles?: string; since?: string; sheet?: string };

async function buildFromTemplate(cli: CliSession, id: string, args: TemplateArgs): Promise<{ filters: SearchFilter[]; name: string }> {
  const template = searchTemplate(id);
  if (!template) throw CliError.usage(`Unknown template "${id}". Templates: ${SEARCH_TEMPLATE_IDS.join(', ')}.`);
  const given: TemplateValues = {};
  for (const param of template.params) {
    if (param.kind === 'date') {
      const value = param.key === 'since' ? args.since : undefined;
      if (value !== undefined) given[param.key] = value;
      continue;
    }
    const fromSheet = param.key === 'companies' ? args['companies-from'] : undefined;
    const listed = (args as Record<string, string | undefined>)[param.key];
    if (fromSheet && listed) throw CliError.usage(`Give the ${param.key} with --${param.key}-from or with --${param.key}, not both.`);
    if (fromSheet) given[param.key] = (await valuesFromSheet(cli, fromSheet, args.sheet, param.field, param.key)).values;
    else if (listed) given[param.key] = listed.split(',').map((v) => v.trim()).filter(Boolean);
  }
  const problems = templateProblems(template, given);
  if (problems.length > 0) {
    const flags = template.params.map((p) => (p.kind === 'date' ? `--${p.key} YYYY-MM-DD` : `--${p.key} A,B${p.key === 'companies' ? ' (or --companies-from <sheet>:<column>)' : ''}`));
    throw CliError.usage(`${problems.join(' ')}\nThe "${id}" template takes ${flags.join(' and ')}.`);
  }
  return template.build(given);
}

/** `<sheet>:<column>`: the column is a header or a 1-based column number; the sheet may itself hold colons (C:\...). */
async function valuesFromSheet(cli: CliSession, spec: string, worksheet: string | undefined, field: string, what: string): Promise<ColumnValues> {
  const at = spec.lastIndexOf(':');
  if (at <= 0 || at === spec.length - 1) throw CliError.usage(`--${what}-from takes <sheet>:<column>, e.g. companies.xlsx:Company or companies.csv:2.`);
  const file = resolve(spec.slice(0, at));
  const column = spec.slice(at + 1).trim();
  const base = { file, field, ...(worksheet ? { sheet: worksheet } : {}) };
  let result: ColumnValues;
  try {
    result = await cli.call('search.columnValues', { ...base, column });
  } catch (err) {
    // Not a header: a number names the column by position.
    if (!(err instanceof CliError) || !/^\d+$/.test(column) || Number(column) < 1) throw err;
    result = await cli.call('search.columnValues', { ...base, column: Number(column) - 1 });
  }
  process.stderr.write(
    `${capitalize(what)}: ${result.values.length} distinct from column "${result.header}" of ${spec.slice(0, at)} ` +
      `(${result.cells} filled cells, ${result.duplicates} repeated).\n`,
  );
  for (const p of result.problems.slice(0, 5)) process.stderr.write(`  skipped: ${p.message}\n`);
  if (result.problems.length > 5) process.stderr.write(`  ... and ${result.problems.length - 5} more skipped.\n`);
  return result;
}

/**
 * Starts (or resumes) a search and resolves with its final progress. On `stop` (Ctrl-C) the search is cancelled:
 * pages in flight land and are kept, and it resolves with the cancelled state.
 */
function waitForSearch(
  cli: CliSession,
  start: () => Promise<SearchProgress>,
  onProgress: (p: SearchProgress) => void,
  stop: AbortSignal,
): Promise<SearchProgress> {
  return waitForJob(
    cli,
    {
      kind: 'search',
      idOf: (p) => p.searchId,
      isFinal: (p) => FINAL.includes(p.status),
      start,
      status: (searchId) => cli.call('search.status', { searchId }),
      stop: (searchId) => cli.call('job.cancel', { kind: 'search', searchId }),
    },
    onProgress,
    stop,
  );
}

/** A line redrawn in place on a terminal; plain lines at most every few seconds otherwise (like `match`). */
class SearchReporter {
  private lastPlain = 0;
  private lastLine = '';
  private readonly started = Date.now();

  constructor(
    private readonly out: NodeJS.WriteStream = process.stderr,
    private readonly plainEveryMs = 2_000,
  ) {}

  update(p: SearchProgress): void {
    if (this.out.isTTY) {
      this.out.write(`\r${this.line(p)}\x1b[K`);
      return;
    }
    const now = Date.now();
    if (now - this.lastPlain >= this.plainEveryMs) {
      this.lastPlain = now;
      this.lastLine = this.line(p);
      this.out.write(`${this.lastLine}\n`);
    }
  }

  finish(p: SearchProgress): void {
    if (this.out.isTTY) this.out.write('\r\x1b[K');
    const line = this.line(p);
    // Off a terminal the final state may already be the last line written.
    if (this.out.isTTY || line !== this.lastLine) this.out.write(`${line}\n`);
  }

  private line(p: SearchProgress): string {
    const count = p.serviceCount !== null ? ` (service total ${p.partsTotal > 1 ? 'at most ' : ''}${p.serviceCount})` : '';
    const parts = p.partsTotal > 1 ? `, ${p.partsDone}/${p.partsTotal} parts done` : '';
    const elapsed = p.status === 'running' ? `, ${formatDuration((Date.now() - this.started) / 1000)}` : '';
    return `${p.status}: ${p.people} people${count}, ${plural(p.pages, 'page')}, ${plural(p.calls, 'call')}${parts}${elapsed}`;
  }
}

function describeFilter(f: SearchFilter): string {
  const what =
    f.match_type === 'exists'
      ? 'exists'
      : f.date_from !== undefined || f.date_to !== undefined
        ? [f.date_from ? `from ${f.date_from}` : '', f.date_to ? `to ${f.date_to}` : ''].filter(Boolean).join(' ')
        : `${f.match_type} any of ${(f.string_values ?? []).length} value(s): ${(f.string_values ?? []).slice(0, 3).join(', ')}${(f.string_values ?? []).length > 3 ? ', ...' : ''}`;
  return `${f.type} ${f.field} ${what}${f.job_group !== undefined ? ` (same job ${f.job_group})` : ''}`;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

function capitalize(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}
