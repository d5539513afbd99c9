import { describe, expect, it } from 'vitest';
import { applyMapOverrides } from '../../electron/cli/map-overrides';
import { closestOption, exportFormat, parseCommandArgs, positiveInt } from '../../electron/cli/args';
import { closestCommand } from '../../electron/cli/run-cli';
import { CliError } from '../../electron/cli/cli-error';
import { ProgressReporter, formatDuration, formatLine } from '../../electron/cli/progress';
import type { RunProgress } from '../../shared/contract';

const detail = { headers: ['Full Name', 'Work Email', 'Company'], mapping: { fullName: 0 } };

describe('--map overrides', () => {
  it('maps a field by header name, case-insensitively, or by 1-based column number', () => {
    expect(applyMapOverrides(detail, ['email=work email', 'company=3'])).toEqual({ fullName: 0, email: 1, company: 2 });
  });

  it('unmaps a field given an empty column', () => {
    expect(applyMapOverrides(detail, ['fullName='])).toEqual({});
  });

  it('names the columns when the one asked for does not exist', () => {
    expect(() => applyMapOverrides(detail, ['email=Mail'])).toThrow(/Columns: Full Name, Work Email, Company/);
  });

  it('refuses an unknown field and a malformed entry as usage errors', () => {
    for (const bad of ['phone=1', 'email', '=1']) {
      try {
        applyMapOverrides(detail, [bad]);
        expect.unreachable(`"${bad}" was accepted`);
      } catch (err) {
        expect(err).toBeInstanceOf(CliError);
        expect((err as CliError).exitCode).toBe(2);
      }
    }
  });
});

describe('argument helpers', () => {
  it('tells the export format from the file name', () => {
    expect(exportFormat('out.XLSX')).toBe('xlsx');
    expect(exportFormat('a/b.csv')).toBe('csv');
    expect(() => exportFormat('out.json')).toThrow(/\.csv or \.xlsx/);
  });

  it('takes whole positive numbers only', () => {
    expect(positiveInt('4', '--concurrency')).toBe(4);
    expect(positiveInt(undefined, '--concurrency')).toBeUndefined();
    expect(() => positiveInt('0', '--concurrency')).toThrow(/--concurrency/);
    expect(() => positiveInt('2.5', '--concurrency')).toThrow(/whole number/);
  });

  it('formats durations for people', () => {
    expect(formatDuration(0.2)).toBe('under a second');
    expect(formatDuration(42)).toBe('42 s');
    expect(formatDuration(125)).toBe('2 min 5 s');
    expect(formatDuration(3 * 3600 + 60)).toBe('3 h 1 min');
  });
});

describe('progress lines', () => {
  const base: RunProgress = {
    projectId: 1, runId: 1, status: 'running', offline: false, autoAccept: null, queriesTotal: 200, queriesDone: 50, rowsTotal: 300, rowsResolved: 40,
    calls: 1, cacheHits: 10, errors: 0, ratePerSec: 120.4, etaSeconds: 2, message: null, startedAt: '', updatedAt: '',
  };

  it('shows counts, rate and ETA while running, and no rate once done', () => {
    expect(formatLine(base)).toBe('running: 40/300 rows (13%), 50/200 queries, 1 calls, 10 cached, 0 errors, 120 q/s, ETA 2 s');
    expect(formatLine({ ...base, status: 'done', queriesDone: 200, rowsResolved: 300 })).toBe('done: 300/300 rows, 200/200 queries, 1 calls, 10 cached, 0 errors');
  });

  it('does not claim 100% before the first round is planned', () => {
    expect(formatLine({ ...base, queriesTotal: 0, queriesDone: 0 })).toBe('running: planning the first round...');
  });

  const done: RunProgress = { ...base, status: 'done', queriesDone: 200, rowsResolved: 300, etaSeconds: null };
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

  it("writes a run's end once in a log, when its last event already said it", () => {
    const lines = logged([base, done], done);
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatch(/^done: 300\/300 rows/);
  });

  it("writes a run's end in a log when no event said it yet", () => {
    const lines = logged([base], done);
    expect(lines).toHaveLength(2);
    expect(lines.map((l) => l.split(':')[0])).toEqual(['running', 'done']);
  });
});

describe('a mistyped option', () => {
  const options = { out: { type: 'string' }, candidates: { type: 'string' }, yes: { type: 'boolean' }, 'min-confidence': { type: 'string' } } as const;
  const firstLine = (err: Error) => err.message.split('\n')[0];
  const usageError = (argv: string[]): CliError => {
    try {
      parseCommandArgs(argv, options, 1);
    } catch (err) {
      return err as CliError;
    }
    throw new Error(`${argv.join(' ')} was accepted`);
  };

  it('names the option meant, as a usage error', () => {
    const err = usageError(['people.csv', '--ot', 'x.csv']);
    expect(err).toBeInstanceOf(CliError);
    expect(err.exitCode).toBe(2);
    expect(firstLine(err)).toBe('Unknown option --ot. Did you mean --out?');
    expect(firstLine(usageError(['--candiates=c.csv']))).toBe('Unknown option --candiates. Did you mean --candidates?');
    expect(usageError(['--min-confidense', '0.9']).message).toMatch(/Did you mean --min-confidence\?/);
  });

  it('lists the options when none is close', () => {
    expect(firstLine(usageError(['--verbose']))).toBe('Unknown option --verbose. This command takes --out, --candidates, --yes, --min-confidence.');
  });

  it('takes a unique start of a long option as a hint, never a short unrelated one', () => {
    expect(closestOption('--cand', ['--out', '--candidates'])).toBe('--candidates');
    expect(closestOption('--zzz', ['--out', '--yes'])).toBeNull();
    expect(closestOption('--yse', ['--out', '--yes'])).toBe('--yes');
  });
});

describe('a mistyped command', () => {
  it('names the command meant, and nothing when none is close', () => {
    const commands = ['match', 'accept', 'decide', 'export', 'refresh', 'watch', 'search'];
    expect(closestCommand('mach', commands)).toBe('match');
    expect(closestCommand('exprot', commands)).toBe('export');
    expect(closestCommand('Refresh', commands)).toBe('refresh');
    expect(closestCommand('no-such-command', commands)).toBeNull();
  });
});
