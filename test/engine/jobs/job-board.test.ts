import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Database } from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import type { JobProgress } from '../../../shared/contract';
import { EngineError } from '../../../electron/engine/engine-errors';
import { JobBoard } from '../../../electron/engine/jobs/job-board';
import { TextIndexJobs } from '../../../electron/engine/review/text-index-jobs';
import { openDatabase } from '../../../electron/engine/store';

const clock = { now: () => Date.parse('2026-01-01T00:00:00Z'), sleep: async () => undefined };
let dir: string | null = null;
let db: Database | null = null;

afterEach(() => {
  db?.close();
  db = null;
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = null;
});

function board(): { jobs: JobBoard; events: JobProgress[]; db: Database } {
  dir = mkdtempSync(join(tmpdir(), 'matchdesk-jobs-'));
  db = openDatabase(join(dir, 'm.sqlite'));
  db.prepare("INSERT INTO projects (name, status, created_at, updated_at) VALUES ('p', 'ready', 't', 't')").run();
  const events: JobProgress[] = [];
  return { jobs: new JobBoard(db, clock, (p) => events.push(p)), events, db };
}

describe('the job board', () => {
  it('ends a job done, failed or cancelled as its work ends, storing the kinds a resume goes on with', async () => {
    const { jobs, events, db } = board();
    expect(await jobs.run({ kind: 'refresh', projectId: 1, options: { concurrency: 2 } }, async (job) => (job.progress(5, 10, 'asking'), 'asked'))).toBe('asked');
    await expect(jobs.run({ kind: 'run', projectId: 1 }, async () => Promise.reject(new Error('disk')))).rejects.toThrow('disk');
    const cancelled = jobs.run({ kind: 'learn', projectId: 1 }, (job) => new Promise((_, reject) => job.signal.addEventListener('abort', () => reject(new EngineError('cancelled', 'stopped')))));
    expect(jobs.list(1)).toMatchObject([{ kind: 'learn', state: 'running' }]);
    expect(jobs.cancelKind(1, 'learn')).toBe(true);
    await expect(cancelled).rejects.toThrow('stopped');

    const rows = db.prepare('SELECT kind, state, options, done, total, phase, message FROM jobs ORDER BY id').all();
    expect(rows).toEqual([
      { kind: 'refresh', state: 'done', options: '{"concurrency":2}', done: 5, total: 10, phase: 'asking', message: null },
      { kind: 'run', state: 'failed', options: '{}', done: 0, total: 0, phase: '', message: 'disk' },
    ]);
    expect(events.map((e) => `${e.kind}:${e.state}`)).toEqual(['refresh:running', 'refresh:running', 'refresh:done', 'run:running', 'run:failed', 'learn:running', 'learn:cancelled']);
    expect(events.at(-1)).toMatchObject({ message: 'stopped' });
    expect(new Set(events.map((e) => e.jobId))).toEqual(new Set([1, 2, 3]));
    expect(jobs.list(1)).toEqual([]);
  });

  it('leaves a job that cannot stop be, and keeps paused ones listed but out of the kinds going', async () => {
    const { jobs } = board();
    const clearing = jobs.open({ kind: 'cacheClear', projectId: 1, cancellable: false });
    expect(jobs.cancel(clearing.id)).toBe(false);
    clearing.state('done');
    const run = jobs.open({ kind: 'run', projectId: 1, options: { offline: false } });
    run.state('paused', 'Paused.');
    expect(jobs.kinds(1)).toEqual([]);
    expect(jobs.list(1)).toMatchObject([{ kind: 'run', state: 'paused', message: 'Paused.' }]);
    expect(jobs.lastOptions(1, 'run')).toEqual({ offline: false });
  });

  it('opens work that must wait as queued, holding nothing up, and lets it run once admitted; a cancel while queued starts nothing', async () => {
    const { jobs, events } = board();
    // Admitted in the same turn: its first word is running.
    await jobs.run({ kind: 'accept', projectId: 1, queue: async (_signal, admitted) => admitted() }, async () => 'accepted');
    expect(events.map((e) => `${e.kind}:${e.state}`)).toEqual(['accept:running', 'accept:done']);

    let letGo = () => undefined as void;
    const stopped: string[] = [];
    const undo = jobs.run({ kind: 'undo', projectId: 1, stop: () => stopped.push('undo'), queue: (_signal, admitted) => new Promise<void>((resolve) => (letGo = () => (admitted(), resolve()))) }, async () => 'undone');
    expect(jobs.list(1)).toMatchObject([{ kind: 'undo', state: 'queued' }]);
    expect(jobs.kinds(1)).toEqual([]);
    letGo();
    expect(await undo).toBe('undone');
    expect(events.slice(2).map((e) => e.state)).toEqual(['queued', 'running', 'done']);

    let started = false;
    const learn = jobs.run(
      { kind: 'learn', projectId: 1, stop: () => stopped.push('learn'), queue: (signal) => new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve())) },
      async () => void (started = true),
    );
    expect(jobs.cancelKind(1, 'learn')).toBe(true);
    await expect(learn).rejects.toThrow('Cancelled before it started: nothing was changed.');
    expect(started).toBe(false);
    expect(events.at(-1)).toMatchObject({ kind: 'learn', state: 'cancelled' });
    // A queued job's own stop would reach the job of its kind it waits for: it is not called.
    await Promise.resolve();
    expect(stopped).toEqual([]);
  });

  it('finds jobs a crash cut off: a run or refresh paused to resume, anything else failed', () => {
    const { jobs, db } = board();
    jobs.open({ kind: 'refresh', projectId: 1 });
    jobs.open({ kind: 'run', projectId: 1 });
    JobBoard.markInterrupted(db, 'later', ['refresh']);
    expect(db.prepare('SELECT kind, state FROM jobs ORDER BY id').all()).toEqual([
      { kind: 'refresh', state: 'paused' },
      { kind: 'run', state: 'failed' },
    ]);
  });

  it('follows a text index fill from its first word to ready, in memory only', () => {
    const { jobs, events, db } = board();
    const fills = new TextIndexJobs(jobs, () => null, () => clock.now());
    fills.tell({ projectId: 1, phase: 'filling', rowsIndexed: 10, rowsTotal: 20 });
    expect(jobs.list(1)).toMatchObject([{ kind: 'textIndex', state: 'running', done: 10, total: 20 }]);
    fills.tell({ projectId: 1, phase: 'ready', rowsIndexed: 20, rowsTotal: 20 });
    expect(jobs.list(1)).toEqual([]);
    expect(events.at(-1)).toMatchObject({ kind: 'textIndex', state: 'done', done: 20 });
    expect(db.prepare('SELECT count(*) FROM jobs').pluck().get()).toBe(0);
  });
});
