import { resolve } from 'node:path';
import { isoDay } from '../../../shared/contract';
import { lookupShortfall } from '../../../shared/lookup-needs';
import { exportFormat, parseCommandArgs, positiveInt } from '../args';
import { CliError } from '../cli-error';
import { openCliSession } from '../connect';
import { exportWithProgress } from '../export-with-progress';
import { importWithProgress } from '../import-with-progress';
import { toReviewNote } from '../review-note';
import { dataFileBytes, givenBackLine } from '../given-back';
import { mapHint } from '../map-overrides';
import { confirm } from '../prompt';
import { printCounts } from './run-wait';

export async function importCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseCommandArgs(argv, { sheet: { type: 'string' }, name: { type: 'string' } }, 1);
  if (!positionals[0]) throw CliError.usage('Name the sheet to import: matchdesk import <input.csv|xlsx>.');
  const cli = await openCliSession();
  try {
    const detail = await importWithProgress(cli, {
      file: resolve(positionals[0]),
      ...(values.sheet ? { sheet: values.sheet } : {}),
      ...(values.name ? { name: values.name } : {}),
    });
    const shortfall = lookupShortfall(detail.mapping, detail.strategies);
    if (shortfall) {
      // A project nobody can run is no import: it goes again, and the command says how to map the sheet instead.
      await cli.call('projects.delete', { projectId: detail.summary.id });
      throw CliError.usage(`${shortfall} Nothing was imported. ${mapHint(detail.headers, `matchdesk match ${positionals[0]} `)}`);
    }
    process.stdout.write(`Project ${detail.summary.id}: ${detail.summary.name}, ${detail.summary.rowCount} rows\n`);
    for (const warning of detail.warnings) process.stdout.write(`  note: ${warning.message}\n`);
    for (const guess of detail.guesses) {
      process.stdout.write(`  ${guess.field.padEnd(9)} <- "${detail.headers[guess.column]}" (${guess.reason})\n`);
    }
    return 0;
  } finally {
    await cli.close();
  }
}

export async function exportCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseCommandArgs(
    argv,
    {
      out: { type: 'string' },
      candidates: { type: 'string' },
      'matched-only': { type: 'boolean' },
      'changes-only': { type: 'boolean' },
      'changes-since': { type: 'string' },
      'no-bom': { type: 'boolean' },
    },
    1,
  );
  const projectId = positiveInt(positionals[0], 'The project id');
  if (!projectId) throw CliError.usage('Name the project: matchdesk export <project-id> --out <file>.');
  if (!values.out) throw CliError.usage('Say where to write with --out <file.csv|xlsx>.');
  const since = values['changes-since'];
  if (since !== undefined) {
    if (values.candidates || values['matched-only'] || values['changes-only']) throw CliError.usage('--changes-since writes one row a change: it goes without --candidates, --matched-only and --changes-only.');
    if (!isoDay.safeParse(since).success) throw CliError.usage(`--changes-since takes a day as YYYY-MM-DD (e.g. 2026-01-01), not "${since}".`);
    return exportChanges(projectId, since, values.out, !values['no-bom']);
  }
  const cli = await openCliSession();
  try {
    // The rows that changed at the last refresh are matched rows: --changes-only narrows --matched-only further.
    const scope = values['changes-only'] ? 'changed' : values['matched-only'] ? 'matched' : 'all';
    const note = toReviewNote((await cli.call('review.page', { projectId, offset: 0, limit: 1 })).counts.to_review, scope);
    if (note) process.stderr.write(`${note}\n`);
    const result = await exportWithProgress(cli, {
      projectId,
      format: exportFormat(values.out),
      scope,
      candidates: Boolean(values.candidates),
      destination: resolve(values.out),
      ...(values.candidates ? { candidatesDestination: resolve(values.candidates) } : {}),
      bom: !values['no-bom'],
    });
    process.stdout.write(`Wrote ${result.rows} rows to ${result.path}\n`);
    if (values['changes-only'] && result.rows === 0) {
      const last = await cli.call('refresh.status', { projectId });
      process.stdout.write(last ? 'No row changed at the last refresh.\n' : `The project was never refreshed: run "matchdesk refresh --project ${projectId}" first.\n`);
    }
    await printCounts(cli, projectId);
    return 0;
  } finally {
    await cli.close();
  }
}

/** `export N --changes-since DAY`: one row a change (sheet columns, person, old and new job, dates) for a CRM. */
async function exportChanges(projectId: number, since: string, out: string, bom: boolean): Promise<number> {
  const cli = await openCliSession();
  try {
    const result = await cli.call('watch.exportChanges', { projectId, since, format: exportFormat(out), destination: resolve(out), bom });
    process.stdout.write(`Wrote ${result.rows} change${result.rows === 1 ? '' : 's'} since ${since} to ${result.path}\n`);
    if (result.rows === 0) {
      const last = await cli.call('refresh.status', { projectId });
      process.stdout.write(last ? `No matched person moved, left or changed title in the refreshes since ${since}.\n` : `The project was never refreshed: run "matchdesk refresh --project ${projectId}" first.\n`);
    }
    return 0;
  } finally {
    await cli.close();
  }
}

export async function projectsCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseCommandArgs(argv, { json: { type: 'boolean' }, yes: { type: 'boolean' } }, 2);
  const [action = 'list', id] = positionals;
  if (action === 'delete') return deleteProjectCommand(id, Boolean(values.yes));
  if (action !== 'list') throw CliError.usage(`Say "matchdesk projects" to list them, or "matchdesk projects delete <project-id>"; "${action}" is neither.`);
  const cli = await openCliSession();
  try {
    const projects = await cli.call('projects.list', {});
    if (values.json) {
      process.stdout.write(`${JSON.stringify(projects, null, 2)}\n`);
      return 0;
    }
    if (projects.length === 0) {
      process.stdout.write('No projects yet. Start one with "matchdesk import <file>" or "matchdesk match <file> --out <file>".\n');
      return 0;
    }
    const rows = projects.map((p) => [String(p.id), p.name, String(p.rowCount), String(p.matched), String(p.counts.to_review), p.updatedAt]);
    const head = ['id', 'name', 'rows', 'matched', 'to review', 'updated'];
    const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
    const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join('  ').trimEnd();
    process.stdout.write([line(head), ...rows.map(line)].join('\n') + '\n');
    return 0;
  } finally {
    await cli.close();
  }
}

/**
 * Deletes a project, after asking on a terminal (--yes for scripts): its rows, plan, decisions and runs go with it;
 * the cached answers stay, so a sheet matched again is answered from them. Files exported from it stay too.
 */
async function deleteProjectCommand(id: string | undefined, yes: boolean): Promise<number> {
  const projectId = positiveInt(id, 'The project id');
  if (!projectId) throw CliError.usage('Name the project: matchdesk projects delete <project-id> (its number from "matchdesk projects").');
  if (!yes && !process.stdin.isTTY) throw CliError.usage('Not on a terminal, so nothing can be confirmed: add --yes to delete the project.');
  const cli = await openCliSession();
  try {
    const { summary } = await cli.call('projects.get', { projectId });
    const what = `project ${summary.id} (${summary.name}, ${summary.rowCount} rows, ${summary.matched} matched)`;
    if (!yes && !(await confirm(`Delete ${what} with its decisions? Cached answers and exported files stay.`))) {
      process.stderr.write('Nothing deleted.\n');
      return 0;
    }
    const before = dataFileBytes(cli.engine.dbPath);
    await cli.call('projects.delete', { projectId });
    process.stdout.write(`Deleted ${what}.\n`);
    const givenBack = givenBackLine(before, dataFileBytes(cli.engine.dbPath));
    if (givenBack) process.stdout.write(`${givenBack}\n`);
    return 0;
  } finally {
    await cli.close();
  }
}
