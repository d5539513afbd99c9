import { readFileSync } from 'node:fs';
import { peakRssBytes, resetPeakRss } from './peak-rss';

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
  /** The private pages by what holds them (Linux; null where /proc/self/smaps does not read). */
  anonymous: AnonymousSplit | null;
}

/** MB of private pages, by who maps them: glibc's malloc (its main heap, the other threads' arenas), V8, the rest. */
export interface AnonymousSplit {
  /** malloc's main heap (`[heap]`): the engine's thread's small allocations, SQLite's page caches among them. */
  mallocMain: number;
  /** malloc's other arenas: 64 MB mappings, one a thread that allocated (workers, V8's and libuv's threads). */
  mallocArenas: number;
  arenas: number;
  /** V8's heap pages (256 kB mappings), this thread's and the workers' isolates. */
  v8Pages: number;
  /** The rest: allocations malloc maps on their own (large typed arrays, Buffers), thread stacks, code. */
  other: number;
}

export interface MemoryPeak {
  /** MB, the highest of the samples. */
  sampled: number;
  /** MB, the kernel's high-water mark for the process. */
  maxRss: number;
  /** MB, each phase's peak: its highest sample, or the kernel's high-water mark over it where it can be reset (Linux). */
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
  /** The RSS the split was last read at: /proc/self/smaps is read again only once the peak is 2 MB past it. */
  private splitAt = 0;
  private readonly timer: NodeJS.Timeout;
  /**
   * The kernel's high-water mark before this phase: from the process's start to the sampler's, then over each phase
   * before this one (the mark is reset at each phase where it can be).
   */
  private earlierMaxRss = peakRssBytes();
  private readonly resets = resetPeakRss();

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
      const anonymous = rss >= this.splitAt + SPLIT_STEP ? anonymousSplit() : (this.atPeak?.anonymous ?? null);
      if (anonymous) this.splitAt = rss;
      this.atPeak = split(usage, anonymous);
    }
    if (rss > (this.phases.get(this.phase) ?? 0)) this.phases.set(this.phase, rss);
    if (usage.heapUsed > (this.heaps.get(this.phase) ?? 0)) this.heaps.set(this.phase, usage.heapUsed);
    return rss;
  }

  /** Samples from now on count towards `phase`, so the report can say which step needed the memory. */
  enter(phase: string): void {
    this.sample();
    this.endPhase();
    this.phase = phase;
    this.sample();
  }

  /**
   * A busy event loop misses samples (a step's synchronous stretch is one long turn), so the kernel's high-water mark
   * over the phase counts too, where it can be reset for the next one.
   */
  private endPhase(): void {
    if (!this.resets) return;
    this.earlierMaxRss = Math.max(this.earlierMaxRss, this.phaseMark());
    resetPeakRss();
  }

  /** The kernel's high-water mark, counted towards this phase where it is the phase's own (it can be reset). */
  private phaseMark(): number {
    const hwm = peakRssBytes();
    if (this.resets && hwm > (this.phases.get(this.phase) ?? 0)) this.phases.set(this.phase, hwm);
    return hwm;
  }

  /** MB. A busy event loop can miss a sample, so the kernel's high-water mark (which never misses) is taken too. */
  peakMb(): MemoryPeak {
    this.sample();
    const hwm = this.phaseMark();
    const mb = (m: Map<string, number>) => Object.fromEntries([...m].map(([name, bytes]) => [name, Math.round(bytes / 1e5) / 10]));
    return { sampled: this.peak / 1e6, maxRss: Math.max(this.earlierMaxRss, hwm) / 1e6, byPhase: mb(this.phases), heapByPhase: mb(this.heaps), atPeak: this.atPeak };
  }

  stop(): void {
    clearInterval(this.timer);
  }
}

/** One line of the split, for a log. */
export function atPeakText(m: MemoryAtPeak): string {
  const n = (x: number) => Math.round(x);
  const a = m.anonymous;
  const byHolder = a ? `; malloc's main heap ${n(a.mallocMain)}, its ${a.arenas} other arenas ${n(a.mallocArenas)}, V8's pages ${n(a.v8Pages)}, the rest ${n(a.other)}` : '';
  return (
    `anonymous ${n(m.rssAnon)} MB (main JS heap ${n(m.heapTotal)} MB held, ${n(m.heapUsed)} alive; external ${n(m.external)}, of it array buffers ${n(m.arrayBuffers)}${byHolder}), ` +
    `files ${n(m.rssFile)} MB, shared ${n(m.rssShmem)} MB; ${m.threads} threads`
  );
}

const SPLIT_STEP = 2e6;
/** glibc's arenas other than the main one are mapped 64 MB at a time, aligned to 64 MB (its HEAP_MAX_SIZE on 64-bit). */
const ARENA_BYTES = 64 * 2 ** 20;
const V8_PAGE_BYTES = 256 * 1024;

/** The private pages by holder, from /proc/self/smaps (a few ms: read at a new peak, 2 MB past the last). */
function anonymousSplit(): AnonymousSplit | null {
  let smaps: string;
  try {
    smaps = readFileSync('/proc/self/smaps', 'utf8');
  } catch {
    return null;
  }
  const mappings: { start: number; end: number; perms: string; name: string; rssKb: number }[] = [];
  for (const line of smaps.split('\n')) {
    const mapping = /^([0-9a-f]+)-([0-9a-f]+) (\S+) \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (mapping) mappings.push({ start: parseInt(mapping[1]!, 16), end: parseInt(mapping[2]!, 16), perms: mapping[3]!, name: mapping[4]!, rssKb: 0 });
    else if (line.startsWith('Rss:') && mappings.length > 0) mappings[mappings.length - 1]!.rssKb = Number(/(\d+)/.exec(line)![1]);
  }
  const kb = { mallocMain: 0, mallocArenas: 0, v8Pages: 0, other: 0 };
  let arenas = 0;
  mappings.forEach((m, i) => {
    if (m.name === '[heap]') kb.mallocMain += m.rssKb;
    if (m.name !== '' || !m.perms.startsWith('rw')) return;
    // An arena's part in use, then its unused rest with no access: 64 MB together, from a 64 MB boundary.
    const next = mappings[i + 1];
    const arenaEnd = next && next.start === m.end && next.perms.startsWith('---') ? next.end : m.end;
    if (m.start % ARENA_BYTES === 0 && arenaEnd - m.start === ARENA_BYTES) {
      kb.mallocArenas += m.rssKb;
      arenas++;
    } else if (m.end - m.start === V8_PAGE_BYTES) kb.v8Pages += m.rssKb;
    else kb.other += m.rssKb;
  });
  const mb = (k: number) => (k * 1024) / 1e6;
  return { mallocMain: mb(kb.mallocMain), mallocArenas: mb(kb.mallocArenas), arenas, v8Pages: mb(kb.v8Pages), other: mb(kb.other) };
}

/** Read at a new peak only, not at every sample. */
function split(usage: NodeJS.MemoryUsage, anonymous: AnonymousSplit | null): MemoryAtPeak | null {
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
    anonymous,
  };
}
