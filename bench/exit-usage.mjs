// Loaded with --import into a process the benchmark starts but does not control (the CLI): on exit it writes the
// process's own resource usage (peak resident memory, CPU) to the file BENCH_USAGE_FILE names.
import { writeFileSync } from 'node:fs';

const file = process.env.BENCH_USAGE_FILE;
if (file) {
  process.on('exit', () => {
    const usage = process.resourceUsage();
    writeFileSync(file, JSON.stringify({ maxRssMb: (usage.maxRSS * 1024) / 1e6, cpuSeconds: (usage.userCPUTime + usage.systemCPUTime) / 1e6 }));
  });
}
