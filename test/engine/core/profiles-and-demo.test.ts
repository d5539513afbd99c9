import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Engine } from '../../../electron/engine/engine';
import { SessionSecretStore } from '../../../electron/engine/secrets';
import type { Simulator } from '../../../electron/simulator';
import { fails, ok, openEngine, runToEnd, startSim, tempDir, writeCsv } from './helpers';

let tmp: ReturnType<typeof tempDir>;
let engine: Engine;
let sim: Simulator | null = null;

beforeEach(async () => {
  tmp = tempDir();
});
afterEach(async () => {
  await engine?.close();
  await sim?.close();
  sim = null;
  tmp.remove();
});

describe('profiles and secrets', () => {
  it('keeps secrets in the secret store only: never in any output, event or the data file', async () => {
    sim = await startSim();
    const secrets = new SessionSecretStore();
    engine = await openEngine(join(tmp.dir, 'data'), { secrets, exportDir: join(tmp.dir, 'exports') });
    const events: unknown[] = [];
    // Every job's progress, of every kind: a run's, an import's and the rest.
    engine.on('job.progress', (p) => events.push(p));

    const secret = sim.demo.clientSecret;
    const saved = await ok(engine, 'profiles.save', { name: 'Sim', baseUrl: sim.baseUrl, orgId: sim.orgId, kind: 'service_account', login: sim.demo.clientId, secret });
    expect(saved).toEqual({ id: saved.id, name: 'Sim', baseUrl: sim.baseUrl, orgId: sim.orgId, kind: 'service_account', login: sim.demo.clientId, createdAt: expect.any(String) });
    expect(await secrets.get(saved.id)).toBe(secret);
    const apiKey = await ok(engine, 'profiles.save', { name: 'Key', baseUrl: sim.baseUrl, orgId: sim.orgId, kind: 'api_key', login: 'ignored', secret: sim.demo.apiKey });
    expect(apiKey.login).toBeNull();
    const password = await ok(engine, 'profiles.save', {
      name: 'Password',
      baseUrl: sim.baseUrl,
      orgId: sim.orgId,
      kind: 'password',
      login: sim.demo.username,
      secret: sim.demo.password,
      sessionOnly: true,
    });
    for (const p of [saved, apiKey, password]) expect(await ok(engine, 'profiles.test', { id: p.id })).toEqual({ ok: true, reason: null, error: null });
    await ok(engine, 'profiles.select', { id: saved.id });

    const p = sim.dataset.people[0]!;
    const file = writeCsv(join(tmp.dir, 's.csv'), ['Name', 'Email'], [[p.name, p.email_address], ['X', 'x@nowhere.example']]);
    const project = (await ok(engine, 'projects.import', { file })).summary;
    await runToEnd(engine, project.id);
    const id = project.id;
    const outputs: unknown[] = [
      await ok(engine, 'app.info'),
      await ok(engine, 'profiles.list'),
      await ok(engine, 'settings.get'),
      await ok(engine, 'projects.list'),
      await ok(engine, 'projects.get', { projectId: id }),
      await ok(engine, 'run.preview', { projectId: id }),
      await ok(engine, 'run.status', { projectId: id }),
      await ok(engine, 'run.failures', { projectId: id }),
      await ok(engine, 'review.page', { projectId: id, offset: 0, limit: 10 }),
      await ok(engine, 'review.row', { projectId: id, rowIndex: 0 }),
      await ok(engine, 'cache.stats'),
      await ok(engine, 'export.run', { projectId: id, format: 'csv', scope: 'all', candidates: true }),
      events,
    ];
    // A failing login must not echo the secret either.
    await ok(engine, 'profiles.save', { ...saved, secret: `${secret}-wrong` });
    const failed = await ok(engine, 'profiles.test', { id: saved.id });
    expect(failed.ok).toBe(false);
    expect(failed.reason).toMatch(/Login failed/);
    expect(failed.error).toMatchObject({ kind: 'login_failed', message: failed.reason });
    outputs.push(failed, await fails(engine, 'profiles.save', { ...saved, kind: 'password', login: 'someone' }));

    const text = JSON.stringify(outputs);
    const files = [engine.dbPath, `${engine.dbPath}-wal`, ...readdirSync(join(tmp.dir, 'exports')).map((f) => join(tmp.dir, 'exports', f))];
    for (const s of [secret, sim.demo.apiKey, sim.demo.password]) {
      expect(text).not.toContain(s);
      for (const f of files) {
        let bytes = '';
        try {
          bytes = readFileSync(f, 'latin1');
        } catch {
          continue;
        }
        expect(bytes.includes(s), f).toBe(false);
      }
    }
  });

  it('checks profiles and says what is missing', async () => {
    engine = await openEngine(join(tmp.dir, 'data'));
    const base = { name: 'Real', baseUrl: 'https://example.invalid', orgId: 'o_test', kind: 'service_account' as const };
    expect((await fails(engine, 'profiles.save', { ...base, login: 'client', orgId: 'nope' })).kind).toBe('invalid_input');
    expect((await fails(engine, 'profiles.save', { ...base, login: null, secret: 's' })).message).toMatch(/client id/);
    expect((await fails(engine, 'profiles.save', { ...base, login: 'client' })).message).toMatch(/client secret/);
    const saved = await ok(engine, 'profiles.save', { ...base, login: 'client', secret: 'shh' });
    // Renaming keeps the stored secret.
    const renamed = await ok(engine, 'profiles.save', { ...base, id: saved.id, name: 'Renamed', login: 'client' });
    expect(renamed).toMatchObject({ id: saved.id, name: 'Renamed', createdAt: saved.createdAt });
    // Pointed at another host, it needs the secret again: the saved one is not sent anywhere else.
    for (const baseUrl of ['https://elsewhere.invalid', 'http://example.invalid', 'https://example.invalid:8443']) {
      expect((await fails(engine, 'profiles.save', { ...base, id: saved.id, login: 'client', baseUrl })).message).toBe(
        `Enter the client secret again: its saved one goes only to https://example.invalid, where it was entered, and this profile now points at ${new URL(baseUrl).origin}.`,
      );
    }
    // Another path on the same host keeps it, and a secret given with the new host is taken.
    await ok(engine, 'profiles.save', { ...base, id: saved.id, login: 'client', baseUrl: 'https://example.invalid/v2/' });
    const moved = await ok(engine, 'profiles.save', { ...base, id: saved.id, login: 'client', baseUrl: 'https://elsewhere.invalid', secret: 'new' });
    expect(moved.baseUrl).toBe('https://elsewhere.invalid');
    await ok(engine, 'profiles.save', { ...base, id: saved.id, login: 'client', secret: 'shh' });
    await ok(engine, 'profiles.select', { id: saved.id });
    expect((await fails(engine, 'profiles.select', { id: 'p_missing' })).kind).toBe('not_found');
    expect((await fails(engine, 'settings.update', { activeProfileId: 'p_missing' })).kind).toBe('not_found');
    await ok(engine, 'profiles.remove', { id: saved.id });
    expect(await ok(engine, 'profiles.list')).toEqual([]);
    expect((await ok(engine, 'settings.get')).activeProfileId).toBeNull();
  });

  it('settings and the cache', async () => {
    engine = await openEngine(join(tmp.dir, 'data'));
    expect(await ok(engine, 'settings.get')).toEqual({ concurrency: 4, cacheTtlDays: 30, autoAccept: { enabled: true, minConfidence: 0.95, minLead: 0.5 }, activeProfileId: null });
    expect(await ok(engine, 'settings.update', { concurrency: 8 })).toMatchObject({ concurrency: 8 });
    expect((await fails(engine, 'settings.update', { concurrency: 99 })).kind).toBe('invalid_input');
    expect(await ok(engine, 'cache.stats')).toEqual({ entries: 0, fresh: 0, stale: 0, errors: 0, bytes: 0 });
    expect(await ok(engine, 'cache.clear')).toEqual({ removed: 0 });
  });
});

describe('demo mode', () => {
  it('starts the simulator, selects a demo profile and imports the sample sheet, which then runs', async () => {
    engine = await openEngine(join(tmp.dir, 'data'));
    expect((await ok(engine, 'app.info')).demoRunning).toBe(false);
    const { profile, project } = await ok(engine, 'demo.start');
    expect(profile).toMatchObject({ name: 'Demo (local simulator)', kind: 'service_account', orgId: 'o_demo' });
    expect(profile.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(project.rowCount).toBe(322);
    expect((await ok(engine, 'settings.get')).activeProfileId).toBe(profile.id);
    expect((await ok(engine, 'app.info')).demoRunning).toBe(true);
    const detail = await ok(engine, 'projects.get', { projectId: project.id });
    expect(detail.mapping).toEqual({ fullName: 0, email: 1, profile: 2, company: 3 });

    const end = await runToEnd(engine, project.id);
    expect(end.status).toBe('done');
    const counts = (await ok(engine, 'review.page', { projectId: project.id, offset: 0, limit: 1 })).counts;
    expect(counts.auto).toBeGreaterThan(100);
    expect(counts.to_review).toBeGreaterThan(0);
    expect(counts.no_candidates).toBeGreaterThan(5);
    expect(counts.no_query).toBeGreaterThan(3);

    // Starting again reuses the profile and the project.
    const again = await ok(engine, 'demo.start');
    expect(again.profile.id).toBe(profile.id);
    expect(again.project.id).toBe(project.id);
    expect(await ok(engine, 'profiles.list')).toHaveLength(1);
  });
});
