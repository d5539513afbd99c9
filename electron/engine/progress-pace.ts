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

/** How often a run and a refresh tell their progress at most: ten times a second (their counts move with every call). */
const RUN_PROGRESS_INTERVAL_MS = 100;

/**
 * How a run or a refresh tells its progress (`tell`): `now` at once (its start, a new phase); `soon` at most every
 * `intervalMs`, a change in a quiet stretch told once that interval is over, so none is held back for good; `end` its
 * last word, after which nothing more is told.
 */
export class ProgressTimer {
  private lastAt = Number.NEGATIVE_INFINITY;
  private timer: NodeJS.Timeout | null = null;
  private ended = false;

  constructor(
    private readonly tell: () => void,
    private readonly intervalMs = RUN_PROGRESS_INTERVAL_MS,
  ) {}

  now(): void {
    if (this.ended) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.lastAt = performance.now();
    this.tell();
  }

  soon(): void {
    if (this.ended) return;
    const wait = this.intervalMs - (performance.now() - this.lastAt);
    if (wait <= 0) this.now();
    else
      this.timer ??= setTimeout(() => {
        this.timer = null;
        this.now();
      }, wait);
  }

  end(): void {
    this.now();
    this.ended = true;
  }
}
