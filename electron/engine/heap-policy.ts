import { setFlagsFromString } from 'node:v8';

/**
 * How far V8 lets the old generation grow past what the last full collection left alive: 1.5x. V8's own factor
 * adapts between 1.1x and 4x and starts from a first limit of over 100 MB, so a long step piled up garbage that
 * the process never gave back. The engine keeps little alive between pages (a full GC after a 100k-row cached
 * re-run left 28 MB of 122 MB), and its steps promote a lot (pages of rows outlive the young generation). Measured
 * with `bench/profile-step.ts --rows 100000 run` (3 runs each, load ~4): peak RSS 259-268 MB -> 184-188 MB, CPU
 * 6.9-8.3 s -> 7.5-8.0 s; at 100% the peak was 203 MB.
 */
const OLD_GENERATION_GROWTH = '--heap-growing-percent=50';

/**
 * Sets the V8 heap limits the engine is measured with, in whatever process hosts it (Electron's main process, the
 * CLI, the browser host, a test). V8 reads this flag again at every full collection, so it holds when set after
 * start-up. The young generation's cap (`--max-semi-space-size=8`) is read only at start-up: it is on the
 * processes' command lines instead (bin/matchdesk.mjs, package.json's scripts).
 */
export function applyHeapPolicy(): void {
  setFlagsFromString(OLD_GENERATION_GROWTH);
}
