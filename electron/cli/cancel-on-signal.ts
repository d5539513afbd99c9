/**
 * Runs `work` (one long call: an import, an export, an accept of confident rows) so that Ctrl-C or SIGTERM meanwhile
 * asks the engine to `cancel` it rather than killing the process: the call then undoes what it began (no half-made
 * project, no part file, no row accepted) and fails as `cancelled`, which the command reports with exit code 130. A
 * second Ctrl-C ends the process at once.
 */
export async function cancelOnSignal<T>(cancel: () => Promise<unknown>, work: () => Promise<T>): Promise<T> {
  const onSignal = () => {
    if (process.stderr.isTTY) process.stderr.write('\r\x1b[KCancelling...');
    void cancel().catch(() => undefined);
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    return await work();
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}
