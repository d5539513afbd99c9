import { describe, expect, it } from 'vitest';
import type { RefreshProgress } from '../../shared/contract';
import { formatRefreshLine } from '../../electron/cli/refresh-text';

const progress = (over: Partial<RefreshProgress>): RefreshProgress => ({
  projectId: 1, refreshId: 1, status: 'running', peopleTotal: 200, peopleDone: 100, found: 98, notFound: 2, failed: 0, rowsWithoutProfile: 0,
  rowsUpdated: 0, rowsChanged: 0, rowsNotFound: 3, calls: 1, ratePerSec: 50, etaSeconds: 2, rowsWriting: null, message: null, startedAt: '', updatedAt: '',
  ...over,
});

describe("the refresh's terminal line", () => {
  it('counts the people while they are asked, then the rows while they are brought up to date', () => {
    expect(formatRefreshLine(progress({}))).toBe('running: 100/200 people (50%), 1 calls, 0 rows changed, 2 not found, 0 failed, 50 people/s, ETA 2 s');
    expect(formatRefreshLine(progress({ peopleDone: 200, etaSeconds: null, rowsWriting: { done: 750, total: 1000 }, rowsUpdated: 400, rowsChanged: 31 }))).toBe(
      'running: 200/200 people asked, bringing their rows up to date (75%), 400 rows updated, 31 changed',
    );
  });
});
