import { describe, expect, it } from 'vitest';
import type { ImportantChangesFound, PersonChange } from '../../shared/contract';
import { changeCountWords, changesExportName, countChanges, importantNotice, jobWords, unseenWords } from '../../renderer/src/features/changes/change-text';
import { rowMarked, valuesMarking } from '../../renderer/src/features/changes/important-marks';
import { sinceChoices, startOfQuarter, validDay } from '../../renderer/src/features/changes/since-day';
import { lastResultWords, scheduleWords, shortDay, watchLine } from '../../renderer/src/features/changes/watch-text';

const NOW = Date.parse('2026-11-29T10:00:00Z');

const change = (over: Partial<PersonChange>): PersonChange => ({
  rowIndex: 0,
  rowNumber: 2,
  cells: [],
  personName: 'Ana Lima',
  personId: 'p1',
  kind: 'moved',
  from: { company: 'Globex Inc.', title: 'CTO' },
  to: { company: 'Hooli', title: 'VP Sales' },
  changeDate: '2026-10-01',
  detectedAt: '2026-11-02T08:00:00.000Z',
  important: true,
  ...over,
});

describe('a watch in words', () => {
  it('says its schedule', () => {
    expect(scheduleWords({ everyDays: 1, weekday: null })).toBe('Every day');
    expect(scheduleWords({ everyDays: 30, weekday: null })).toBe('Every 30 days');
    expect(scheduleWords({ everyDays: null, weekday: 1 })).toBe('Weekly on Monday');
  });

  it('names the next day as the projects list shows it (UTC), with the year only when it is another', () => {
    expect(shortDay('2026-12-07T00:00:00.000Z', NOW)).toBe('Mon 7 Dec');
    expect(shortDay('2027-01-04T00:00:00.000Z', NOW)).toBe('Mon 4 Jan 2027');
  });

  it('shortens the engine’s result of a refresh to what happened, and keeps any other outcome in its words', () => {
    expect(lastResultWords('120 people asked: 4 moved, 1 left, 0 changed title.')).toBe('4 moved, 1 left');
    expect(lastResultWords('120 people asked: 0 moved, 0 left, 0 changed title.')).toBe('no change');
    expect(lastResultWords('refreshing')).toBe('refreshing now');
    expect(lastResultWords('Paused; the next due run goes on with it.')).toBe('Paused; the next due run goes on with it.');
    expect(lastResultWords(null)).toBeNull();
  });

  it('puts the next refresh and the last result on one line', () => {
    const watch = { nextRefreshAt: '2026-12-07T00:00:00.000Z', due: false, lastResult: '120 people asked: 4 moved, 1 left, 0 changed title.' };
    expect(watchLine(watch, NOW)).toBe('next Mon 7 Dec · last: 4 moved, 1 left');
    expect(watchLine({ ...watch, lastResult: null }, NOW)).toBe('next Mon 7 Dec');
    expect(watchLine({ ...watch, due: true }, NOW)).toBe('due now · last: 4 moved, 1 left');
  });
});

describe('the changes not seen yet, in words', () => {
  it('follows the count with what they are, and how many are important only when some are', () => {
    expect(unseenWords(1, 0)).toBe('change not seen yet');
    expect(unseenWords(12, 0)).toBe('changes not seen yet');
    expect(unseenWords(1200, 1005)).toBe('changes not seen yet, 1,005 important');
  });
});

describe('the day changes are listed since', () => {
  it('offers the start of the quarter, 30 days ago, and the last refresh’s day once there was one', () => {
    expect(startOfQuarter(NOW)).toBe('2026-10-01');
    expect(startOfQuarter(Date.parse('2026-03-31T23:00:00Z'))).toBe('2026-01-01');
    expect(sinceChoices(NOW, null).map((c) => [c.preset, c.day])).toEqual([
      ['quarter', '2026-10-01'],
      ['days30', '2026-10-30'],
    ]);
    expect(sinceChoices(NOW, '2026-11-02T08:00:00.000Z').at(-1)).toEqual({ preset: 'lastRefresh', label: 'Last refresh', day: '2026-11-02' });
  });

  it('takes a typed day only when it exists', () => {
    expect(validDay('2026-02-28')).toBe('2026-02-28');
    for (const text of ['2026-02-30', '2026-13-01', '29/11/2026', '', '2026-1-1']) expect(validDay(text)).toBeNull();
  });
});

describe('changes in words', () => {
  it('says a job as title at company, and none as no current job', () => {
    expect(jobWords({ company: 'Hooli', title: 'VP Sales' })).toBe('VP Sales at Hooli');
    expect(jobWords({ company: 'Hooli', title: null })).toBe('Hooli');
    expect(jobWords({ company: null, title: null })).toBe('no current job');
  });

  it('counts only the kinds there are', () => {
    const counts = countChanges([change({}), change({ kind: 'left' }), change({ kind: 'moved' })]);
    expect(counts).toEqual({ moved: 2, left: 1, title: 0 });
    expect(changeCountWords(counts)).toBe('2 moved, 1 left');
    expect(changeCountWords({ moved: 0, left: 0, title: 0 })).toBe('no changes');
  });

  it('names the first important people in the notification, and how many more', () => {
    const found = (changes: PersonChange[]): ImportantChangesFound => ({ projectId: 1, projectName: 'Champions', refreshId: 3, changes });
    expect(importantNotice(found([change({})]))).toEqual({
      title: 'Champions: 1 important person moved',
      body: "Ana Lima moved to Hooli. See the project's changes.",
    });
    const many = [change({}), change({ personName: 'Bo Chen', kind: 'left', to: { company: null, title: null } }), change({ personName: null, rowNumber: 9 }), change({}), change({})];
    const notice = importantNotice(found(many));
    expect(notice.title).toBe('Champions: 5 important people moved or left');
    expect(notice.body).toBe("Ana Lima moved to Hooli; Bo Chen left Globex Inc.; Row 9 moved to Hooli; and 2 more. See the project's changes.");
    expect(importantNotice(found([change({ kind: 'left' })])).title).toBe('Champions: 1 important person left');
  });

  it('names the CRM file after the project and the day, safe on every OS', () => {
    expect(changesExportName('crm: Q4/Tier A.xlsx', '2026-10-01', 'csv')).toBe('crm Q4 Tier A - changes since 2026-10-01.csv');
    expect(changesExportName('\u0000', '2026-10-01', 'xlsx')).toBe('matchdesk - changes since 2026-10-01.xlsx');
  });
});

describe('rows marked important', () => {
  it('by themselves, or by a column value compared trimmed and case-folded, as the engine does', () => {
    const marks = { rows: [4], values: [{ columnIndex: 2, value: 'a' }] };
    expect(rowMarked(marks, 4)).toBe(true);
    expect(rowMarked(marks, 5)).toBe(false);
    expect(valuesMarking(marks, ['Ana', 'x', ' A '])).toEqual([{ columnIndex: 2, value: 'a' }]);
    expect(valuesMarking(marks, ['Ana', 'x', 'B'])).toEqual([]);
  });
});
