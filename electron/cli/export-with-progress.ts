import type { CallInput, ExportResult } from '../../shared/contract';
import { exportProgressText } from '../../shared/progress';
import { cancelOnSignal } from './cancel-on-signal';
import type { CliSession } from './connect';
import { withProgressLine } from './progress-line';

/**
 * Runs an export, saying on a terminal how far it is ("Writing the rows… 41%": a large project takes a while, to Excel
 * longer); Ctrl-C cancels it, leaving the files there as they were.
 */
export function exportWithProgress(cli: CliSession, input: CallInput<'export.run'>): Promise<ExportResult> {
  return withProgressLine(
    cli,
    'export',
    (progress) => (progress.projectId === input.projectId ? exportProgressText(progress) : null),
    () => cancelOnSignal(() => cli.call('job.cancel', { projectId: input.projectId, kind: 'export' }), () => cli.call('export.run', input)),
  );
}
