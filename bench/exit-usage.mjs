// Loaded with --import into a process the benchmark starts but does not control (the CLI): on exit it writes the
// process's own resource usage (peak resident memory, CPU, and on Linux the bytes it wrote) to the file
// BENCH_USAGE_FILE names.
import { readFileSync, writeFileSync } from 'node:fs';

const file = process.env.BENCH_USAGE_FILE;

/** /proc/self/io's write_bytes and wchar (bench/process-io.ts reads the same), or null elsewhere than Linux. */
function writes() {
  try {
    const text = readFileSync('/proc/self/io', 'utf8');
    const field = (name) => Number(new RegExp(`^${name}: (\\d+)$`, 'm').exec(text)?.[1]);
    return { writeBytes: field('write_bytes'), wchar: field('wchar'), cancelledWriteBytes: field('cancelled_write_bytes') };
  } catch {
    return null;
  }
}

/** Peak resident bytes as bench/peak-rss.ts takes them (VmHWM; maxRSS counts the parent this was spawned from too). */
function peakRssBytes() {
  try {
    const kb = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync('/proc/self/status', 'utf8'))?.[1];
    if (kb) return Number(kb) * 1024;
  } catch {
    // Not Linux: getrusage's below.
  }
  return process.resourceUsage().maxRSS * 1024;
}

if (file) {
  process.on('exit', () => {
    const usage = process.resourceUsage();
    writeFileSync(file, JSON.stringify({ maxRssMb: peakRssBytes() / 1e6, cpuSeconds: (usage.userCPUTime + usage.systemCPUTime) / 1e6, io: writes() }));
  });
}
