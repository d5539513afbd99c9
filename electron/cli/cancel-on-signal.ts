/**
 * Runs `work` (one long call: an import, an export, an accept of confident rows) so that Ctrl-C or SIGTERM meanwhile
 * asks the engine to `cancel` it rather than killing the process: the call then undoes what it began (no half-made
 * project, no part file, no row accepted) and fails as `cancelled`, which the command reports with exit code 130. A
 * second Ctrl-C ends the process at once.
 */
export async function cancelOnSignal<T>(cancel: () => Promise<unknown>, work: () => Promise<T>): Promise<T> {
  const off = onStopSignal(() => {
    if (process.stderr.isTTY) process.stderr.write('\r\x1b[KCancelling...');
    void cancel().catch(() => undefined);
  });
  try {
    return await work();
  } finally {
    off();
  }
}

/** Ctrl-C or SIGTERM aborts `stop` (a run or a refresh then pauses, keeping what landed); call what is returned when done. */
export function abortOnSignal(stop: AbortController): () => void {
  return onStopSignal(() => stop.abort());
}

/** Calls `handler` at the first Ctrl-C or SIGTERM, which then no longer end the process; what is returned takes it off. */
function onStopSignal(handler: () => void): () => void {
  process.once('SIGINT', handler);
  process.once('SIGTERM', handler);
  return () => {
    process.off('SIGINT', handler);
    process.off('SIGTERM', handler);
  };
}
