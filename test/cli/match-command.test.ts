// `matchdesk match` as a script meets it: the real CLI in a child process against a simulator started here (or a
// port nobody listens on), exit codes a script can branch on, one line saying what went wrong, and nothing made
// (no project, no --out) when the start fails.
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT_CODES } from '../../electron/cli/exit-codes';
import { startSimulator, type Simulator } from '../../electron/simulator/server';
import { BIN, projectsOnFile, runMatchdesk, type Connection } from './matchdesk-process';

let sim: Simulator;
let dir: string;
let caseNumber = 0;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'matchdesk-cli-match-'));
  sim = await startSimulator({ port: 0, people: 3000, seed: 11 });
});

afterAll(async () => {
  await sim?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** A folder of its own for one case: a data home, a sheet of the given e-mails, and an --out already there. */
function freshCase(emails: string[]) {
  const folder = join(dir, `case-${++caseNumber}`);
  mkdirSync(folder);
  const sheet = join(folder, 'people.csv');
  writeFileSync(sheet, ['Name,Email', ...emails.map((email, i) => `Person ${i},${email}`)].join('\n') + '\n');
  const out = join(folder, 'matched.csv');
  writeFileSync(out, 'the file a script wrote last week\n');
  return { folder, home: join(folder, 'home'), sheet, out };
}

function simulatorConnection(secret = sim.demo.clientSecret, baseUrl = sim.baseUrl): Connection {
  return { MATCHDESK_BASE_URL: baseUrl, MATCHDESK_ORG_ID: sim.orgId, MATCHDESK_CLIENT_ID: sim.demo.clientId, MATCHDESK_CLIENT_SECRET: secret };
}

/** A loopback port that was free a moment ago: connecting to it is refused. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** The case's projects, of any status, as its data file holds them. */
const projectsIn = (c: ReturnType<typeof freshCase>) => projectsOnFile(c.home);

function expectUntouched(c: ReturnType<typeof freshCase>): void {
  expect(readFileSync(c.out, 'utf8')).toBe('the file a script wrote last week\n');
  expect(readdirSync(c.folder).filter((name) => name.endsWith('.part'))).toEqual([]);
}

const knownEmails = () => sim.dataset.people.slice(0, 3).map((p) => p.email_address);

// Side by side: each case has its own folder and home, none changes the simulator nor asks it to find anyone but the
// one that counts those calls, and most wait out retries.
describe.concurrent('matchdesk match: a failed start makes nothing', () => {
  it('exits 5 on a service nobody answers at, says why in one line, and imports and writes nothing', async () => {
    const c = freshCase(knownEmails());
    const port = await closedPort();
    const run = await runMatchdesk(['match', c.sheet, '--out', c.out, '--yes'], {
      cwd: c.folder,
      home: c.home,
      connection: simulatorConnection(sim.demo.clientSecret, `http://127.0.0.1:${port}`),
    });
    expect(run.code, run.stderr).toBe(EXIT_CODES.unreachable);
    expect(run.stderr).toMatch(new RegExp(`^matchdesk match: Cannot use the connection .*Could not get an answer from 127\\.0\\.0\\.1:${port}.*Nothing was imported or written\\.$`, 'm'));
    expect(run.stderr).not.toMatch(/Imported|done:/);
    expectUntouched(c);
    expect(projectsIn(c)).toEqual([]);
  });

  it('exits 4 when the service refuses the credentials, before importing or writing anything', async () => {
    const c = freshCase(knownEmails());
    const run = await runMatchdesk(['match', c.sheet, '--out', c.out, '--yes'], { cwd: c.folder, home: c.home, connection: simulatorConnection('not-the-secret') });
    expect(run.code, run.stderr).toBe(EXIT_CODES.credentials);
    expect(run.stderr).toMatch(/^matchdesk match: Cannot use the connection .*Login failed \(HTTP 401\)/m);
    expectUntouched(c);
    expect(projectsIn(c)).toEqual([]);
  });

  it('notices a wrong secret even when every answer is in the cache', async () => {
    const c = freshCase(knownEmails());
    const first = await runMatchdesk(['match', c.sheet, '--out', join(c.folder, 'first.csv'), '--yes'], { cwd: c.folder, home: c.home, connection: simulatorConnection() });
    expect(first.code, first.stderr).toBe(EXIT_CODES.ok);
    const calls = sim.counters().findCalls;

    const again = await runMatchdesk(['match', c.sheet, '--out', c.out, '--yes'], { cwd: c.folder, home: c.home, connection: simulatorConnection('not-the-secret') });
    expect(again.code, again.stderr).toBe(EXIT_CODES.credentials);
    expect(again.stderr).toMatch(/Login failed/);
    expect(sim.counters().findCalls).toBe(calls);
    expectUntouched(c);
    expect(projectsIn(c)).toHaveLength(1);
  });

  it('exits 4 with no connection set up at all', async () => {
    const c = freshCase(knownEmails());
    const run = await runMatchdesk(['match', c.sheet, '--out', c.out, '--yes'], { cwd: c.folder, home: c.home, connection: {} });
    expect(run.code, run.stderr).toBe(EXIT_CODES.credentials);
    expect(run.stderr).toMatch(/No connection: run "matchdesk login" first/);
    expectUntouched(c);
  });

  it('exits 2 on a --map column the sheet does not have, leaving no project behind', async () => {
    const c = freshCase(knownEmails());
    const run = await runMatchdesk(['match', c.sheet, '--out', c.out, '--yes', '--map', 'email=Work Email'], { cwd: c.folder, home: c.home, connection: simulatorConnection() });
    expect(run.code, run.stderr).toBe(EXIT_CODES.usage);
    expect(run.stderr).toMatch(/No column "Work Email" for --map email\. Columns: Name, Email\./);
    expect(run.stderr).not.toMatch(/Imported/);
    expectUntouched(c);
    expect(projectsIn(c)).toEqual([]);
  });

  it('leaves no project when the sheet cannot be imported', async () => {
    const c = freshCase([]);
    const run = await runMatchdesk(['match', c.sheet, '--out', c.out, '--yes'], { cwd: c.folder, home: c.home, connection: simulatorConnection() });
    expect(run.code, run.stderr).toBe(EXIT_CODES.failed);
    expect(run.stderr).toMatch(/has a header row but no data rows/);
    expectUntouched(c);
    expect(projectsIn(c)).toEqual([]);
  });
});

describe('matchdesk match: rows that end in error', () => {
  it("exits 6 and says how many rows failed and why, and the export gives each failed row's reason", async () => {
    const c = freshCase([]);
    // Known people under their own names (an e-mail whose owner has another name would wait for review).
    const known = sim.dataset.people.slice(10, 12).map((p) => `${p.name},${p.email_address}`);
    const unknown = ['Person 2,first.lost@outage.example', 'Person 3,second.lost@outage.example'];
    writeFileSync(c.sheet, ['Name,Email', ...known, ...unknown].join('\n') + '\n');
    // The known addresses are answered first and kept; then every people call fails, so only the others error.
    const warm = join(c.folder, 'warm.csv');
    writeFileSync(warm, ['Name,Email', ...known].join('\n') + '\n');
    expect((await runMatchdesk(['match', warm, '--out', join(c.folder, 'warm-out.csv'), '--yes'], { cwd: c.folder, home: c.home, connection: simulatorConnection() })).code).toBe(0);

    sim.setFaults('outage');
    let run;
    try {
      run = await runMatchdesk(['match', c.sheet, '--out', c.out, '--yes', '--auto-accept'], { cwd: c.folder, home: c.home, connection: simulatorConnection() });
    } finally {
      sim.setFaults('none');
    }
    expect(run.code, run.stderr).toBe(EXIT_CODES.rowsFailed);
    const lines = run.stderr.split('\n').filter((line) => line.startsWith('matchdesk match:'));
    expect(lines).toEqual([expect.stringMatching(/^matchdesk match: 2 rows ended in error: The service failed with HTTP 5\d\d 5 times in a row/)]);
    expect(run.stderr).toMatch(/^done with errors: /m);

    const [headers, ...rows] = Papa.parse<string[]>(readFileSync(c.out, 'utf8').replace(/^\uFEFF/, ''), { skipEmptyLines: true }).data;
    const col = (name: string) => headers!.indexOf(name);
    expect(rows.map((r) => r[col('match_status')])).toEqual(['auto', 'auto', 'error', 'error']);
    expect(rows.slice(0, 2).map((r) => r[col('match_error')])).toEqual(['', '']);
    for (const row of rows.slice(2)) expect(row[col('match_error')]).toMatch(/^The service failed with HTTP 5\d\d/);
  });

  it('exits 0 when every row was looked up', async () => {
    const c = freshCase(knownEmails());
    const run = await runMatchdesk(['match', c.sheet, '--out', c.out, '--yes'], { cwd: c.folder, home: c.home, connection: simulatorConnection() });
    expect(run.code, run.stderr).toBe(EXIT_CODES.ok);
    expect(run.stderr).not.toMatch(/ended in error|done with errors/);
    expect(readFileSync(c.out, 'utf8')).toMatch(/match_error/);
  });
});

describe('matchdesk match: a run that stops part-way writes nothing', () => {
  it('exits 5 and leaves --out as it was when the service stops answering during the run', async () => {
    // Three calls of 100 whose connections are all cut: the run stops after three failed calls in a row.
    const c = freshCase(Array.from({ length: 300 }, (_, i) => `cut.${i}@reset.example`));
    sim.setFaults('rateReset=1');
    let run;
    try {
      run = await runMatchdesk(['match', c.sheet, '--out', c.out, '--yes'], { cwd: c.folder, home: c.home, connection: simulatorConnection() });
    } finally {
      sim.setFaults('none');
    }
    expect(run.code, run.stderr).toBe(EXIT_CODES.unreachable);
    expect(run.stderr).toMatch(/^matchdesk match: Could not get an answer from .*The run stopped after 3 calls in a row failed to reach the service/m);
    expect(run.stderr).toMatch(/matched\.csv was not written\. Go on with "matchdesk match --project 1 /);
    expectUntouched(c);
  });

  it('exits 3 and leaves --out as it was when the organization is out of credits', async () => {
    const broke = await startSimulator({ port: 0, people: 500, seed: 11, creditBudget: 0 });
    try {
      const c = freshCase(broke.dataset.people.slice(0, 3).map((p) => p.email_address));
      const connection = { ...simulatorConnection(), MATCHDESK_BASE_URL: broke.baseUrl };
      const run = await runMatchdesk(['match', c.sheet, '--out', c.out, '--yes'], { cwd: c.folder, home: c.home, connection });
      expect(run.code, run.stderr).toBe(EXIT_CODES.serviceFailed);
      expect(run.stderr).toMatch(/^matchdesk match: The organization is out of credits \(HTTP 402\)/m);
      expectUntouched(c);
    } finally {
      await broke.close();
    }
  });
});

describe('matchdesk search: a failed start writes nothing', () => {
  const filters = [{ field: 'jobs.level', type: 'must', match_type: 'exact', string_values: ['C-Team'] }];

  it('exits 5 on a service nobody answers at and 4 on refused credentials, --out untouched', async () => {
    const c = freshCase([]);
    const file = join(c.folder, 'filters.json');
    writeFileSync(file, JSON.stringify(filters));
    const port = await closedPort();
    const away = await runMatchdesk(['search', '--filters', file, '--out', c.out, '--yes'], {
      cwd: c.folder,
      home: c.home,
      connection: simulatorConnection(sim.demo.clientSecret, `http://127.0.0.1:${port}`),
    });
    expect(away.code, away.stderr).toBe(EXIT_CODES.unreachable);
    expect(away.stderr).toMatch(/^matchdesk search: Cannot use the connection .*Could not get an answer from/m);
    expectUntouched(c);

    const refused = await runMatchdesk(['search', '--filters', file, '--out', c.out, '--yes'], { cwd: c.folder, home: c.home, connection: simulatorConnection('not-the-secret') });
    expect(refused.code, refused.stderr).toBe(EXIT_CODES.credentials);
    expect(refused.stderr).toMatch(/Login failed/);
    expectUntouched(c);
  });

  it('leaves --out as it was when the service fails the search', async () => {
    const c = freshCase([]);
    const file = join(c.folder, 'filters.json');
    writeFileSync(file, JSON.stringify([{ field: 'jobs.function', type: 'must', match_type: 'exact', string_values: ['Legal'] }]));
    sim.setFaults('outage');
    let run;
    try {
      run = await runMatchdesk(['search', '--filters', file, '--out', c.out, '--yes'], { cwd: c.folder, home: c.home, connection: simulatorConnection() });
    } finally {
      sim.setFaults('none');
    }
    expect(run.code, run.stderr).toBe(EXIT_CODES.serviceFailed);
    expect(run.stderr).toMatch(/^matchdesk search: The service failed with HTTP 5\d\d/m);
    expect(run.stderr).toMatch(/was not written\. Resume it later with "matchdesk search --resume \d+/);
    expectUntouched(c);
  });
});

describe('matchdesk --help', () => {
  // Through the start script a user runs (tsx on the source tree), where the other cases run the CLI's bundle.
  it('lists the exit codes, for match and search as well', async () => {
    for (const args of [['--help'], ['match', '--help'], ['search', '--help']]) {
      const help = await runMatchdesk(args, { cwd: dir, home: join(dir, 'help-home'), connection: {}, bin: BIN });
      expect(help.code).toBe(0);
      for (const [code, words] of [[2, 'wrong usage'], [4, 'credentials refused'], [5, 'could not be reached'], [6, 'some rows ended in error']] as const) {
        expect(help.stdout).toMatch(new RegExp(`^\\s+${code}  .*${words}`, 'm'));
      }
    }
  });
});
