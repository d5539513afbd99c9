/** Why a run (a matching run, a refresh) is asked to stop, and the words to show for it. */
export type StopReason = 'paused' | 'failed' | 'out_of_credits' | 'cancelled';
export interface StopRequest<S extends StopReason = StopReason> {
  status: S;
  message: string | null;
}

/** How long a pause lets calls in flight land before abandoning them: a reply that trickles in must not hold it. */
export const PAUSE_GRACE_MS = 1_000;

/** A stronger reason to stop wins: cancelling beats running out of credits beats a failure beats a pause. */
const STOP_WEIGHT: Record<StopReason, number> = { paused: 1, failed: 2, out_of_credits: 3, cancelled: 4 };

/** The stop that stands once `next` is asked for while `current` stands. */
export function strongerStop<S extends StopReason>(current: StopRequest<S> | null, next: StopRequest<S>): StopRequest<S> {
  return !current || STOP_WEIGHT[next.status] > STOP_WEIGHT[current.status] ? next : current;
}

/** Waits for a stopping run to settle, giving its calls in flight `graceMs` to land before they are abandoned. */
export async function settleWithin<T>(settled: Promise<T>, graceMs: number, abort: AbortController): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), graceMs)));
  const first = await Promise.race([settled, late]);
  clearTimeout(timer);
  if (first === 'late') abort.abort();
  return settled;
}
