import type { CallInput, ExportResult } from '../../shared/contract';
import { exportProgressText } from '../../shared/progress';
import type { CliSession } from './connect';

/**
 * Runs an export, saying on a terminal how far it is ("Writing the rows… 41%": a million rows take ~10 s to CSV and
 * ~40 s to Excel), and clearing the line when it is done. Output that is not a terminal gets nothing more.
 */
export async function exportWithProgress(cli: CliSession, input: CallInput<'export.run'>): Promise<ExportResult> {
  const terminal = process.stderr.isTTY;
  const off = cli.engine.on('export.progress', (progress) => {
    if (terminal && progress.projectId === input.projectId) process.stderr.write(`\r${exportProgressText(progress)}\x1b[K`);
  });
  try {
    return await cli.call('export.run', input);
  } finally {
    off();
    if (terminal) process.stderr.write('\r\x1b[K');
  }
}
