import { decisionsProgressParts, progressText } from '../../../shared/progress';
import { parseCommandArgs, positiveInt } from '../args';
import { cancelOnSignal } from '../cancel-on-signal';
import { CliError } from '../cli-error';
import { openCliSession } from '../connect';
import { readDecisionsFile } from '../decisions-file';
import { withProgressLine } from '../progress-line';
import { confirm } from '../prompt';
import { printCounts } from './run-wait';

/**
 * `matchdesk decide --project N --file decisions.csv [--learn-from M] [--yes]`: records the file's decisions as a
 * reviewer would, as one action undo reverts in the app, then learns from the project's decisions (on top of what
 * project M learned, when named), so `matchdesk accept` and `matchdesk export` afterwards reflect what was learned.
 * With --learn-from alone, nothing is recorded: the project only starts from M's learning.
 */
export async function decideCommand(argv: string[]): Promise<number> {
  const { values } = parseCommandArgs(argv, { project: { type: 'string' }, file: { type: 'string' }, 'learn-from': { type: 'string' }, yes: { type: 'boolean', short: 'y' } });
  const projectId = positiveInt(values.project, '--project');
  const learnFrom = positiveInt(values['learn-from'], '--learn-from');
  if (!projectId || (!values.file && !learnFrom)) {
    throw CliError.usage('Name the project and the file, or the project to learn from: matchdesk decide --project <id> (--file decisions.csv | --learn-from <id>).');
  }
  if (learnFrom === projectId) throw CliError.usage('--learn-from names another project than --project: a project cannot start from itself.');
  if (values.file && !values.yes && !process.stdin.isTTY) throw CliError.usage('Not on a terminal, so nothing can be confirmed: add --yes to record the decisions.');
  const entries = values.file ? await readDecisionsFile(values.file) : null;

  const cli = await openCliSession();
  try {
    if (entries) {
      const chosen = entries.filter((e) => e.personId !== null).length;
      const summary = `${entries.length} decision(s): ${chosen} person(s) chosen, ${entries.length - chosen} row(s) where none fits`;
      if (!values.yes && !(await confirm(`Record ${summary}?`))) {
        process.stderr.write('Nothing changed.\n');
        return 1;
      }
      const recorded = await cli.call('decisions.record', { projectId, entries });
      process.stderr.write(`Recorded ${summary}; ${recorded.changed} row(s) changed (one action: undo it in the review screen).\n`);
    }
    const learned = await withProgressLine(
      cli,
      'learn',
      (progress) => (progress.projectId === projectId && progress.action === 'learn' ? progressText(decisionsProgressParts('learn', progress)) : null),
      () =>
        cancelOnSignal(
          () => cli.call('job.cancel', { projectId, kind: 'learn' }),
          () => cli.call('learning.learn', { projectId, startFromProjectId: learnFrom }),
        ),
    );
    if (learned.note) process.stderr.write(`${learned.note}\n`);
    for (const sentence of learned.sentences) process.stderr.write(`  ${sentence}\n`);
    for (const change of learned.changes) process.stderr.write(`${change.sentence} To accept them: matchdesk accept --project ${projectId} --min-confidence ${Math.floor(change.confidence * 100) / 100}\n`);
    await printCounts(cli, projectId);
    return 0;
  } finally {
    await cli.close();
  }
}
