import type { RunPreview, RunProgress } from '../../shared/contract';
import { creditsText, mayRunOut } from '../../shared/credits-text';
import { runPercent } from '../../shared/progress';

/** A one-line bar redrawn in place on a terminal; plain lines at most every few seconds otherwise. */
export class ProgressReporter {
  private lastPlain = 0;
  private lastLine = '';

  constructor(
    private readonly out: NodeJS.WriteStream = process.stderr,
    private readonly plainEveryMs = 2_000,
  ) {}

  update(p: RunProgress): void {
    if (this.out.isTTY) {
      const width = 28;
      const bar = '#'.repeat(Math.round((runPercent(p) / 100) * width)).padEnd(width, '.');
      this.out.write(`\r[${bar}] ${formatLine(p)}\x1b[K`);
      return;
    }
    const now = Date.now();
    if (now - this.lastPlain >= this.plainEveryMs) {
      this.lastPlain = now;
      this.lastLine = formatLine(p);
      this.out.write(`${this.lastLine}\n`);
    }
  }

  /** The run's last line; in a log, not again when its last event already wrote it (a run's end is one). */
  finish(p: RunProgress): void {
    const line = formatLine(p);
    if (this.out.isTTY) this.out.write('\r\x1b[K');
    else if (line === this.lastLine) return;
    this.out.write(`${line}\n`);
  }
}

export function formatLine(p: RunProgress): string {
  if (p.status === 'running' && p.queriesTotal === 0) return 'running: planning the first round...';
  // The share is of rows settled, as the bar's: lookups can step back when a later round adds its queries.
  const share = p.status === 'running' ? ` (${runPercent(p)}%)` : '';
  const speed = p.status === 'running' ? `, ${p.ratePerSec.toFixed(0)} q/s${p.etaSeconds !== null ? `, ETA ${formatDuration(p.etaSeconds)}` : ''}` : '';
  // "done" alone over a run whose lookups failed reads as success in a log.
  const status = p.status === 'done' && p.errors > 0 ? 'done with errors' : p.status;
  // Following its plan, the run knows only the planned rows' queries: their total grows until the plan is whole.
  const queries = p.rowsPlanned === undefined ? `${p.queriesDone}/${p.queriesTotal} queries` : `${p.queriesDone}/${p.queriesTotal}+ queries (${p.rowsPlanned} rows planned so far)`;
  return (
    `${status}: ${p.rowsResolved}/${p.rowsTotal} rows${share}, ${queries}, ` +
    `${p.calls} calls, ${p.cacheHits} cached, ${p.errors} errors${speed}`
  );
}

export function formatPreview(p: RunPreview): string {
  const lines = [
    `Rows:                 ${p.rows}`,
    `Rows with no query:   ${p.rowsWithoutQuery}`,
    // Blank rows are not among the rows above: nothing is asked for them.
    ...(p.blankRows > 0 ? [`Blank rows (skipped): ${p.blankRows}`] : []),
    `Distinct queries:     ${p.distinctQueries}`,
    `Cached (fresh):       ${p.cachedFresh}`,
    `To fetch:             ${p.offline ? '0 (offline)' : p.toFetch}`,
    `Calls:                ${p.offline ? 0 : p.calls}`,
    `Estimated time:       ${formatDuration(p.estimatedSeconds)}`,
  ];
  const credits = creditsText(p);
  if (credits) lines.push(`Credits:              ${credits}`);
  if (mayRunOut(p)) lines.push('  note: this can pass the credits that remain; the run stops there, keeping what landed, and goes on when there are more.');
  return lines.join('\n') + '\n';
}

export function formatDuration(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 1) return 'under a second';
  const s = Math.round(seconds);
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min ${s % 60} s`;
  return `${Math.floor(m / 60)} h ${m % 60} min`;
}
