// A `matchdesk match` with MATCHDESK_* variables beside the browser host (or the app) on one data folder: the
// connection from the environment is the command's alone. Before, it became the saved active profile, and the host's
// next run failed with "No secret is stored" (the secret lived in the CLI's process only).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../../electron/simulator/server';
import { connect, currentCompany, ok, openEngine, runToEnd, writeCsv } from '../engine/core/helpers';
import { connectionTo, runMatchdesk } from './matchdesk-process';

let sim: Simulator;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'matchdesk-cli-env-profile-'));
  sim = await startSimulator({ port: 0, people: 500, seed: 3 });
});
afterAll(async () => {
  await sim?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

function sheet(name: string): string {
  const rows = sim.dataset.people.slice(0, 20).map((p) => [p.name, p.email_address, currentCompany(p)]);
  return writeCsv(join(dir, `${name}.csv`), ['Name', 'Email', 'Company'], rows);
}

const environment = () => connectionTo(sim);

describe('a connection from the environment', () => {
  it('leaves the profile another host chose active, and that host runs on after the command', async () => {
    const home = join(dir, 'shared');
    // The other host: its own profile saved and chosen, its secret in its own process.
    const host = await openEngine(home);
    try {
      const work = await connect(host, sim, 'Work');
      const cli = await runMatchdesk(['match', sheet('cli'), '--out', join(dir, 'cli-out.csv'), '--yes'], { cwd: dir, home, connection: environment() });
      expect(cli.code, cli.stderr).toBe(0);

      expect((await ok(host, 'settings.get')).activeProfileId).toBe(work.id);
      const project = (await ok(host, 'projects.import', { file: sheet('host') })).summary;
      const end = await runToEnd(host, project.id);
      expect(end.status, end.message ?? '').toBe('done');
    } finally {
      await host.close();
    }
    // A host started afterwards finds the same choice.
    const next = await openEngine(home);
    try {
      const settings = await ok(next, 'settings.get');
      const profiles = await ok(next, 'profiles.list');
      expect(profiles.find((p) => p.id === settings.activeProfileId)?.name).toBe('Work');
    } finally {
      await next.close();
    }
  });

  it('takes back the active choice an earlier version left on the environment profile', async () => {
    const home = join(dir, 'earlier');
    const earlier = await openEngine(home);
    try {
      const left = await ok(earlier, 'profiles.save', { name: 'From environment', baseUrl: sim.baseUrl, orgId: sim.orgId, kind: 'service_account', login: sim.demo.clientId, secret: 'gone', sessionOnly: true });
      await ok(earlier, 'profiles.select', { id: left.id });
    } finally {
      await earlier.close();
    }
    const cli = await runMatchdesk(['projects'], { cwd: dir, home, connection: environment() });
    expect(cli.code, cli.stderr).toBe(0);
    const host = await openEngine(home);
    try {
      expect((await ok(host, 'settings.get')).activeProfileId).toBeNull();
      // So the host asks for a connection instead of failing on a secret it never had.
      const project = (await ok(host, 'projects.import', { file: sheet('after') })).summary;
      const started = await host.call('run.start', { projectId: project.id });
      expect(started).toMatchObject({ ok: false, error: { code: 'no_profile' } });
    } finally {
      await host.close();
    }
  });
});
