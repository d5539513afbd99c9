import { readFileSync, writeFileSync } from 'node:fs';

/**
 * This process's peak resident memory, in bytes. On Linux the high-water mark of its own memory (`VmHWM`): getrusage's
 * maxRSS, which Node's resourceUsage() gives, also counts the parent a process was spawned from (fork copies the
 * parent's resident size, and exec keeps the larger), so a child of a large process seemed as large. Elsewhere
 * getrusage's.
 */
export function peakRssBytes(): number {
  const kb = /^VmHWM:\s+(\d+) kB$/m.exec(procStatus())?.[1];
  return kb ? Number(kb) * 1024 : process.resourceUsage().maxRSS * 1024;
}

/**
 * Sets this process's high-water mark back to what it holds now (Linux: 5 written to /proc/self/clear_refs), so the
 * next peakRssBytes is the peak since; whether it could.
 */
export function resetPeakRss(): boolean {
  try {
    writeFileSync('/proc/self/clear_refs', '5');
    return true;
  } catch {
    return false;
  }
}

function procStatus(): string {
  try {
    return readFileSync('/proc/self/status', 'utf8');
  } catch {
    return '';
  }
}
