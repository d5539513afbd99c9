// `matchdesk projects` lists and deletes projects, as a script runs it: the real CLI in a child process, no terminal.
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT_CODES } from '../../electron/cli/exit-codes';
import { runMatchdesk } from './matchdesk-process';

let dir: string;
let sheet: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'matchdesk-cli-projects-'));
  sheet = join(dir, 'people.csv');
  writeFileSync(sheet, ['Name,Email', 'Ada Lovelace,ada@example.com', 'Alan Turing,alan@example.com'].join('\n') + '\n');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('matchdesk projects', () => {
  it('deletes a project only when told to with --yes off a terminal, and says which', async () => {
    const opts = { cwd: dir, home: join(dir, 'home'), connection: {} };
    const listed = async () => JSON.parse((await runMatchdesk(['projects', '--json'], opts)).stdout) as { id: number; name: string }[];
    for (const name of ['keep', 'drop']) expect((await runMatchdesk(['import', sheet, '--name', name], opts)).code).toBe(0);
    const drop = (await listed()).find((p) => p.name === 'drop')!;

    // Off a terminal nothing can be confirmed: refused, and the project stays.
    const unasked = await runMatchdesk(['projects', 'delete', String(drop.id)], opts);
    expect(unasked.code).toBe(EXIT_CODES.usage);
    expect(unasked.stderr).toContain('add --yes to delete the project');
    expect((await listed()).map((p) => p.name).sort()).toEqual(['drop', 'keep']);

    const deleted = await runMatchdesk(['projects', 'delete', String(drop.id), '--yes'], opts);
    expect(deleted.code, deleted.stderr).toBe(0);
    expect(deleted.stdout).toBe(`Deleted project ${drop.id} (drop, 2 rows, 0 matched).\n`);
    expect((await listed()).map((p) => p.name)).toEqual(['keep']);

    // A project that is not there, a missing id and an unknown action each say what is wrong.
    const again = await runMatchdesk(['projects', 'delete', String(drop.id), '--yes'], opts);
    expect(again.code).not.toBe(0);
    expect(again.stderr).toMatch(/not found|no project/i);
    const noId = await runMatchdesk(['projects', 'delete', '--yes'], opts);
    expect(noId.code).toBe(EXIT_CODES.usage);
    expect(noId.stderr).toContain('Name the project');
    const unknown = await runMatchdesk(['projects', 'remove', '1'], opts);
    expect(unknown.code).toBe(EXIT_CODES.usage);
    expect(unknown.stderr).toContain('"remove" is neither');
  });

  it('gives the space a large project took back to the disk, and says how much', async () => {
    const opts = { cwd: dir, home: join(dir, 'home-large'), connection: {} };
    const large = join(dir, 'large.csv');
    const note = 'n'.repeat(400);
    writeFileSync(large, ['Name,Email,Notes', ...Array.from({ length: 40_000 }, (_, i) => `Person ${i},p${i}@example.com,${note} ${i}`)].join('\n') + '\n');
    expect((await runMatchdesk(['import', large, '--name', 'large'], opts)).code).toBe(0);
    const [project] = JSON.parse((await runMatchdesk(['projects', '--json'], opts)).stdout) as { id: number }[];

    const deleted = await runMatchdesk(['projects', 'delete', String(project!.id), '--yes'], opts);
    expect(deleted.code, deleted.stderr).toBe(0);
    const given = /The data file gave ([\d.]+) MB back to the disk \(now ([\d.]+) (KB|MB)\)\./.exec(deleted.stdout);
    expect(given, deleted.stdout).not.toBeNull();
    expect(Number(given![1])).toBeGreaterThan(15);
    expect(statSync(join(opts.home, 'matchdesk.sqlite')).size).toBeLessThan(2 * 1024 * 1024);
  });
});
