import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { skipBecause } from '../support/skips';

const linuxOnly = skipBecause('the peak RSS of a spawned process', process.platform === 'linux' ? null : 'only Linux gives a process its own high-water mark (VmHWM)');

describe("a bench process's peak RSS", () => {
  it.skipIf(linuxOnly)("is its own, not the parent's it was spawned from, as getrusage's maxRSS counts it", () => {
    // Resident in this process when the child is spawned: fork copies that size, and getrusage keeps it through exec.
    const held = Buffer.alloc(300 * 1024 * 1024, 1);
    const script = `import { peakRssBytes } from ${JSON.stringify(fileURLToPath(new URL('../../bench/peak-rss.ts', import.meta.url)))};
      process.stdout.write(JSON.stringify({ own: peakRssBytes(), maxRss: process.resourceUsage().maxRSS * 1024 }));`;
    const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8' });
    expect(child.status, child.stderr).toBe(0);
    const { own, maxRss } = JSON.parse(child.stdout) as { own: number; maxRss: number };
    expect(held[held.length - 1]).toBe(1);
    expect(maxRss).toBeGreaterThan(300 * 1024 * 1024);
    expect(own).toBeLessThan(200 * 1024 * 1024);
  });
});
