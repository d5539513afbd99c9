import { setFlagsFromString } from 'node:v8';

/**
 * How far V8 lets the old generation grow past what the last full collection left alive: 1.5x. V8's own factor
 * adapts between 1.1x and 4x and starts from a first limit of over 100 MB, so a long step piled up garbage that
 * the process never gave back. The engine keeps little alive between pages (a full GC after a cached re-run leaves a
 * small part of the heap), and its steps promote a lot (pages of rows outlive the young generation). At 1.5x the peak
 * memory of a step drops by about a third for about the same CPU, and lower than at 2x (`bench/profile-step.ts`).
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
