import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Papa from 'papaparse';
import type { CallName, CallOutput, CallResult, RunProgress } from '../../shared/contract';
import { createEngine, type Engine, type EngineOptions } from '../../electron/engine/engine';
import { SessionSecretStore } from '../../electron/engine/secrets';
import type { Person, Simulator } from '../../electron/simulator';

export function tempDir(prefix: string): { dir: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

export function openTestEngine(dataDir: string, extra: Partial<EngineOptions> = {}): Promise<Engine> {
  return createEngine({ dataDir, host: 'cli', secrets: new SessionSecretStore(), version: 'test', ...extra });
}

/** The value of a call that must succeed; a failure shows its ContractError. */
export async function callOk<K extends CallName>(engine: Engine, name: K, input: unknown): Promise<CallOutput<K>> {
  const result = (await engine.call(name, input)) as CallResult<K>;
  if (!result.ok) throw new Error(`${name} failed: ${result.error.kind}: ${result.error.message}`);
  return result.value;
}

/** Starts a run and waits for it to stop. */
export async function runToEnd(engine: Engine, projectId: number): Promise<RunProgress> {
  await callOk(engine, 'run.start', { projectId });
  const end = await engine.runSettled(projectId);
  if (!end) throw new Error('the run vanished');
  return end;
}

export async function connectSimulator(engine: Engine, sim: Simulator, kind: 'service_account' | 'password' | 'api_key' = 'service_account') {
  const login = kind === 'service_account' ? sim.demo.clientId : kind === 'password' ? sim.demo.username : null;
  const secret = kind === 'service_account' ? sim.demo.clientSecret : kind === 'password' ? sim.demo.password : sim.demo.apiKey;
  const profile = await callOk(engine, 'profiles.save', { name: `Simulator (${kind})`, baseUrl: sim.baseUrl, orgId: sim.orgId, kind, login, secret });
  await callOk(engine, 'profiles.select', { id: profile.id });
  return { profile, secret };
}

export const SHEET_HEADERS = ['Name', 'Email', 'LinkedIn', 'Company'];

function currentCompany(p: Person): string {
  return p.jobs.find((j) => j.ended_at === null)?.company.name ?? p.jobs[0]?.company.name ?? '';
}

/**
 * A sheet of `count` rows from the simulator's people, mixing the three strategies, people nobody knows, the
 * waterfall (an unknown e-mail, then name + company), repeats and junk. Row i depends on i alone.
 */
export function sheetRows(people: Person[], count: number): string[][] {
  const rows: string[][] = [];
  for (let i = 0; i < count; i++) {
    const p = people[(i * 7919) % people.length]!;
    switch (i % 10) {
      case 0:
      case 1:
      case 2:
        rows.push([p.name, p.email_address, '', currentCompany(p)]);
        break;
      case 3:
      case 4:
        rows.push(['', '', `https://www.linkedin.com/in/${p.linkedin}/`, '']);
        break;
      case 5:
      case 6:
        rows.push([p.name, '', '', currentCompany(p)]);
        break;
      case 7:
        rows.push([`Nobody Known ${i}`, `nobody${i}@unknown.example`, '', '']);
        break;
      case 8:
        rows.push([p.name, `old-${i}@gone.example`, '', currentCompany(p)]);
        break;
      default:
        rows.push(i % 20 === 9 ? ['n/a', '-', '', ''] : rows[i - 5]!);
    }
  }
  return rows;
}

export function writeCsv(path: string, headers: string[], rows: string[][]): string {
  writeFileSync(path, `${Papa.unparse([headers, ...rows], { newline: '\r\n' })}\r\n`, 'utf8');
  return path;
}

export function readCsv(path: string): string[][] {
  return Papa.parse<string[]>(readFileSync(path, 'utf8').replace(/^\uFEFF/, ''), { skipEmptyLines: true }).data;
}

/** Waits until `check` is true, polling; fails after `timeoutMs`. */
export async function waitUntil(check: () => boolean, timeoutMs: number, what: string, everyMs = 10): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > until) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
