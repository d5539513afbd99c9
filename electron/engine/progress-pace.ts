/** How often long work tells its progress (an export, a plan, the review's text index): four times a second. */
export const PROGRESS_INTERVAL_MS = 250;

/**
 * Whether to tell a long task's progress now: at once when its `phase` changes (the first time too), otherwise at most
 * every `intervalMs`. Events stay few whatever the pace of the work, and a new phase is never held back.
 */
export function progressPace(intervalMs = PROGRESS_INTERVAL_MS): (phase?: string) => boolean {
  let lastPhase: string | undefined | null = null;
  let lastAt = 0;
  return (phase) => {
    const now = performance.now();
    if (phase === lastPhase && now - lastAt < intervalMs) return false;
    lastPhase = phase;
    lastAt = now;
    return true;
  };
}
