export interface MemoryPeak {
  /** MB, the highest of the samples. */
  sampled: number;
  /** MB, the kernel's high-water mark for the process. */
  maxRss: number;
  byPhase: Record<string, number>;
  /** MB, the JS heap's peak by phase: what of the RSS is JavaScript objects (the rest: SQLite's cache, buffers, code). */
  heapByPhase: Record<string, number>;
}

/** Peak resident memory of this process: sampled every `everyMs` (overall and per phase), and the OS's own high-water mark. */
export class MemorySampler {
  private peak = 0;
  private phase = 'start';
  private readonly phases = new Map<string, number>();
  private readonly heaps = new Map<string, number>();
  private readonly timer: NodeJS.Timeout;

  constructor(everyMs = 50) {
    this.sample();
    this.timer = setInterval(() => this.sample(), everyMs);
    this.timer.unref();
  }

  sample(): number {
    const rss = process.memoryUsage.rss();
    if (rss > this.peak) this.peak = rss;
    if (rss > (this.phases.get(this.phase) ?? 0)) this.phases.set(this.phase, rss);
    const heap = process.memoryUsage().heapUsed;
    if (heap > (this.heaps.get(this.phase) ?? 0)) this.heaps.set(this.phase, heap);
    return rss;
  }

  /** Samples from now on count towards `phase`, so the report can say which step needed the memory. */
  enter(phase: string): void {
    this.sample();
    this.phase = phase;
    this.sample();
  }

  /** MB. A busy event loop can miss a sample, so the kernel's maxRSS (which never misses) is taken too. */
  peakMb(): MemoryPeak {
    this.sample();
    const mb = (m: Map<string, number>) => Object.fromEntries([...m].map(([name, bytes]) => [name, Math.round(bytes / 1e5) / 10]));
    return { sampled: this.peak / 1e6, maxRss: (process.resourceUsage().maxRSS * 1024) / 1e6, byPhase: mb(this.phases), heapByPhase: mb(this.heaps) };
  }

  stop(): void {
    clearInterval(this.timer);
  }
}
