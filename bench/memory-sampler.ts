import { readFileSync } from 'node:fs';

/** MB, what the process held when its sampled resident memory peaked: the kernel's split and the main JS heap's. */
export interface MemoryAtPeak {
  /** Private pages: the JS heaps (this thread's and the workers'), malloc's arenas (SQLite's caches, buffers). */
  rssAnon: number;
  /** Pages of mapped files: Node's (or Electron's) own code, native modules. */
  rssFile: number;
  /** Shared memory: SQLite's WAL index (`-shm`). */
  rssShmem: number;
  /** This thread's JS heap, as V8 holds it from the OS, and the part of it alive. */
  heapTotal: number;
  heapUsed: number;
  /** Memory outside V8's heap that JS objects own (Buffers, typed arrays; arrayBuffers is their part). */
  external: number;
  arrayBuffers: number;
  threads: number;
}

export interface MemoryPeak {
  /** MB, the highest of the samples. */
  sampled: number;
  /** MB, the kernel's high-water mark for the process. */
  maxRss: number;
  byPhase: Record<string, number>;
  /** MB, the JS heap's peak by phase: what of the RSS is JavaScript objects (the rest: SQLite's cache, buffers, code). */
  heapByPhase: Record<string, number>;
  /** At the highest sample (Linux; null elsewhere). */
  atPeak: MemoryAtPeak | null;
}

/** Peak resident memory of this process: sampled every `everyMs` (overall and per phase), and the OS's own high-water mark. */
export class MemorySampler {
  private peak = 0;
  private phase = 'start';
  private readonly phases = new Map<string, number>();
  private readonly heaps = new Map<string, number>();
  private atPeak: MemoryAtPeak | null = null;
  private readonly timer: NodeJS.Timeout;

  constructor(everyMs = 50) {
    this.sample();
    this.timer = setInterval(() => this.sample(), everyMs);
    this.timer.unref();
  }

  sample(): number {
    const usage = process.memoryUsage();
    const rss = usage.rss;
    if (rss > this.peak) {
      this.peak = rss;
      this.atPeak = split(usage);
    }
    if (rss > (this.phases.get(this.phase) ?? 0)) this.phases.set(this.phase, rss);
    if (usage.heapUsed > (this.heaps.get(this.phase) ?? 0)) this.heaps.set(this.phase, usage.heapUsed);
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
    return { sampled: this.peak / 1e6, maxRss: (process.resourceUsage().maxRSS * 1024) / 1e6, byPhase: mb(this.phases), heapByPhase: mb(this.heaps), atPeak: this.atPeak };
  }

  stop(): void {
    clearInterval(this.timer);
  }
}

/** One line of the split, for a log. */
export function atPeakText(m: MemoryAtPeak): string {
  const n = (x: number) => Math.round(x);
  return (
    `anonymous ${n(m.rssAnon)} MB (main JS heap ${n(m.heapTotal)} MB held, ${n(m.heapUsed)} alive; external ${n(m.external)}, of it array buffers ${n(m.arrayBuffers)}), ` +
    `files ${n(m.rssFile)} MB, shared ${n(m.rssShmem)} MB; ${m.threads} threads`
  );
}

/** Read at a new peak only, not at every sample. */
function split(usage: NodeJS.MemoryUsage): MemoryAtPeak | null {
  let status: string;
  try {
    status = readFileSync('/proc/self/status', 'utf8');
  } catch {
    return null;
  }
  const field = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? 0);
  const mb = (bytes: number) => bytes / 1e6;
  return {
    // In kB.
    rssAnon: (field('RssAnon') * 1024) / 1e6,
    rssFile: (field('RssFile') * 1024) / 1e6,
    rssShmem: (field('RssShmem') * 1024) / 1e6,
    heapTotal: mb(usage.heapTotal),
    heapUsed: mb(usage.heapUsed),
    external: mb(usage.external),
    arrayBuffers: mb(usage.arrayBuffers),
    threads: field('Threads'),
  };
}
