import { describe, expect, it } from 'vitest';
import type { RunProgress } from '../../shared/contract';
import { ProgressReporter } from '../../electron/cli/progress';

const running: RunProgress = {
  projectId: 1,
  runId: 1,
  status: 'running',
  offline: false,
  autoAccept: null,
  queriesTotal: 200,
  queriesDone: 100,
  rowsTotal: 300,
  rowsResolved: 150,
  calls: 1,
  cacheHits: 0,
  errors: 0,
  ratePerSec: 100,
  etaSeconds: 1,
  message: null,
  startedAt: '2026-11-30T12:00:00.000Z',
  updatedAt: '2026-11-30T12:00:01.000Z',
};
const done: RunProgress = { ...running, status: 'done', queriesDone: 200, rowsResolved: 300, calls: 2, etaSeconds: null };

/** What a reporter writes to a log (not a terminal), given these events and then the run's end. */
function logged(events: RunProgress[], end: RunProgress): string[] {
  let text = '';
  const log = { isTTY: false, write: (chunk: string) => ((text += chunk), true) };
  // A log is no terminal: plain lines, each event's when it comes (no pause between them here).
  const reporter = new ProgressReporter(log as unknown as NodeJS.WriteStream, 0);
  for (const event of events) reporter.update(event);
  reporter.finish(end);
  return text.split('\n').filter(Boolean);
}

describe("the command line's progress in a log", () => {
  it('writes the end of a run once, when its last event already said it', () => {
    const lines = logged([running, done], done);
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatch(/^done: 300\/300 rows/);
  });

  it('writes the end when no event said it yet', () => {
    const lines = logged([running], done);
    expect(lines).toHaveLength(2);
    expect(lines.map((l) => l.split(':')[0])).toEqual(['running', 'done']);
  });
});
