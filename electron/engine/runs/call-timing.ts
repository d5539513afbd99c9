/** What a find call of up to 100 queries takes on the real service, until this session has measured it. */
export const ASSUMED_SECONDS_PER_CALL = 1.5;

/** A running average of find-call durations, so the cost preview estimates from what this machine saw. */
export class CallTiming {
  private averageMs: number | null = null;

  record(ms: number): void {
    if (!Number.isFinite(ms) || ms < 0) return;
    this.averageMs = this.averageMs === null ? ms : this.averageMs * 0.8 + ms * 0.2;
  }

  get secondsPerCall(): number {
    return this.averageMs === null ? ASSUMED_SECONDS_PER_CALL : this.averageMs / 1000;
  }
}
