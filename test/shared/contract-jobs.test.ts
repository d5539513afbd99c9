import { describe, expect, it } from 'vitest';
import { EVENT_NAMES, JOB_KINDS, calls, type CallName, type JobProgress } from '../../shared/contract';
import { detailOf, jobEnded } from '../../shared/job-detail';

describe('the contract: one progress event and one cancel', () => {
  it('has exactly one progress event, job.progress', () => {
    expect(EVENT_NAMES.filter((name) => /progress|textIndex/i.test(name))).toEqual(['job.progress']);
  });

  it('names no cancel call but job.cancel, and no "under way" call', () => {
    const names = Object.keys(calls) as CallName[];
    expect(names.filter((name) => /\.cancel$|cancelAccept$|cancelImport$/.test(name))).toEqual(['job.cancel']);
    expect(names.filter((name) => /[uU]nderWay$/.test(name))).toEqual([]);
  });

  it('cancels by job id, by project and kind, an import by its file and a search by its id; nothing else', () => {
    const input = calls['job.cancel'].input;
    for (const good of [{ jobId: 3 }, { projectId: 1, kind: 'run' }, { kind: 'import', file: 'people.csv' }, { kind: 'search', searchId: 2 }]) {
      expect(input.safeParse(good).success, JSON.stringify(good)).toBe(true);
    }
    for (const bad of [{}, { kind: 'run' }, { kind: 'export', file: 'people.csv' }, { kind: 'import', searchId: 2 }, { jobId: 3, projectId: 1 }, { projectId: 1, kind: 'nap' }]) {
      expect(input.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
    }
    expect(JOB_KINDS).toContain('search');
  });

  it('lists the jobs of a project, or those of a kind on no project', () => {
    const input = calls['job.list'].input;
    expect(input.safeParse({ projectId: 1 }).success).toBe(true);
    expect(input.safeParse({ kind: 'import' }).success).toBe(true);
    expect(input.safeParse({}).success).toBe(false);
    expect(input.safeParse({ kind: 'import', projectId: 1 }).success).toBe(false);
  });

  it('reads a job event per kind: the detail of the kinds asked for (and the project), null for any other', () => {
    const common = { jobId: 1, projectId: 7, state: 'running', done: 10, total: 40, phase: 'matches', startedAt: 'a', updatedAt: 'b', message: null } as const;
    const exporting: JobProgress = { ...common, kind: 'export', detail: { projectId: 7, choice: { format: 'csv', scope: 'all', candidates: false, bom: true, delimiter: ',' }, part: 'matches', rowsDone: 10, rowsTotal: 40 } };
    expect(detailOf(exporting, 'export')).toBe(exporting.detail);
    expect(detailOf(exporting, ['plan', 'export'], 7)).toBe(exporting.detail);
    expect(detailOf(exporting, 'export', 8)).toBeNull();
    expect(detailOf(exporting, 'plan')).toBeNull();
    expect(detailOf({ ...exporting, detail: null }, 'export')).toBeNull();
    expect(jobEnded(exporting)).toBe(false);
    expect(['done', 'failed', 'cancelled'].map((state) => jobEnded({ state: state as JobProgress['state'] }))).toEqual([true, true, true]);
    expect(jobEnded({ state: 'paused' })).toBe(false);
  });
});
