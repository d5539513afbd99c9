import type { DetailedJobKind, JobDetails } from '../../shared/contract';
import { detailOf } from '../../shared/job-detail';
import type { CliSession } from './connect';

/**
 * Runs `work` while one line of a terminal (stderr) says how far it is: `first` at once, then what `say` makes of
 * the detail of each job of `kind` (null: about other work), and the line is cleared when the work ends. Output that
 * is not a terminal gets nothing more. Long steps a run waits on use it: planning and exports, which take a while for
 * a large sheet.
 */
export async function withProgressLine<K extends DetailedJobKind, T>(
  cli: CliSession,
  kind: K,
  say: (detail: JobDetails[K]) => string | null,
  work: () => Promise<T>,
  first = '',
): Promise<T> {
  const terminal = process.stderr.isTTY;
  if (terminal && first) process.stderr.write(first);
  const off = cli.engine.on('job.progress', (job) => {
    const detail = terminal ? detailOf(job, kind) : null;
    const line = detail !== null ? say(detail) : null;
    if (line !== null) process.stderr.write(`\r${line}\x1b[K`);
  });
  try {
    return await work();
  } finally {
    off();
    if (terminal) process.stderr.write('\r\x1b[K');
  }
}
