import type { AcceptPreview } from '../../../shared/contract';
import { decisionsProgressParts, progressText } from '../../../shared/progress';
import { confidenceThreshold, parseCommandArgs, positiveInt } from '../args';
import { cancelOnSignal } from '../cancel-on-signal';
import { CliError } from '../cli-error';
import { openCliSession, type CliSession } from '../connect';
import { withProgressLine } from '../progress-line';
import { confirm } from '../prompt';
import { printCounts } from './run-wait';

/** `matchdesk accept --project N [--min-confidence X] [--yes]`: the counts per threshold, then one undoable bulk accept. */
export async function acceptCommand(argv: string[]): Promise<number> {
  const { values } = parseCommandArgs(argv, { project: { type: 'string' }, 'min-confidence': { type: 'string' }, yes: { type: 'boolean', short: 'y' } });
  const projectId = positiveInt(values.project, '--project');
  if (!projectId) throw CliError.usage('Name the project: matchdesk accept --project <id> [--min-confidence 0.9].');
  const asked = confidenceThreshold(values['min-confidence'], '--min-confidence');
  if (!values.yes && !process.stdin.isTTY) throw CliError.usage('Not on a terminal, so nothing can be confirmed: add --yes to accept.');

  const cli = await openCliSession();
  try {
    const preview = await cli.call('decisions.acceptPreview', { projectId });
    const threshold = asked ?? preview.setting;
    process.stderr.write(thresholdTable(preview, threshold));
    const rows = preview.thresholds.find((t) => t.minConfidence === threshold)?.rows ?? null;
    if (rows === 0) {
      process.stderr.write(`No row waiting for review is at or above ${threshold}; nothing changed.\n`);
      return 0;
    }
    if (!values.yes && !(await confirm(`Accept ${rows ?? 'the'} row(s) at or above ${threshold}?`))) {
      process.stderr.write('Nothing changed.\n');
      return 1;
    }
    // Long for a large queue: a terminal is told how far it is, and Ctrl-C takes back what it accepted so far.
    const result = await withProgressLine(
      cli,
      'accept',
      (progress) => (progress.projectId === projectId && progress.action === 'accept' ? progressText(decisionsProgressParts('accept', progress)) : null),
      () =>
        cancelOnSignal(
          () => cli.call('job.cancel', { projectId, kind: 'accept' }),
          () => cli.call('decisions.acceptAtOrAbove', { projectId, minConfidence: threshold }),
        ),
    );
    process.stderr.write(`Accepted ${result.changed} row(s) at or above ${threshold} (one action: undo it in the review screen).\n`);
    await printCounts(cli, projectId);
    return 0;
  } finally {
    await cli.close();
  }
}

/** After a run: how many more rows each lower threshold would accept, and the command that does it. */
export async function printThresholds(cli: CliSession, projectId: number): Promise<void> {
  const preview = await cli.call('decisions.acceptPreview', { projectId });
  if (preview.guarded === 0 && preview.thresholds.every((t) => t.rows === 0)) return;
  process.stderr.write(thresholdTable(preview, null));
  if (preview.thresholds.some((t) => t.rows > 0)) process.stderr.write(`To accept at a threshold: matchdesk accept --project ${projectId} --min-confidence X\n`);
}

function thresholdTable(preview: AcceptPreview, chosen: number | null): string {
  const guarded = preview.guarded > 0 ? `  ${preview.guarded} row(s) stay for review at any threshold: a person must look at them (namesakes, near names, no company, conflicting names).\n` : '';
  if (preview.thresholds.every((t) => t.rows === 0)) return `No row waiting for review would be accepted at any threshold.\n${guarded}`;
  const lines = preview.thresholds.map(({ minConfidence, rows }) => {
    const mark = minConfidence === chosen ? ' <-' : minConfidence === preview.setting ? ' (setting)' : '';
    return `  at or above ${minConfidence.toFixed(2)}: ${String(rows).padStart(7)} row(s)${mark}`;
  });
  return `Rows waiting for review that a threshold would accept (each also leads its runner-up by ${preview.minLead}):\n${lines.join('\n')}\n${guarded}`;
}
