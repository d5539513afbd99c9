import { describe, expect, it } from 'vitest';
import type { SearchProgress } from '../../shared/contract';
import { jobPeriod, personJobs } from '../../renderer/src/features/search/person-jobs';
import { searchExportInput, searchExportName } from '../../renderer/src/features/search/search-export-choice';
import { searchControls, searchCountsText, searchPercent, searchStatusSentence } from '../../renderer/src/features/search/search-progress-text';

function progress(patch: Partial<SearchProgress>): SearchProgress {
  return {
    searchId: 1,
    name: 'Left acme since 2024-01-01',
    status: 'running',
    fromCache: false,
    offline: false,
    partsTotal: 1,
    partsDone: 0,
    pages: 2,
    calls: 2,
    people: 150,
    serviceCount: null,
    message: null,
    startedAt: '2025-01-01T00:00:00.000Z',
    updatedAt: '2025-01-01T00:00:01.000Z',
    ...patch,
  };
}

describe('where a search stands, in words', () => {
  it('offers cancel while running, resume once stopped, and a fresh run when done', () => {
    expect(searchControls('running')).toEqual({ cancel: true, resume: false, refresh: false });
    for (const status of ['cancelled', 'failed', 'out_of_credits'] as const) expect(searchControls(status).resume).toBe(true);
    expect(searchControls('done')).toEqual({ cancel: false, resume: false, refresh: true });
    expect(searchControls(null)).toEqual({ cancel: false, resume: false, refresh: false });
  });

  it('measures progress by the service count when known, else by the parts of a split search, else not at all', () => {
    expect(searchPercent(progress({ serviceCount: 600, people: 150 }))).toBe(25);
    expect(searchPercent(progress({ partsTotal: 4, partsDone: 1 }))).toBe(25);
    expect(searchPercent(progress({}))).toBeNull();
    expect(searchPercent(progress({ status: 'done' }))).toBe(100);
    // Never 100 before it is done, even when the count was an upper bound that is reached.
    expect(searchPercent(progress({ serviceCount: 150, people: 150 }))).toBe(99);
  });

  it('counts pages, people and calls, and the service count only when it sent one', () => {
    expect(searchCountsText(progress({}))).toEqual(['150 people', '2 pages', '2 calls to the service']);
    expect(searchCountsText(progress({ serviceCount: 180, partsTotal: 2, partsDone: 1 }))).toEqual([
      '150 people',
      '2 pages',
      '2 calls to the service',
      'the service counts 180 at most',
      '1 of 2 parts done',
    ]);
  });

  it('says when the answer came from stored results, and why a search stopped', () => {
    expect(searchStatusSentence(progress({ status: 'done', fromCache: true }))).toMatch(/no call was made/);
    expect(searchStatusSentence(progress({ status: 'done', fromCache: true, offline: true }))).toMatch(/offline/);
    expect(searchStatusSentence(progress({ status: 'failed', message: 'The service answered 500.' }))).toMatch(/^The search stopped: The service answered 500\. The pages/);
    expect(searchStatusSentence(progress({ status: 'out_of_credits' }))).toMatch(/out of credits \(402\)\. Everything found/);
  });
});

describe('the selected person and the export', () => {
  it("reads a person's jobs defensively, most recent first as sent", () => {
    const jobs = personJobs({
      jobs: [
        { title: 'CTO', company: { name: 'Acme' }, started_at: '2022-03-01T00:00:00Z', ended_at: null },
        'garbage',
        { title: '  ', company: 'Globex', started_at: '2019-01-01' },
      ],
    });
    expect(jobs).toEqual([
      { index: 0, title: 'CTO', company: 'Acme', started: '2022-03-01', ended: null },
      { index: 2, title: null, company: 'Globex', started: '2019-01-01', ended: null },
    ]);
    expect(personJobs({ jobs: 'none' })).toEqual([]);
    expect(jobPeriod('2019-01-01', null)).toBe('2019-01-01 – now');
    expect(jobPeriod(null, null)).toBe('');
  });

  it('names the file after the search, safe on every OS', () => {
    expect(searchExportName('Left 3 companies since 2024-01-01', 'csv')).toBe('Left 3 companies since 2024-01-01.csv');
    expect(searchExportName('a/b:c*?"<>|d.', 'xlsx')).toBe('a b c d.xlsx');
    expect(searchExportName('   ', 'csv')).toBe('search.csv');
  });

  it('sends the separator for CSV only, and the destination the save dialog gave', () => {
    expect(searchExportInput(3, { format: 'csv', delimiter: ';' }, null)).toEqual({ searchId: 3, format: 'csv', destination: null, delimiter: ';' });
    expect(searchExportInput(3, { format: 'xlsx', delimiter: ';' }, '/tmp/x.xlsx')).toEqual({ searchId: 3, format: 'xlsx', destination: '/tmp/x.xlsx' });
  });
});
