import type { CallInput, ProjectDetail } from '../../shared/contract';
import { cancelOnSignal } from './cancel-on-signal';
import type { CliSession } from './connect';
import { withProgressLine } from './progress-line';

/**
 * Imports a sheet, saying on a terminal how far it is ("Importing: 412000 rows (41%)": a large Excel sheet takes a
 * while); Ctrl-C cancels it, keeping no project.
 */
export function importWithProgress(cli: CliSession, input: CallInput<'projects.import'>): Promise<ProjectDetail> {
  return withProgressLine(
    cli,
    'import',
    (progress) => (progress.file === input.file ? `Importing: ${progress.rowsRead} rows (${progress.percent}%)` : null),
    () => cancelOnSignal(() => cli.call('job.cancel', { kind: 'import', file: input.file }), () => cli.call('projects.import', input)),
  );
}
