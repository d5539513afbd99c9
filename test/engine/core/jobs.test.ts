import { existsSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import type { JobKind, JobProgress, PlanProgress } from '../../../shared/contract';
import type { Engine } from '../../../electron/engine/engine';
import { onJobDetail } from '../../support/job-events';
import { EngineOnSim, jobEvents } from '../jobs/engine-on-sim';
import { fails, ok } from './helpers';

// Every long piece of work is a job: one progress event (job.progress) of one shape, one lifecycle, one cancel
// (job.cancel), and job.list for a screen opened meanwhile.

const JOB_KEYS = ['jobId', 'kind', 'projectId', 'state', 'done', 'total', 'phase', 'startedAt', 'updatedAt', 'message', 'detail'].sort();
const MAPPING = { fullName: 0, company: 1 };

const fixture = new EngineOnSim();

async function setUp(latencyMs = 0): Promise<{ engine: Engine; events: JobProgress[] }> {
  const engine = await fixture.start({ latencyMs });
  return { engine, events: jobEvents(engine) };
}

/** A sheet of `rows` people (name and current company), repeated as needed. */
const sheet = (rows: number) => fixture.sheet(rows);

/** Cancels the first job of `kind` as soon as it says it is running, through job.cancel (by id, or by project and kind). */
function cancelFirst(engine: Engine, kind: JobKind, by: 'id' | 'kind' = 'id'): Promise<boolean> {
  return new Promise((resolve) => {
    const off = engine.on('job.progress', (p) => {
      if (p.kind !== kind || p.state !== 'running') return;
      off();
      const input = by === 'id' || p.projectId === null ? { jobId: p.jobId } : { projectId: p.projectId, kind };
      void ok(engine, 'job.cancel', input).then((r) => resolve(r.cancelled));
    });
  });
}

function lastOf(events: JobProgress[], kind: JobKind): JobProgress | undefined {
  return events.filter((e) => e.kind === kind).at(-1);
}

describe('jobs', () => {
  it('tells every kind of work with one event shape, one lifecycle, and lists what is under way', async () => {
    const { engine, events } = await setUp();
    const projectId = (await ok(engine, 'projects.import', { file: sheet(300) })).summary.id;
    await ok(engine, 'mapping.save', { projectId, mapping: MAPPING, strategies: ['name+company'] });
    await ok(engine, 'run.start', { projectId, offline: false, autoAccept: false });
    const listed = await ok(engine, 'job.list', { projectId });
    expect(listed.map((j) => j.kind)).toContain('run');
    expect(listed.find((j) => j.kind === 'run')).toMatchObject({ projectId, state: 'running' });
    expect((await engine.runSettled(projectId))!.status).toBe('done');
    await ok(engine, 'decisions.acceptAtOrAbove', { projectId, minConfidence: 0.5 });
    await ok(engine, 'decisions.undo', { projectId });
    await ok(engine, 'learning.learn', { projectId });
    await ok(engine, 'export.run', { projectId, scope: 'all', format: 'csv' });
    await ok(engine, 'refresh.start', { projectId });
    await engine.refreshSettled(projectId);
    await ok(engine, 'cache.clear');

    for (const event of events) expect(Object.keys(event).sort()).toEqual(JOB_KEYS);
    const kinds: JobKind[] = ['import', 'plan', 'run', 'accept', 'undo', 'learn', 'export', 'refresh', 'cacheClear'];
    for (const kind of kinds) {
      const mine = events.filter((e) => e.kind === kind);
      expect(mine.length, kind).toBeGreaterThan(0);
      expect(mine[0].state, kind).toBe('running');
      expect(mine.at(-1)!.state, kind).toBe('done');
      // Each job keeps its one id from first word to last.
      expect(new Set(mine.map((e) => e.jobId)).size, kind).toBe(1);
    }
    expect(lastOf(events, 'run')!.done).toBe(300);
    expect(lastOf(events, 'cacheClear')!.projectId).toBeNull();
    expect(await ok(engine, 'job.list', { projectId })).toEqual([]);
  });

  it('cancels an import, a plan, a run, an export and a refresh through job.cancel, each leaving what it leaves', async () => {
    const { engine, events } = await setUp(20);
    const file = sheet(1000);

    // An import cancelled leaves no project.
    const importCancelled = cancelFirst(engine, 'import');
    expect(await fails(engine, 'projects.import', { file })).toMatchObject({ kind: 'cancelled' });
    expect(await importCancelled).toBe(true);
    expect(lastOf(events, 'import')!.state).toBe('cancelled');
    expect(await ok(engine, 'projects.list')).toEqual([]);

    // A plan cancelled keeps the mapping the project had.
    const projectId = (await ok(engine, 'projects.import', { file })).summary.id;
    const before = await ok(engine, 'projects.get', { projectId });
    const planCancelled = cancelFirst(engine, 'plan', 'kind');
    expect(await fails(engine, 'mapping.save', { projectId, mapping: MAPPING, strategies: ['name+company'] })).toMatchObject({ kind: 'cancelled' });
    expect(await planCancelled).toBe(true);
    expect(lastOf(events, 'plan')!.state).toBe('cancelled');
    expect((await ok(engine, 'projects.get', { projectId })).mapping).toEqual(before.mapping);

    // A run cancelled keeps what landed and leaves nothing to resume.
    await ok(engine, 'mapping.save', { projectId, mapping: MAPPING, strategies: ['name+company'] });
    const runCancelled = cancelFirst(engine, 'run', 'kind');
    await ok(engine, 'run.start', { projectId, offline: false });
    expect(await runCancelled).toBe(true);
    expect((await engine.runSettled(projectId))!.status).toBe('cancelled');
    expect(lastOf(events, 'run')!.state).toBe('cancelled');
    expect(await ok(engine, 'run.resume', { projectId })).toBeNull();

    // An export cancelled leaves no file.
    const target = join(fixture.dir, 'out.csv');
    const exportCancelled = cancelFirst(engine, 'export');
    expect(await fails(engine, 'export.run', { projectId, scope: 'all', format: 'csv', destination: target })).toMatchObject({ kind: 'cancelled' });
    expect(await exportCancelled).toBe(true);
    expect(lastOf(events, 'export')!.state).toBe('cancelled');
    expect(existsSync(target)).toBe(false);

    // A refresh cancelled: nothing left to resume.
    const runDone = await ok(engine, 'run.start', { projectId, offline: false });
    expect(runDone).not.toBeNull();
    await engine.runSettled(projectId);
    const refreshCancelled = cancelFirst(engine, 'refresh', 'kind');
    await ok(engine, 'refresh.start', { projectId });
    expect(await refreshCancelled).toBe(true);
    expect((await engine.refreshSettled(projectId))!.status).toBe('cancelled');
    expect(lastOf(events, 'refresh')!.state).toBe('cancelled');
    expect(await ok(engine, 'job.list', { projectId })).toEqual([]);
  });

  it('a refresh resumed after a crash goes on under the options it started with, whatever the settings say', async () => {
    const { engine: first } = await setUp(40);
    await ok(first, 'settings.update', { concurrency: 1 });
    const projectId = (await ok(first, 'projects.import', { file: sheet(150) })).summary.id;
    await ok(first, 'mapping.save', { projectId, mapping: MAPPING, strategies: ['name+company'] });
    await ok(first, 'run.start', { projectId, offline: false });
    await first.runSettled(projectId);
    const asked = new Promise<void>((resolve) => {
      const off = onJobDetail(first, 'refresh', (p) => p.peopleDone >= 2 && (off(), resolve()));
    });
    await ok(first, 'refresh.start', { projectId });
    await asked;
    await fixture.close();
    // As if the process had been killed: the refresh and its job still marked running in the file.
    const dataDir = fixture.dataDir;
    const db = new Database(join(dataDir, 'matchdesk.sqlite'));
    db.prepare("UPDATE refreshes SET status = 'running'").run();
    db.prepare("UPDATE jobs SET state = 'running' WHERE kind = 'refresh'").run();
    db.close();

    const engine = await fixture.open();
    await ok(engine, 'settings.update', { concurrency: 6 });
    expect(await ok(engine, 'refresh.status', { projectId })).toMatchObject({ status: 'paused' });
    await ok(engine, 'refresh.resume', { projectId });
    expect((await engine.refreshSettled(projectId))!.status).toBe('done');

    const check = new Database(join(dataDir, 'matchdesk.sqlite'), { readonly: true });
    try {
      const jobs = check.prepare("SELECT state, options FROM jobs WHERE kind = 'refresh' ORDER BY id").all() as { state: string; options: string }[];
      // The first job was found cut off (paused); the resumed one went on under the first one's concurrency.
      expect(jobs.map((j) => j.state)).toEqual(['paused', 'done']);
      expect(JSON.parse(jobs[1].options)).toMatchObject({ concurrency: 1, olderThanDays: null });
      expect(JSON.parse(jobs[1].options).refreshId).toBe(JSON.parse(jobs[0].options).refreshId);
    } finally {
      check.close();
    }
  });

  it('a run and a refresh paused in an earlier session, cancelled by project and kind, end their stored jobs cancelled', async () => {
    const { engine: first } = await setUp(20);
    const ran = (await ok(first, 'projects.import', { file: sheet(300) })).summary.id;
    const refreshed = (await ok(first, 'projects.import', { file: sheet(150) })).summary.id;
    for (const projectId of [ran, refreshed]) await ok(first, 'mapping.save', { projectId, mapping: MAPPING, strategies: ['name+company'] });
    await ok(first, 'run.start', { projectId: refreshed, offline: false });
    await first.runSettled(refreshed);
    await ok(first, 'run.start', { projectId: ran, offline: false });
    await ok(first, 'run.pause', { projectId: ran });
    await ok(first, 'refresh.start', { projectId: refreshed });
    await ok(first, 'refresh.pause', { projectId: refreshed });
    await fixture.close();

    const engine = await fixture.open();
    const db = (engine as unknown as { db: Database.Database }).db;
    const stored = (kind: JobKind, projectId: number) => db.prepare('SELECT state, message FROM jobs WHERE kind = ? AND project_id = ? ORDER BY id').all(kind, projectId);
    expect(stored('run', ran)).toMatchObject([{ state: 'paused' }]);
    expect(stored('refresh', refreshed)).toMatchObject([{ state: 'paused' }]);
    expect(await ok(engine, 'job.cancel', { projectId: ran, kind: 'run' })).toEqual({ cancelled: true });
    expect(await ok(engine, 'job.cancel', { projectId: refreshed, kind: 'refresh' })).toEqual({ cancelled: true });
    const cancelled = { state: 'cancelled', message: 'Cancelled. Everything that had arrived is kept.' };
    expect(stored('run', ran)).toEqual([cancelled]);
    expect(stored('refresh', refreshed)).toEqual([cancelled]);
    // The finished run of the refreshed project stays as it ended.
    expect(stored('run', refreshed)).toEqual([{ state: 'done', message: null }]);
    expect(await ok(engine, 'run.status', { projectId: ran })).toMatchObject({ status: 'cancelled' });
    expect(await ok(engine, 'refresh.status', { projectId: refreshed })).toMatchObject({ status: 'cancelled' });
  });

  it('a read waits on the plan a project needs, shown as a job, and on a ready project writes nothing', async () => {
    const { engine, events } = await setUp();
    const projectId = (await ok(engine, 'projects.import', { file: sheet(400) })).summary.id;
    // Never planned: the page waits for a plan job, which says how far it is before the page comes.
    const page = await ok(engine, 'review.page', { projectId, offset: 0, limit: 10 });
    expect(page.rows).toHaveLength(10);
    const plan = events.filter((e) => e.kind === 'plan' && e.projectId === projectId);
    expect(plan[0]).toMatchObject({ state: 'running', phase: 'planning queries' });
    expect(plan.at(-1)).toMatchObject({ state: 'done', done: 400, total: 400 });

    await ok(engine, 'mapping.save', { projectId, mapping: MAPPING, strategies: ['name+company'] });
    await ok(engine, 'run.start', { projectId, offline: false, autoAccept: false });
    await engine.runSettled(projectId);
    // Once: a first read sorted by confidence looks whether any row needs its verdict (none does here).
    await ok(engine, 'review.page', { projectId, offset: 0, limit: 10, order: 'confidence_desc' });
    const db = (engine as unknown as { db: Database.Database }).db;
    const changes = () => db.prepare('SELECT total_changes()').pluck().get() as number;
    const before = { changes: changes(), jobs: events.length };
    for (const order of ['file', 'confidence_desc', 'confidence_asc'] as const) await ok(engine, 'review.page', { projectId, offset: 10, limit: 20, order });
    await ok(engine, 'review.counts', { projectId });
    await ok(engine, 'review.row', { projectId, rowIndex: 3 });
    await ok(engine, 'review.groups', { projectId });
    await ok(engine, 'run.preview', { projectId, offline: false });
    await ok(engine, 'refresh.preview', { projectId });
    expect(changes()).toBe(before.changes);
    expect(events.length).toBe(before.jobs);
  });

  it('a plan says who started it: a mapping saved, a run, or a read', async () => {
    const { engine, events } = await setUp();
    const [read, saved, ran] = [sheet(120), sheet(130), sheet(140)];
    const ids: number[] = [];
    for (const file of [read, saved, ran]) ids.push((await ok(engine, 'projects.import', { file })).summary.id);
    await ok(engine, 'review.page', { projectId: ids[0]!, offset: 0, limit: 10 });
    await ok(engine, 'mapping.save', { projectId: ids[1]!, mapping: MAPPING, strategies: ['name+company'] });
    await ok(engine, 'run.start', { projectId: ids[2]!, offline: false });
    await engine.runSettled(ids[2]!);
    const causes = ids.map((projectId) => [...new Set(events.filter((e) => e.kind === 'plan' && e.projectId === projectId && e.detail).map((e) => (e.detail as PlanProgress).startedBy))]);
    expect(causes).toEqual([['read'], ['mapping'], ['run']]);
  });

  it('refuses what the overlap table refuses, through the engine: a refresh while a run goes, a run while a refresh goes', async () => {
    const { engine } = await setUp(20);
    const projectId = (await ok(engine, 'projects.import', { file: sheet(300) })).summary.id;
    await ok(engine, 'mapping.save', { projectId, mapping: MAPPING, strategies: ['name+company'] });
    await ok(engine, 'run.start', { projectId, offline: false });
    expect(await fails(engine, 'refresh.start', { projectId })).toMatchObject({ kind: 'busy', message: 'A run of "people-300" is going. Pause or cancel it first.' });
    await engine.runSettled(projectId);
    await ok(engine, 'refresh.start', { projectId });
    expect(await fails(engine, 'run.start', { projectId, offline: false })).toMatchObject({ kind: 'busy', message: 'A refresh of "people-300" is going. Pause or cancel it first.' });
    expect(await fails(engine, 'mapping.save', { projectId, mapping: MAPPING, strategies: ['name+company'] })).toMatchObject({ kind: 'busy' });
    await engine.refreshSettled(projectId);
  });

  it("keeps a run's options once, in its job: its status shows them and its resume goes on under them", async () => {
    const { engine } = await setUp(20);
    const projectId = (await ok(engine, 'projects.import', { file: sheet(300) })).summary.id;
    await ok(engine, 'mapping.save', { projectId, mapping: MAPPING, strategies: ['name+company'] });
    await ok(engine, 'run.start', { projectId, offline: false, autoAccept: false });
    await ok(engine, 'run.pause', { projectId });
    const db = (engine as unknown as { db: Database.Database }).db;
    expect(db.prepare("SELECT name FROM pragma_table_info('runs')").pluck().all()).not.toContain('options');
    const runId = (await ok(engine, 'run.status', { projectId }))!.runId;
    const jobs = db.prepare("SELECT options FROM jobs WHERE kind = 'run'").pluck().all() as string[];
    expect(jobs).toHaveLength(1);
    expect(JSON.parse(jobs[0]!)).toMatchObject({ offline: false, runId, settings: { autoAccept: { enabled: false } } });
    await ok(engine, 'settings.update', { autoAccept: { enabled: true, minConfidence: 0.5, minLead: 0.1 } });
    expect((await ok(engine, 'run.status', { projectId }))!.autoAccept).toMatchObject({ enabled: false });
    const resumed = await ok(engine, 'run.resume', { projectId });
    expect(resumed!.autoAccept).toMatchObject({ enabled: false });
    expect((await engine.runSettled(projectId))!.status).toBe('done');
    expect(db.prepare("SELECT count(*) FROM row_status WHERE project_id = ? AND state = 'auto'").pluck().get(projectId)).toBe(0);
  });

  it('a new run started while another is paused ends that one\'s job and keeps its own options in a job of its own', async () => {
    const { engine, events } = await setUp(20);
    const projectId = (await ok(engine, 'projects.import', { file: sheet(300) })).summary.id;
    await ok(engine, 'mapping.save', { projectId, mapping: MAPPING, strategies: ['name+company'] });
    await ok(engine, 'run.start', { projectId, offline: false, autoAccept: false });
    await ok(engine, 'run.pause', { projectId });
    const first = lastOf(events, 'run')!;
    expect(first.state).toBe('paused');
    await ok(engine, 'run.start', { projectId, offline: false, minConfidence: 0.99 });
    expect(events.filter((e) => e.jobId === first.jobId).at(-1)).toMatchObject({ state: 'cancelled', message: 'A new run of the project was started instead.' });
    expect((await engine.runSettled(projectId))!.autoAccept).toMatchObject({ enabled: true, minConfidence: 0.99 });
    expect(lastOf(events, 'run')).toMatchObject({ state: 'done' });
    expect(lastOf(events, 'run')!.jobId).not.toBe(first.jobId);
  });
});
