import { describe, expect, it } from 'vitest';
import type { RefreshProgress, RunProgress } from '../../shared/contract';
import { APP_TITLE, importWork, refreshEndNotice, refreshWork, runEndNotice, runWork, workTitle } from '../../renderer/src/shell/work-title';

const run = (over: Partial<RunProgress>): RunProgress => ({
  projectId: 1,
  runId: 1,
  status: 'running',
  offline: false,
  autoAccept: null,
  queriesTotal: 200,
  queriesDone: 84,
  rowsTotal: 300,
  rowsResolved: 120,
  calls: 1,
  cacheHits: 0,
  errors: 0,
  ratePerSec: 1,
  etaSeconds: 10,
  message: null,
  startedAt: '2026-01-01T00:00:00Z',
  updatedAt: '2026-01-01T00:00:00Z',
  ...over,
});

const refresh = (over: Partial<RefreshProgress>): RefreshProgress => ({
  projectId: 1,
  refreshId: 1,
  status: 'running',
  peopleTotal: 50,
  peopleDone: 10,
  found: 10,
  notFound: 0,
  failed: 0,
  rowsWithoutProfile: 0,
  rowsUpdated: 0,
  rowsChanged: 7,
  rowsNotFound: 0,
  calls: 1,
  ratePerSec: 1,
  etaSeconds: null,
  rowsWriting: null,
  message: null,
  startedAt: '2026-01-01T00:00:00Z',
  updatedAt: '2026-01-01T00:00:00Z',
  ...over,
});

describe('the window title during long work', () => {
  it('says how far the work is, and is the app name again once nothing goes on', () => {
    expect(workTitle([])).toBe(APP_TITLE);
    expect(workTitle([runWork(run({}))!])).toBe('42% · Matching · Matchdesk');
    expect(workTitle([refreshWork(refresh({}))!])).toBe('20% · Refreshing · Matchdesk');
    expect(workTitle([refreshWork(refresh({ rowsWriting: { done: 3, total: 4 } }))!])).toBe('75% · Refreshing · Matchdesk');
    expect(workTitle([importWork({ file: 'a.csv', rowsRead: 10, percent: 12.7 })!])).toBe('12% · Importing · Matchdesk');
    expect(workTitle([runWork(run({ queriesTotal: 0, queriesDone: 0 }))!])).toBe('Matching · Matchdesk');
    // Several at once: the one furthest behind.
    expect(workTitle([runWork(run({}))!, refreshWork(refresh({}))!])).toBe('20% · Refreshing · Matchdesk');
  });

  it('drops work that has ended', () => {
    for (const status of ['done', 'paused', 'cancelled', 'failed', 'out_of_credits'] as const) expect(runWork(run({ status }))).toBeNull();
    expect(refreshWork(refresh({ status: 'done' }))).toBeNull();
    expect(importWork({ file: 'a.csv', rowsRead: 10, percent: 100 })).toBeNull();
  });

  it('says how a run or a refresh ended, and nothing for a pause or a cancel (the user did those)', () => {
    expect(runEndNotice(run({ status: 'done' }))).toEqual({ title: 'Matching done', body: '300 rows looked up: the review is ready.' });
    expect(runEndNotice(run({ status: 'done', errors: 2 }))?.title).toBe('Matching ended with errors');
    expect(runEndNotice(run({ status: 'out_of_credits' }))?.body).toContain('out of credits');
    expect(runEndNotice(run({ status: 'paused' }))).toBeNull();
    expect(runEndNotice(run({ status: 'cancelled' }))).toBeNull();
    expect(refreshEndNotice(refresh({ status: 'done' }))).toEqual({ title: 'Refresh done', body: '7 rows changed: their people moved or left.' });
  });
});
