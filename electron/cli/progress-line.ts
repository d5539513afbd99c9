import type { EventName, Events } from '../../shared/contract';
import type { CliSession } from './connect';

/**
 * Runs `work` while one line of a terminal (stderr) says how far it is: `first` at once, then what `say` makes of
 * each `event` (null: about other work), and the line is cleared when the work ends. Output that is not a terminal
 * gets nothing more. Long steps a run waits on use it: planning and exports, which take a while for a large sheet.
 */
export async function withProgressLine<E extends EventName, T>(
  cli: CliSession,
  event: E,
  say: (payload: Events[E]) => string | null,
  work: () => Promise<T>,
  first = '',
): Promise<T> {
  const terminal = process.stderr.isTTY;
  if (terminal && first) process.stderr.write(first);
  const off = cli.engine.on(event, (payload) => {
    const line = terminal ? say(payload) : null;
    if (line !== null) process.stderr.write(`\r${line}\x1b[K`);
  });
  try {
    return await work();
  } finally {
    off();
    if (terminal) process.stderr.write('\r\x1b[K');
  }
}
