// Starts that fail must look failed: a sheet with nothing to look anyone up by, an organization the account cannot
// use, and a reader that goes away (`| head -1`) each end with their exit code and one plain message, leaving no
// project behind and no stack trace. The real CLI in a child process, against a simulator started here.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT_CODES } from '../../electron/cli/exit-codes';
import { startSimulator, type Simulator } from '../../electron/simulator/server';
import { projectsOnFile, runMatchdesk, type Connection } from './matchdesk-process';

let sim: Simulator;
let dir: string;
let caseNumber = 0;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'matchdesk-cli-starts-'));
  sim = await startSimulator({ port: 0, people: 500, seed: 5 });
});

afterAll(async () => {
  await sim?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** A folder of its own: a data home, a sheet of the given lines, and an --out a script wrote earlier. */
function freshCase(lines: string[]) {
  const folder = join(dir, `case-${++caseNumber}`);
  mkdirSync(folder);
  const sheet = join(folder, 'people.csv');
  writeFileSync(sheet, lines.join('\n') + '\n');
  const out = join(folder, 'matched.csv');
  writeFileSync(out, 'an earlier result\n');
  return { folder, home: join(folder, 'home'), sheet, out };
}

const connection = (orgId = sim.orgId): Connection => ({
  MATCHDESK_BASE_URL: sim.baseUrl,
  MATCHDESK_ORG_ID: orgId,
  MATCHDESK_CLIENT_ID: sim.demo.clientId,
  MATCHDESK_CLIENT_SECRET: sim.demo.clientSecret,
});

const knownPeople = () => ['Name,Email', ...sim.dataset.people.slice(0, 3).map((p) => `${p.name},${p.email_address}`)];
const nothingToLookUp = ['Colour,Size,Note', 'red,1,first', 'blue,2,second'];

/** The case's projects, of any status, as its data file holds them. */
const projectsIn = (c: ReturnType<typeof freshCase>) => projectsOnFile(c.home);

describe('a sheet with no column to look anyone up by', () => {
  it('matchdesk import exits 2, says what is missing and which columns there are, and keeps no project', async () => {
    const c = freshCase(nothingToLookUp);
    const run = await runMatchdesk(['import', c.sheet], { cwd: c.folder, home: c.home, connection: {} });
    expect(run.code, run.stderr).toBe(EXIT_CODES.usage);
    expect(run.stderr).toMatch(/^matchdesk import: Matchdesk needs at least an e-mail, a profile link, or a name with a company column to look anyone up, and none is mapped\. Nothing was imported\. Columns: Colour, Size, Note\. Say which column holds what with matchdesk match .*people\.csv --map field=Column/m);
    expect(run.stdout).toBe('');
    expect(projectsIn(c)).toEqual([]);
  });

  it('matchdesk match exits 2 before sending anything, leaves --out as it was and keeps no project', async () => {
    const c = freshCase(nothingToLookUp);
    const calls = sim.counters().findCalls;
    const run = await runMatchdesk(['match', c.sheet, '--out', c.out, '--yes'], { cwd: c.folder, home: c.home, connection: connection() });
    expect(run.code, run.stderr).toBe(EXIT_CODES.usage);
    expect(run.stderr).toMatch(/^matchdesk match: Matchdesk needs at least an e-mail, a profile link, or a name with a company column to look anyone up, and none is mapped\. Columns: Colour, Size, Note\./m);
    expect(run.stderr).toMatch(/The project imported for this run was removed again\./);
    expect(run.stderr).not.toMatch(/nothing mapped|done:/);
    expect(sim.counters().findCalls).toBe(calls);
    expect(readFileSync(c.out, 'utf8')).toBe('an earlier result\n');
    expect(projectsIn(c)).toEqual([]);
  });

  it('matchdesk match exits 2 when the mapped column has nothing in it to look up, and keeps no project', async () => {
    const c = freshCase(['Name,Email', 'Ada Lovelace,not an address', 'Alan Turing,n/a']);
    const run = await runMatchdesk(['match', c.sheet, '--out', c.out, '--yes'], { cwd: c.folder, home: c.home, connection: connection() });
    expect(run.code, run.stderr).toBe(EXIT_CODES.usage);
    expect(run.stderr).toMatch(/^Mapping: .*email <- "Email"/m);
    expect(run.stderr).toMatch(/^matchdesk match: None of the 2 rows has anything to look up with this mapping\. Columns: Name, Email\./m);
    expect(run.stderr).toMatch(/The project imported for this run was removed again\./);
    expect(readFileSync(c.out, 'utf8')).toBe('an earlier result\n');
    expect(projectsIn(c)).toEqual([]);
  });

  it('matchdesk match goes on when --map names a column to look up by', async () => {
    const c = freshCase(['Who,Where', ...sim.dataset.people.slice(0, 2).map((p) => `${p.email_address},somewhere`)]);
    const run = await runMatchdesk(['match', c.sheet, '--out', c.out, '--yes', '--map', 'email=Who'], { cwd: c.folder, home: c.home, connection: connection() });
    expect(run.code, run.stderr).toBe(EXIT_CODES.ok);
    expect(run.stderr).toMatch(/Mapping: email <- "Who"/);
  });
});

describe('an organization the account cannot use', () => {
  it.each([
    ['one it has no role on (403)', () => sim.otherOrgId, /no access to organization "o_other" \(HTTP 403\)/],
    ['one that does not exist (404)', () => 'o_nowhere', /Organization "o_nowhere" does not exist/],
  ])('matchdesk match exits 4 on %s, before importing or writing anything', async (_label, org, said) => {
    const c = freshCase(knownPeople());
    const calls = sim.counters().findCalls;
    const run = await runMatchdesk(['match', c.sheet, '--out', c.out, '--yes'], { cwd: c.folder, home: c.home, connection: connection(org()) });
    expect(run.code, run.stderr).toBe(EXIT_CODES.credentials);
    expect(run.stderr).toMatch(/^matchdesk match: Cannot use the connection /m);
    expect(run.stderr).toMatch(said);
    expect(run.stderr).toMatch(/Nothing was imported or written\.$/m);
    expect(run.stderr).not.toMatch(/Imported/);
    expect(sim.counters().findCalls).toBe(calls);
    expect(readFileSync(c.out, 'utf8')).toBe('an earlier result\n');
    expect(projectsIn(c)).toEqual([]);
  });
});

describe('a reader that goes away', () => {
  it('matchdesk import with its output closed (| head -1) still imports, exits 0 and prints no stack trace', async () => {
    const c = freshCase(knownPeople());
    const run = await runMatchdesk(['import', c.sheet], { cwd: c.folder, home: c.home, connection: {}, whileRunning: (child) => child.stdout!.destroy() });
    expect(run.code, run.stderr).toBe(EXIT_CODES.ok);
    expect(run.stderr).not.toMatch(/EPIPE|Error|\n\s+at /);
    expect(projectsIn(c).map((p) => [p.name, p.status])).toEqual([['people', 'ready']]);
  });

  it('matchdesk match with its messages closed still writes --out and exits 0', async () => {
    const c = freshCase(knownPeople());
    const run = await runMatchdesk(['match', c.sheet, '--out', c.out, '--yes'], {
      cwd: c.folder,
      home: c.home,
      connection: connection(),
      whileRunning: (child) => child.stderr!.destroy(),
    });
    expect(run.code).toBe(EXIT_CODES.ok);
    expect(readFileSync(c.out, 'utf8')).toMatch(/^\uFEFF?Name,Email,match_status/);
  });
});
