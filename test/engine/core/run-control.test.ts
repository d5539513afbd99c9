import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RunProgress } from '../../../shared/contract';
import type { Clock } from '../../../electron/engine/clock';
import type { Engine } from '../../../electron/engine/engine';
import type { Simulator } from '../../../electron/simulator';
import { onJobDetail } from '../../support/job-events';
import { connect, eventually, ok, openEngine, runToEnd, startSim, tempDir, timesAsked, writeCsv } from './helpers';

/** A latency past the test's timeout (vitest.config.ts): a call sent then is never answered within the test. */
const HELD_LONGER_THAN_A_TEST_MS = 300_000;

/** Real time, but the client's backoff waits return at once: retries of a failing service take milliseconds. */
const noWaitClock: Clock = { now: () => Date.now(), sleep: async () => undefined };

let tmp: ReturnType<typeof tempDir>;
let sim: Simulator | null = null;
let engine: Engine | null = null;
const dataDir = () => join(tmp.dir, 'data');

beforeEach(() => {
  tmp = tempDir();
});
afterEach(async () => {
  await engine?.close();
  await sim?.close();
  engine = null;
  sim = null;
  tmp.remove();
});

async function setUp(simOptions: Parameters<typeof startSim>[0] = {}) {
  sim = await startSim(simOptions);
  engine = await openEngine(dataDir(), { clock: noWaitClock });
  await connect(engine, sim);
  return { sim, engine };
}

/** One row per known person, asked by e-mail: each row is one distinct query. */
async function importEmails(e: Engine, s: Simulator, count: number, name = 'emails') {
  const rows = s.dataset.people.slice(0, count).map((p) => [p.name, p.email_address]);
  const file = writeCsv(join(tmp.dir, `${name}.csv`), ['Name', 'Email'], rows);
  return (await ok(e, 'projects.import', { file })).summary;
}

function until(e: Engine, projectId: number, test: (p: RunProgress) => boolean): Promise<RunProgress> {
  return new Promise((resolve) => {
    const off = onJobDetail(
      e,
      'run',
      (p) => {
        if (!test(p)) return;
        off();
        resolve(p);
      },
      projectId,
    );
  });
}

/** Cancels the project's run (job.cancel), and how it stands after. */
async function cancelRun(e: Engine, projectId: number): Promise<RunProgress | null> {
  expect(await ok(e, 'job.cancel', { projectId, kind: 'run' })).toEqual({ cancelled: true });
  return ok(e, 'run.status', { projectId });
}

describe('stopping and failing', () => {
  it('stops cleanly when the organization runs out of credits (402), keeping what landed', async () => {
    const { sim, engine } = await setUp({ creditBudget: 150 });
    const project = await importEmails(engine, sim, 500);
    const end = await runToEnd(engine, project.id);
    expect(end.status).toBe('out_of_credits');
    expect(end.message).toMatch(/out of credits/i);
    expect(end.stopKind).toBe('payment_required');
    expect(end.rowsResolved).toBe(100);
    const page = await ok(engine, 'review.page', { projectId: project.id, offset: 0, limit: 1 });
    expect(page.counts.auto).toBe(100);
    expect(page.counts.pending).toBe(400);
    expect(page.counts.error).toBe(0);

    const status = await ok(engine, 'run.status', { projectId: project.id });
    expect(status).toMatchObject({ status: 'out_of_credits', runId: end.runId });
    // Resuming without new credits stops the same way, and nothing that landed is lost or asked again.
    await ok(engine, 'run.resume', { projectId: project.id });
    const again = await engine.runSettled(project.id);
    expect(again!.status).toBe('out_of_credits');
    expect(again!.runId).toBe(end.runId);
    expect(timesAsked(sim).every((n) => n === 1)).toBe(true);
  });

  it('says a run stopped by tokens the service refuses was stopped by them, so a host can say to check the account', async () => {
    const { sim, engine } = await setUp();
    const project = await importEmails(engine, sim, 250);
    // Every call revokes every token issued so far: the fresh token of each retry too.
    sim.setFaults({ revokeEveryCalls: 1 });
    const end = await runToEnd(engine, project.id);
    expect(end.status).toBe('failed');
    expect(end.message).toMatch(/refused a fresh access token \(HTTP 401\)/);
    expect(end.stopKind).toBe('unauthorized');
    sim.setFaults('none');
    await ok(engine, 'run.resume', { projectId: project.id });
    const again = await engine.runSettled(project.id);
    expect(again).toMatchObject({ status: 'done', rowsResolved: 250 });
    expect(again!.stopKind).toBeUndefined();
  });

  it('marks the queries of a failed call as errors and retries them in the next run', async () => {
    const { sim, engine } = await setUp();
    const project = await importEmails(engine, sim, 250);
    sim.setFaults('outage');
    const failed = await runToEnd(engine, project.id);
    expect(failed.status).toBe('done');
    expect(failed.errors).toBe(250);
    expect(failed.message).toMatch(/250 queries failed/);
    const failures = await ok(engine, 'run.failures', { projectId: project.id });
    expect(failures).toHaveLength(250);
    expect(failures[0]).toMatchObject({ strategy: 'email', rows: 1, terms: `email_address = ${sim.dataset.people[0]!.email_address}` });
    expect(failures[0]!.error).toMatch(/HTTP 50\d/);
    const row = await ok(engine, 'review.row', { projectId: project.id, rowIndex: 0 });
    expect(row.state).toBe('error');
    expect(row.error).toMatch(/HTTP 50\d/);
    expect((await ok(engine, 'cache.stats')).errors).toBe(250);

    // Error lookups are no cache hits: the next run asks again.
    expect(await ok(engine, 'run.preview', { projectId: project.id })).toMatchObject({ distinctQueries: 250, cachedFresh: 0, toFetch: 250 });
    sim.setFaults('none');
    const retried = await runToEnd(engine, project.id);
    expect(retried).toMatchObject({ status: 'done', errors: 0, calls: 3 });
    expect(await ok(engine, 'run.failures', { projectId: project.id })).toEqual([]);
    expect(timesAsked(sim)).toHaveLength(250);
    expect(timesAsked(sim).every((n) => n === 1)).toBe(true);
  });

  it('settles rows from the stale answer on file when its refresh fails, and keeps that answer', async () => {
    const { sim, engine } = await setUp();
    const first = await importEmails(engine, sim, 150, 'first');
    expect(await runToEnd(engine, first.id)).toMatchObject({ status: 'done', errors: 0 });
    const answered = await ok(engine, 'review.page', { projectId: first.id, offset: 0, limit: 150 });

    // Every answer is now stale, and the service is down: each refresh fails.
    await ok(engine, 'settings.update', { cacheTtlDays: 0 });
    sim.setFaults('outage');
    const again = await importEmails(engine, sim, 150, 'again');
    const end = await runToEnd(engine, again.id);
    expect(end).toMatchObject({ status: 'done', errors: 0, rowsResolved: 150, cacheHits: 0 });
    expect(end.calls).toBe(2);
    const page = await ok(engine, 'review.page', { projectId: again.id, offset: 0, limit: 150 });
    expect(page.counts).toEqual(answered.counts);
    expect(page.rows.map((r) => [r.state, r.candidateCount, r.top?.id ?? null, r.chosenRank])).toEqual(
      answered.rows.map((r) => [r.state, r.candidateCount, r.top?.id ?? null, r.chosenRank]),
    );
    // The failed refresh recorded no error over the answers it could not replace.
    expect(await ok(engine, 'cache.stats')).toMatchObject({ errors: 0 });
  });

  it('rides out access tokens revoked mid-run: turned-away calls are asked again, each query answered once', async () => {
    const { sim, engine } = await setUp();
    const project = await importEmails(engine, sim, 1500);
    // Every third call revokes every token. With four calls on the wire, every second call would revoke a fresh
    // token before its one retry arrived, time after time, and the run rightly stops after five such refusals in a row.
    sim.setFaults({ revokeEveryCalls: 3 });
    const end = await runToEnd(engine, project.id);
    expect(end, end.message ?? '').toMatchObject({ status: 'done', errors: 0, rowsResolved: 1500 });
    expect(sim.counters().faults.revoked).toBeGreaterThan(0);
    expect(timesAsked(sim)).toHaveLength(1500);
    expect(timesAsked(sim).every((n) => n === 1)).toBe(true);
  });

  it('fails the run with the reason when the login is refused, instead of marking every query', async () => {
    const { sim, engine } = await setUp();
    const project = await importEmails(engine, sim, 20);
    const profile = (await ok(engine, 'profiles.list'))[0]!;
    await ok(engine, 'profiles.save', { ...profile, secret: 'wrong-secret' });
    const end = await runToEnd(engine, project.id);
    expect(end.status).toBe('failed');
    expect(end.message).toMatch(/Login failed/);
    const page = await ok(engine, 'review.page', { projectId: project.id, offset: 0, limit: 1 });
    expect(page.counts.pending).toBe(20);
    expect(page.counts.error).toBe(0);
  });
});

describe('pause, resume, cancel', () => {
  it('pauses (calls in flight land), resumes where it stopped, and asks every query once', async () => {
    const { sim, engine } = await setUp({ latencyMs: 60 });
    await ok(engine, 'settings.update', { concurrency: 1 });
    const project = await importEmails(engine, sim, 1500);
    await ok(engine, 'run.start', { projectId: project.id });
    await until(engine, project.id, (p) => p.calls >= 2);
    const paused = await ok(engine, 'run.pause', { projectId: project.id });
    expect(paused!.status).toBe('paused');
    const callsAtPause = sim.counters().findCalls;
    expect(paused!.calls).toBe(callsAtPause);
    expect(paused!.rowsResolved).toBe(paused!.calls * 100);
    await new Promise((r) => setTimeout(r, 200));
    expect(sim.counters().findCalls).toBe(callsAtPause);
    expect((await ok(engine, 'run.status', { projectId: project.id }))!.status).toBe('paused');

    const resumed = await ok(engine, 'run.resume', { projectId: project.id });
    expect(resumed).toMatchObject({ status: 'running', runId: paused!.runId });
    const end = await engine.runSettled(project.id);
    expect(end).toMatchObject({ status: 'done', calls: 15, rowsResolved: 1500 });
    expect(timesAsked(sim)).toHaveLength(1500);
    expect(timesAsked(sim).every((n) => n === 1)).toBe(true);
    // Nothing left to resume.
    expect(await ok(engine, 'run.resume', { projectId: project.id })).toBeNull();
  });

  it('cancels at once, abandoning calls in flight; their rows stay waiting for the next run', async () => {
    const { sim, engine } = await setUp({ latencyMs: 400 });
    await ok(engine, 'settings.update', { concurrency: 2 });
    // Calls are sent as earlier ones land, before those are committed and counted: on a busy machine the first count
    // came after the last of 6 calls was sent, and no call was left to hold. Of 20, a count that late leaves many.
    const calls = 20;
    const project = await importEmails(engine, sim, calls * 100);
    await ok(engine, 'run.start', { projectId: project.id });
    await until(engine, project.id, (p) => p.calls >= 2);
    // From here the service holds each new call longer than a test may last: a cancel that waited for the call in
    // flight would hang the test instead of returning.
    sim.setLatency(HELD_LONGER_THAN_A_TEST_MS);
    const sent = sim.counters().findCalls;
    expect(sent).toBeLessThan(calls);
    await eventually(() => sim.counters().findCalls > sent, 60_000);
    const cancelled = await cancelRun(engine, project.id);
    expect(cancelled!.status).toBe('cancelled');
    const counts = (await ok(engine, 'review.page', { projectId: project.id, offset: 0, limit: 1 })).counts;
    expect(counts.auto).toBe(cancelled!.calls * 100);
    expect(counts.pending).toBe(calls * 100 - cancelled!.calls * 100);

    sim.setLatency(0);
    const end = await runToEnd(engine, project.id);
    expect(end.status).toBe('done');
    expect(end.calls).toBe(calls - cancelled!.calls);
    const after = (await ok(engine, 'review.page', { projectId: project.id, offset: 0, limit: 1 })).counts;
    expect(after.auto).toBe(calls * 100);
  });

  it('cancels a paused run: nothing is left to resume, and a new start finishes what had not landed', async () => {
    const { sim, engine } = await setUp({ latencyMs: 60 });
    await ok(engine, 'settings.update', { concurrency: 1 });
    const project = await importEmails(engine, sim, 800);
    const events: string[] = [];
    onJobDetail(engine, 'run', (p) => events.push(p.status));
    await ok(engine, 'run.start', { projectId: project.id });
    await until(engine, project.id, (p) => p.calls >= 2);
    const paused = await ok(engine, 'run.pause', { projectId: project.id });
    expect(paused!.status).toBe('paused');

    const cancelled = await cancelRun(engine, project.id);
    expect(cancelled).toMatchObject({ status: 'cancelled', runId: paused!.runId, calls: paused!.calls });
    expect(events.at(-1)).toBe('cancelled');
    expect((await ok(engine, 'run.status', { projectId: project.id }))!.status).toBe('cancelled');
    expect(await ok(engine, 'run.resume', { projectId: project.id })).toBeNull();

    sim.setLatency(0);
    const end = await runToEnd(engine, project.id);
    expect(end).toMatchObject({ status: 'done', rowsResolved: 800 });
    expect(end.runId).not.toBe(paused!.runId);
    expect(timesAsked(sim)).toHaveLength(800);
    expect(timesAsked(sim).every((n) => n === 1)).toBe(true);
  });

  it('refuses a new mapping or a second start while running, and deleting the project cancels its run first', async () => {
    const { sim, engine } = await setUp({ latencyMs: 200 });
    await ok(engine, 'settings.update', { concurrency: 1 });
    const project = await importEmails(engine, sim, 500);
    await ok(engine, 'run.start', { projectId: project.id });
    const busy = await engine.call('mapping.save', { projectId: project.id, mapping: { email: 1 }, strategies: ['email'] });
    expect(busy.ok ? null : busy.error.kind).toBe('busy');
    const again = await engine.call('run.start', { projectId: project.id });
    expect(again.ok ? null : again.error.kind).toBe('busy');
    await ok(engine, 'projects.delete', { projectId: project.id });
    expect(await ok(engine, 'projects.list')).toEqual([]);
    expect(await engine.runSettled(project.id).catch((e: Error) => e.message)).toMatch(/not found/);
  });

  it('a run cut off by closing Matchdesk resumes after a restart without asking again what had landed', async () => {
    const first = await setUp({ latencyMs: 60 });
    sim = first.sim;
    await ok(first.engine, 'settings.update', { concurrency: 2 });
    const project = await importEmails(first.engine, sim, 1200);
    await ok(first.engine, 'run.start', { projectId: project.id });
    await until(first.engine, project.id, (p) => p.calls >= 3);
    await first.engine.close();
    engine = null;
    const landed = sim.counters().queries;
    expect(timesAsked(sim).every((n) => n === 1)).toBe(true);

    // As if the process had been killed instead: the run is still marked running in the file.
    const db = new Database(join(dataDir(), 'matchdesk.sqlite'));
    db.prepare("UPDATE runs SET status = 'running'").run();
    db.close();

    engine = await openEngine(dataDir(), { clock: noWaitClock });
    const profile = (await ok(engine, 'profiles.list'))[0]!;
    // Session-only secrets do not survive a restart: the user enters it again.
    await ok(engine, 'profiles.save', { ...profile, secret: sim.demo.clientSecret });
    const status = await ok(engine, 'run.status', { projectId: project.id });
    expect(status).toMatchObject({ status: 'paused', rowsResolved: landed });
    expect(status!.message).toMatch(/Interrupted/);
    expect(await ok(engine, 'run.preview', { projectId: project.id })).toMatchObject({ toFetch: 1200 - landed });

    await ok(engine, 'run.resume', { projectId: project.id });
    const end = await engine.runSettled(project.id);
    expect(end).toMatchObject({ status: 'done', rowsResolved: 1200 });
    expect(timesAsked(sim)).toHaveLength(1200);
    expect(timesAsked(sim).every((n) => n === 1)).toBe(true);
  });
});
