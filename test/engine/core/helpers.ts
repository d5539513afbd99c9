import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Papa from 'papaparse';
import type { CallName, CallOutput, CallResult, RunProgress } from '../../../shared/contract';
import { createEngine, type Engine, type EngineOptions } from '../../../electron/engine/engine';
import { SessionSecretStore } from '../../../electron/engine/secrets';
import { startSimulator, type Simulator, type SimulatorOptions, type Person } from '../../../electron/simulator';

export function tempDir(prefix = 'matchdesk-core-'): { dir: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

export function openEngine(dataDir: string, extra: Partial<EngineOptions> = {}): Promise<Engine> {
  return createEngine({ dataDir, host: 'cli', secrets: new SessionSecretStore(), version: 'test', ...extra });
}

/** The value of a call that must succeed; a failure shows its ContractError. */
export async function ok<K extends CallName>(engine: Engine, name: K, input: unknown = {}): Promise<CallOutput<K>> {
  const result = (await engine.call(name, input)) as CallResult<K>;
  if (!result.ok) throw new Error(`${name} failed: ${result.error.kind}: ${result.error.message}`);
  return result.value;
}

export async function fails<K extends CallName>(engine: Engine, name: K, input: unknown = {}) {
  const result = (await engine.call(name, input)) as CallResult<K>;
  if (result.ok) throw new Error(`${name} should have failed but returned ${JSON.stringify(result.value).slice(0, 200)}`);
  return result.error;
}

export function startSim(opts: SimulatorOptions = {}): Promise<Simulator> {
  return startSimulator({ port: 0, people: 3000, seed: 1, ...opts });
}

/** A service-account profile on the simulator, selected. */
export async function connect(engine: Engine, sim: Simulator, name = 'Simulator') {
  const profile = await ok(engine, 'profiles.save', {
    name,
    baseUrl: sim.baseUrl,
    orgId: sim.orgId,
    kind: 'service_account',
    login: sim.demo.clientId,
    secret: sim.demo.clientSecret,
  });
  await ok(engine, 'profiles.select', { id: profile.id });
  return profile;
}

/** Rows are written as they are: a row longer or shorter than the headers stays ragged. */
export function writeCsv(path: string, headers: string[], rows: string[][]): string {
  writeFileSync(path, `${Papa.unparse([headers, ...rows], { newline: '\r\n' })}\r\n`, 'utf8');
  return path;
}

/** Starts a run and waits for it to stop. */
export async function runToEnd(engine: Engine, projectId: number, offline = false): Promise<RunProgress> {
  await ok(engine, 'run.start', { projectId, offline });
  const end = await engine.runSettled(projectId);
  if (!end) throw new Error('the run vanished');
  return end;
}

export function currentCompany(p: Person): string {
  return p.jobs.find((j) => j.ended_at === null)?.company.name ?? p.jobs[0]?.company.name ?? '';
}

/** People that name + company finds as the top candidate: a current employer and a name others do not share. */
export function findablePeople(sim: Simulator): Person[] {
  const counts = new Map<string, number>();
  for (const p of sim.dataset.people) counts.set(p.name, (counts.get(p.name) ?? 0) + 1);
  return sim.dataset.people.filter((p) => counts.get(p.name) === 1 && p.jobs.some((j) => j.ended_at === null));
}

/** Total answered queries per distinct query, from the simulator's counters. */
export function timesAsked(sim: Simulator): number[] {
  return [...sim.counters().queryKeys.values()];
}

/** Waits until `condition` holds (polling every 10 ms); throws after `ms`. For work the engine does in the background. */
export async function eventually(condition: () => boolean, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > end) throw new Error(`still not so after ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
