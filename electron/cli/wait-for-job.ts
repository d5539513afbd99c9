import type { EventName, Events } from '../../shared/contract';
import type { CliSession } from './connect';

/** A long job of the engine (a matching run, a search) as the CLI follows it: its events, its id, how it stops. */
export interface JobWatch<E extends EventName> {
  event: E;
  idOf(progress: Events[E]): number;
  isFinal(progress: Events[E]): boolean;
  start(): Promise<Events[E]>;
  status(id: number): Promise<Events[E] | null>;
  /** What Ctrl-C does: pause or cancel, so what is in flight lands and is kept. */
  stop(id: number): Promise<unknown>;
}

/**
 * Starts a job and resolves with its final progress, reporting each event on the way. When `stop` aborts, the
 * job is asked to stop and the promise resolves with the state it stopped in.
 */
export async function waitForJob<E extends EventName>(
  cli: CliSession,
  watch: JobWatch<E>,
  onProgress: (progress: Events[E]) => void,
  stop: AbortSignal,
): Promise<Events[E]> {
  let id: number | null = null;
  let settle: (p: Events[E]) => void = () => {};
  const finished = new Promise<Events[E]>((resolve) => (settle = resolve));
  const unsubscribe = cli.engine.on(watch.event, (p) => {
    if (id !== null && watch.idOf(p) !== id) return;
    onProgress(p);
    if (id !== null && watch.isFinal(p)) settle(p);
  });
  const onStop = () => {
    if (id !== null) void watch.stop(id).catch(() => undefined);
  };
  stop.addEventListener('abort', onStop, { once: true });
  try {
    const first = await watch.start();
    id = watch.idOf(first);
    if (watch.isFinal(first)) return first;
    if (stop.aborted) onStop();
    // Events sent before the id was known were not matched: poll as a backstop.
    const poll = setInterval(async () => {
      const now = await watch.status(id!).catch(() => null);
      if (now && watch.isFinal(now)) settle(now);
    }, 1_000);
    try {
      return await finished;
    } finally {
      clearInterval(poll);
    }
  } finally {
    stop.removeEventListener('abort', onStop);
    unsubscribe();
  }
}
