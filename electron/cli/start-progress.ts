import type { StartupProgress } from '../../shared/contract';

/**
 * Says on stderr how far bringing a data folder an older version made up to this version is, as the engine starts:
 * one line kept up to date on a terminal, else a line at each tenth and at the end (a script's log stays short).
 */
export function startProgressLine(stream: NodeJS.WriteStream = process.stderr): { show(progress: StartupProgress): void; end(): void } {
  const terminal = stream.isTTY === true;
  let shown = -1;
  let drawn = false;
  return {
    show({ phase, done, total }) {
      if (total === 0) return;
      const percent = Math.floor((done / total) * 100);
      const line =
        phase === 'finishing'
          ? 'Updating the data folder to this version: finishing'
          : `Updating the data folder to this version: ${percent}% (${done.toLocaleString('en-US')} of ${total.toLocaleString('en-US')} rows and answers)`;
      if (terminal) {
        stream.write(`\r${line}\x1b[K`);
        drawn = true;
      } else if (Math.floor(percent / 10) > shown || phase === 'finishing') {
        shown = Math.floor(percent / 10);
        stream.write(`${line}\n`);
      }
    },
    end() {
      if (drawn) stream.write('\r\x1b[K');
    },
  };
}
