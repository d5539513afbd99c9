import { describe, expect, it } from 'vitest';
import type { RefreshProgress, RunProgress } from '../../shared/contract';
import { refreshPercent, refreshSentence, refreshStepLabel } from '../../renderer/src/features/refresh/refresh-text';
import { noCandidatesText, totalOf, visibleChipStates } from '../../renderer/src/features/review/row-states';
import { evidenceSentence, weightText } from '../../renderer/src/features/review/evidence';
import { isRunActive, runControls, runOutcome, runStatusLabel, runStatusSentence, runTone } from '../../renderer/src/features/run/run-text';
import { runPercent } from '../../shared/progress';
import { projectOpenScreen } from '../../renderer/src/features/projects/open-screen';
import { errorHint, errorTitle, toContractError } from '../../renderer/src/ui/contract-error';
import { MAX_TOASTS, toastQueue } from '../../renderer/src/ui/toast-queue';
import { nextTheme, parseTheme } from '../../renderer/src/ui/theme';
import { ROW_STATES, type RowState } from '../../shared/model';

const zero = Object.fromEntries(ROW_STATES.map((state) => [state, 0])) as Record<RowState, number>;

function progress(patch: Partial<RunProgress>): RunProgress {
  return {
    projectId: 1,
    runId: 1,
    status: 'running',
    offline: false,
    autoAccept: null,
    queriesTotal: 200,
    queriesDone: 50,
    rowsTotal: 300,
    rowsResolved: 60,
    calls: 2,
    cacheHits: 0,
    errors: 0,
    ratePerSec: 20,
    etaSeconds: 8,
    message: null,
    startedAt: '2025-01-01T00:00:00Z',
    updatedAt: '2025-01-01T00:00:02Z',
    ...patch,
  };
}

describe('run text', () => {
  it('offers the buttons that fit the state', () => {
    expect(runControls(null)).toEqual({ start: true, pause: false, resume: false, cancel: false });
    expect(runControls('running')).toEqual({ start: false, pause: true, resume: false, cancel: true });
    expect(runControls('paused')).toEqual({ start: false, pause: false, resume: true, cancel: true });
    expect(runControls('out_of_credits').start).toBe(true);
    expect(isRunActive('paused')).toBe(true);
    expect(isRunActive('done')).toBe(false);
  });

  it('measures a run by rows settled until it is done, and is full only when done', () => {
    expect(runPercent(progress({}))).toBe(20);
    expect(runPercent(progress({ queriesDone: 200 }))).toBe(20);
    // A second round joins the lookups' total (100% to 80% of them): the rows settled hold their share.
    expect(runPercent(progress({ queriesDone: 200, queriesTotal: 250, rowsResolved: 255 }))).toBe(85);
    expect(runPercent(progress({ queriesTotal: 0, rowsResolved: 150 }))).toBe(50);
    expect(runPercent(progress({ rowsResolved: 300 }))).toBe(100);
    expect(runPercent(progress({ rowsResolved: 299 }))).toBe(99);
    expect(runPercent(progress({ status: 'paused', rowsResolved: 90 }))).toBe(30);
    expect(runPercent(progress({ status: 'done', queriesDone: 10 }))).toBe(100);
  });

  it('never shows a run whose lookups failed as a full, green "Done"', () => {
    const partly = progress({ status: 'done', queriesTotal: 200, queriesDone: 200, errors: 50 });
    expect(runOutcome(partly)).toBe('partly_done');
    expect(runTone(runOutcome(partly))).toBe('warning');
    expect(runPercent(partly)).toBe(75);
    expect(runStatusLabel(runOutcome(partly))).toBe('Partly done: some lookups failed');
    expect(runStatusSentence(partly, 'The service failed with HTTP 503 5 times in a row.')).toBe(
      '50 of 200 lookups failed: The service failed with HTTP 503 5 times in a row. Their rows are marked as errors: retry them, or review what was found.',
    );

    const none = progress({ status: 'done', queriesTotal: 50, queriesDone: 50, errors: 50 });
    expect(runOutcome(none)).toBe('all_failed');
    expect(runTone(runOutcome(none))).toBe('danger');
    expect(runPercent(none)).toBe(0);
    expect(runStatusSentence(none, 'Could not get an answer from 127.0.0.1:1: connection refused.')).toBe(
      'Every lookup failed, so no row was matched: Could not get an answer from 127.0.0.1:1: connection refused.',
    );
    expect(runStatusSentence(none)).toBe('Every lookup failed, so no row was matched. Check the connection, then retry.');

    expect(runOutcome(progress({ status: 'done', queriesDone: 200, errors: 0 }))).toBe('done');
    expect(runTone('done')).toBe('success');
  });

  it('says 402 plainly and keeps the service message', () => {
    const text = runStatusSentence(progress({ status: 'out_of_credits', message: 'Credit limit reached.' }));
    expect(text).toContain('out of credits (402)');
    expect(text).toContain('Credit limit reached.');
    expect(text).not.toContain('..');
    expect(runStatusSentence(progress({ status: 'failed', message: 'Service unavailable.' }))).toBe('The run stopped: Service unavailable. Everything fetched so far is kept.');
    // The engine's own words for a failure already say the run stopped: said once.
    expect(runStatusSentence(progress({ status: 'failed', message: 'The run stopped: database is locked' }))).toBe('The run stopped: database is locked. Everything fetched so far is kept.');
    const refresh = (message: string): RefreshProgress => ({
      projectId: 1, refreshId: 1, status: 'failed', peopleTotal: 10, peopleDone: 4, found: 4, notFound: 0, failed: 0, rowsWithoutProfile: 0,
      rowsUpdated: 4, rowsChanged: 1, rowsNotFound: 0, calls: 1, ratePerSec: 0, etaSeconds: null, rowsWriting: null, message, startedAt: '', updatedAt: '',
    });
    expect(refreshSentence(refresh('The refresh stopped: database is locked'))).toBe('The refresh stopped: database is locked. Everything that arrived is kept; resume to go on.');
    expect(refreshSentence(refresh('Service unavailable.'))).toBe('The refresh stopped: Service unavailable. Everything that arrived is kept; resume to go on.');
    // Everyone asked, the rows being written: the bar measures the rows, under a label of its own.
    const writing: RefreshProgress = { ...refresh(''), status: 'running', peopleDone: 10, found: 10, message: null, rowsWriting: { done: 500, total: 2000 } };
    expect(refreshPercent(writing)).toBe(25);
    expect(refreshStepLabel(writing)).toBe('Bringing the rows up to date');
    expect(refreshSentence(writing)).toBe('Bringing the rows of the 10 people found up to date, in sheet order…');
    expect(refreshPercent({ ...writing, rowsWriting: null })).toBe(100);
    expect(refreshStepLabel({ ...writing, rowsWriting: null })).toBe('Refreshing');
  });
});

describe('review states', () => {
  it('always shows the main chips, the others only when non-zero or chosen', () => {
    expect(visibleChipStates(zero, null)).toEqual(['to_review', 'auto', 'accepted', 'rejected', 'skipped', 'no_candidates', 'error']);
    expect(visibleChipStates({ ...zero, offline: 3 }, null)).toContain('offline');
    expect(visibleChipStates(zero, ['pending'])).toContain('pending');
    expect(totalOf({ ...zero, auto: 2, to_review: 5 })).toBe(7);
  });

  it('explains a row without candidates', () => {
    expect(noCandidatesText('error', 'HTTP 500')).toContain('HTTP 500');
    expect(noCandidatesText('offline', null)).toMatch(/offline/);
  });

  it('reads evidence as words', () => {
    const evidence = [
      { field: 'email', level: 'found_by', mark: 'same', weight: 10.9, note: 'found by this e-mail' },
      { field: 'company', level: 'past_same', mark: 'same', weight: 4.2, note: 'worked at Globex until 2023-05' },
    ] as const;
    expect(evidenceSentence([...evidence])).toBe('E-mail: found by this e-mail, Company: worked at Globex until 2023-05');
    expect(weightText(10.94)).toBe('+10.9');
    expect(weightText(-4.54)).toBe('−4.5');
  });
});

describe('small pieces', () => {
  it('opens an untouched project at its mapping, a looked-up one at review', () => {
    const summary = {
      id: 1, name: 'x', kind: 'match' as const, sourceName: null, rowCount: 10, blankRows: 0, matched: 0, createdAt: '', updatedAt: '',
      jobChanges: { no_change: 0, moved: 0, left: 0, unknown: 0 }, changedAtLastRefresh: 0, lastRefreshAt: null, watch: null,
    };
    expect(projectOpenScreen({ ...summary, counts: { ...zero, pending: 10 } })).toBe('mapping');
    expect(projectOpenScreen({ ...summary, counts: { ...zero, pending: 2, to_review: 8 } })).toBe('review');
  });

  it('turns anything thrown into a contract error', () => {
    expect(toContractError({ error: { kind: 'sheet', message: 'Bad file' } })).toEqual({ kind: 'sheet', message: 'Bad file' });
    expect(toContractError({ kind: 'busy', message: 'Wait' })).toEqual({ kind: 'busy', message: 'Wait' });
    expect(toContractError(new Error('boom'))).toEqual({ kind: 'internal', message: 'boom' });
    expect(toContractError('x')).toEqual({ kind: 'internal', message: 'x' });
    expect(errorHint({ kind: 'payment_required', message: '' })).toMatch(/credits/);
    expect(errorHint({ kind: 'sheet', message: '' })).toBeNull();
    // A full disk's message says which folder and what to do: no generic hint beside it, and a title that says it.
    const full = { kind: 'database' as const, code: 'disk_full', message: "The disk holding Matchdesk's data (/data) is full." };
    expect(errorHint(full)).toBeNull();
    expect(errorTitle(full)).toBe('The disk is full');
    expect(errorHint({ kind: 'database', message: '' })).toMatch(/data file/);
  });

  it('keeps a short toast queue without repeats', () => {
    let toasts = toastQueue([], { type: 'add', toast: { id: 1, message: 'a', tone: 'info' } });
    toasts = toastQueue(toasts, { type: 'add', toast: { id: 2, message: 'a', tone: 'info' } });
    expect(toasts.map((t) => t.id)).toEqual([2]);
    for (let id = 3; id < 10; id++) toasts = toastQueue(toasts, { type: 'add', toast: { id, message: `m${id}`, tone: 'info' } });
    expect(toasts).toHaveLength(MAX_TOASTS);
    expect(toastQueue(toasts, { type: 'dismiss', id: 9 }).map((t) => t.id)).not.toContain(9);
  });

  it('cycles the theme system -> light -> dark', () => {
    expect(nextTheme('system')).toBe('light');
    expect(nextTheme('light')).toBe('dark');
    expect(nextTheme('dark')).toBe('system');
    expect(parseTheme('purple')).toBe('system');
  });
});
