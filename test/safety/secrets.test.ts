// After a full run with each kind of credential (through the engine's contract, and through the CLI with the
// secret in its environment), the secret and every access token the service issued are nowhere Matchdesk
// writes or says anything: not in the database (nor its WAL), the data folder, the exports, the log output,
// nor any value a call returned or an event carried.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVENT_NAMES, type CallName } from '../../shared/contract';
import type { Engine } from '../../electron/engine/engine';
import { startSimulator, type Simulator } from '../../electron/simulator';
import { cliBundle } from '../support/cli-bundle';
import { SHEET_HEADERS, openTestEngine, sheetRows, tempDir, writeCsv } from './safety-helpers';

const ROOT = resolve(__dirname, '../..');
const KINDS = ['service_account', 'password', 'api_key'] as const;
type Kind = (typeof KINDS)[number];
const ROWS = 800;

let tmp: ReturnType<typeof tempDir>;
let sim: Simulator;
let sheet: string;
/** The CLI's start file (test/support/cli-bundle.ts). */
let cli: string;
/** CLI processes still running, killed if the test stops early. */
const children = new Set<ChildProcess>();

beforeAll(async () => {
  tmp = tempDir('matchdesk-secrets-');
  sim = await startSimulator({ port: 0, people: 3_000, seed: 5 });
  sheet = writeCsv(join(tmp.dir, 'people.csv'), SHEET_HEADERS, sheetRows(sim.dataset.people, ROWS));
  cli = await cliBundle();
});
afterAll(async () => {
  for (const child of children) child.kill('SIGKILL');
  await sim?.close();
  tmp?.remove();
});

/**
 * Tokens revoked every few calls, with server errors and cut-off replies: many tokens, and every error path.
 * One call at a time, so no call meets two revocations (the client logs in again once per call) and every run
 * finishes.
 */
const TROUBLE = { revokeEveryCalls: 7, rate5xx: 0.1, rateMalformed: 0.05, retryAfterS: 0 };

function credentialOf(kind: Kind): { login: string | null; secret: string } {
  if (kind === 'service_account') return { login: sim.demo.clientId, secret: sim.demo.clientSecret };
  if (kind === 'password') return { login: sim.demo.username, secret: sim.demo.password };
  return { login: null, secret: sim.demo.apiKey };
}

/** Every form a string could be stored in: as is, UTF-16 (SQLite, XLSX), URL-encoded (a form body), base64. */
function needles(value: string): Buffer[] {
  return [Buffer.from(value, 'utf8'), Buffer.from(value, 'utf16le'), Buffer.from(encodeURIComponent(value), 'utf8'), Buffer.from(Buffer.from(value).toString('base64'), 'utf8')];
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((f) => join(dir, f))
    .filter((f) => statSync(f).isFile());
}

/** Where each needle turns up: `[]` when nowhere. */
function leaks(haystacks: { where: string; bytes: Buffer }[], secrets: { what: string; value: string }[]): string[] {
  const found: string[] = [];
  for (const { what, value } of secrets) {
    for (const needle of needles(value)) {
      for (const { where, bytes } of haystacks) if (bytes.includes(needle)) found.push(`${what} in ${where}`);
    }
  }
  return found;
}

async function xlsxText(path: string): Promise<string> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.readFile(path);
  const cells: string[] = [];
  wb.eachSheet((ws) => ws.eachRow((row) => row.eachCell((cell) => void cells.push(String(cell.text)))));
  return cells.join('\n');
}

/** Everything the process writes to its console while `work` runs. */
async function capturingOutput<T>(work: () => Promise<T>): Promise<{ value: T; output: string }> {
  const chunks: string[] = [];
  const methods = ['log', 'info', 'warn', 'error', 'debug'] as const;
  const saved = methods.map((m) => console[m]);
  const savedOut = process.stdout.write.bind(process.stdout);
  const savedErr = process.stderr.write.bind(process.stderr);
  for (const m of methods) console[m] = (...args: unknown[]) => void chunks.push(args.map(String).join(' '));
  process.stdout.write = ((chunk: string | Uint8Array) => (chunks.push(String(chunk)), true)) as typeof process.stdout.write;
  process.stderr.write = ((chunk: string | Uint8Array) => (chunks.push(String(chunk)), true)) as typeof process.stderr.write;
  try {
    return { value: await work(), output: chunks.join('') };
  } finally {
    methods.forEach((m, i) => (console[m] = saved[i]!));
    process.stdout.write = savedOut;
    process.stderr.write = savedErr;
  }
}

/** The whole life of a project through the contract, every answer and event kept. */
async function runThroughContract(kind: Kind, dataDir: string, exportDir: string): Promise<{ said: unknown[]; engine: Engine }> {
  const said: unknown[] = [];
  const engine = await openTestEngine(dataDir, { exportDir });
  for (const event of EVENT_NAMES) engine.on(event, (payload) => void said.push({ event, payload }));
  const call = async (name: CallName, input: unknown) => {
    const result = await engine.call(name, input);
    said.push({ name, result });
    if (!result.ok) throw new Error(`${name}: ${result.error.message}`);
    return result.value as never;
  };
  const { login, secret } = credentialOf(kind);
  const base = { baseUrl: sim.baseUrl, orgId: sim.orgId, kind, login };
  // A wrong secret first: the refusal must not repeat it either.
  const wrong = (await call('profiles.save', { ...base, name: 'Wrong', secret: `${secret}-wrong` })) as { id: string };
  said.push({ name: 'profiles.test', result: await engine.call('profiles.test', { id: wrong.id }) });
  const profile = (await call('profiles.save', { ...base, name: `Simulator ${kind}`, secret })) as { id: string };
  await call('profiles.test', { id: profile.id });
  await call('profiles.select', { id: profile.id });
  await call('settings.update', { concurrency: 1 });
  await call('profiles.list', {});
  await call('app.info', {});
  await call('settings.get', {});
  const project = (await call('projects.import', { file: sheet })) as { summary: { id: number } };
  const projectId = project.summary.id;
  await call('run.preview', { projectId });
  await call('run.start', { projectId });
  const settled = await engine.runSettled(projectId);
  said.push({ settled });
  expect(settled).toMatchObject({ status: 'done', errors: 0 });
  await call('run.status', { projectId });
  await call('run.failures', { projectId });
  const page = (await call('review.page', { projectId, offset: 0, limit: 50 })) as { rows: { rowIndex: number }[] };
  for (const row of page.rows.slice(0, 20)) await call('review.row', { projectId, rowIndex: row.rowIndex });
  await call('export.run', { projectId, format: 'csv', scope: 'all', candidates: true, destination: join(exportDir, 'all.csv') });
  await call('export.run', { projectId, format: 'xlsx', scope: 'all', candidates: true, destination: join(exportDir, 'all.xlsx') });
  await call('cache.stats', {});
  await call('projects.get', { projectId });
  return { said, engine };
}

function runCli(kind: Kind, home: string, out: string): Promise<{ code: number | null; output: string }> {
  const { login, secret } = credentialOf(kind);
  const credentials =
    kind === 'service_account'
      ? { MATCHDESK_CLIENT_ID: login!, MATCHDESK_CLIENT_SECRET: secret }
      : kind === 'password'
        ? { MATCHDESK_USERNAME: login!, MATCHDESK_PASSWORD: secret }
        : { MATCHDESK_API_KEY: secret };
  const child = spawn(process.execPath, [cli, 'match', sheet, '--out', out, '--candidates', out.replace(/\.csv$/, '-candidates.csv'), '--concurrency', '1', '--yes'], {
    cwd: ROOT,
    env: { ...process.env, MATCHDESK_HOME: home, MATCHDESK_BASE_URL: sim.baseUrl, MATCHDESK_ORG_ID: sim.orgId, ...credentials },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  child.on('exit', () => children.delete(child));
  let output = '';
  child.stdout!.on('data', (d: Buffer) => (output += d.toString('utf8')));
  child.stderr!.on('data', (d: Buffer) => (output += d.toString('utf8')));
  return new Promise((done) => child.on('exit', (code) => done({ code, output })));
}

describe('secrets and tokens stay secret', () => {
  it.each(KINDS)('%s: nowhere in the database, files, exports, logs or anything the contract said', async (kind) => {
    const tokensBefore = new Set(sim.issuedTokens());
    sim.setFaults(TROUBLE);
    sim.resetCounters();
    const dataDir = join(tmp.dir, kind, 'data');
    const exportDir = join(tmp.dir, kind, 'exports');
    const cliHome = join(tmp.dir, kind, 'cli-home');
    const cliOut = join(tmp.dir, kind, 'cli-out', 'matches.csv');
    mkdirSync(exportDir, { recursive: true });
    mkdirSync(join(tmp.dir, kind, 'cli-out'), { recursive: true });
    try {
      const { value, output } = await capturingOutput(() => runThroughContract(kind, dataDir, exportDir));
      // Searched while the engine is open too, when the WAL holds the latest writes.
      const whileOpen = filesUnder(dataDir).map((f) => ({ where: `${f} (engine open)`, bytes: readFileSync(f) }));
      await value.engine.close();
      const cli = await runCli(kind, cliHome, cliOut);
      expect(cli.code, cli.output).toBe(0);

      const counters = sim.counters();
      expect(counters.findCalls).toBeGreaterThan(2);
      const tokens = sim.issuedTokens().filter((t) => !tokensBefore.has(t));
      if (kind === 'api_key') {
        expect(tokens).toEqual([]);
        expect(counters.sessionCalls).toBe(0);
      } else {
        // Logins for the wrong secret fail; the right one logs in again after each revocation.
        expect(tokens.length).toBeGreaterThanOrEqual(counters.faults.revoked);
        expect(tokens.length).toBeGreaterThan(2);
      }

      const exportFiles = [...filesUnder(exportDir), ...filesUnder(join(tmp.dir, kind, 'cli-out'))];
      expect(exportFiles.filter((f) => f.endsWith('.csv')).length).toBe(4);
      expect(exportFiles.filter((f) => f.endsWith('.xlsx')).length).toBeGreaterThanOrEqual(1);
      const haystacks = [
        ...whileOpen,
        ...filesUnder(dataDir).map((f) => ({ where: f, bytes: readFileSync(f) })),
        ...filesUnder(cliHome).map((f) => ({ where: f, bytes: readFileSync(f) })),
        ...exportFiles.map((f) => ({ where: f, bytes: readFileSync(f) })),
        ...(await Promise.all(exportFiles.filter((f) => f.endsWith('.xlsx')).map(async (f) => ({ where: `${f} (cells)`, bytes: Buffer.from(await xlsxText(f)) })))),
        { where: 'console output of the engine', bytes: Buffer.from(output) },
        { where: 'output of the CLI', bytes: Buffer.from(cli.output) },
        { where: 'call results and events', bytes: Buffer.from(JSON.stringify(value.said)) },
      ];
      // The search must be able to find things: the export holds what the service sent.
      expect(leaks(haystacks, [{ what: 'a matched e-mail', value: sim.dataset.people.find((p) => readFileSync(join(exportDir, 'all.csv'), 'utf8').includes(p.email_address))!.email_address }])).not.toEqual([]);
      expect(value.said.length).toBeGreaterThan(30);

      const { secret } = credentialOf(kind);
      const secrets = [{ what: 'the secret', value: secret }, { what: 'the wrong secret', value: `${secret}-wrong` }, ...tokens.map((t, i) => ({ what: `access token ${i + 1}`, value: t }))];
      expect(leaks(haystacks, secrets)).toEqual([]);
    } finally {
      sim.setFaults('none');
    }
  });
});
