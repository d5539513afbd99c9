// A data folder an older version made, opened by the CLI: it says how far bringing it up to this version is.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeVersion27Folder } from '../engine/store/migrations/version-27-folder';
import { runMatchdesk } from './matchdesk-process';

let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'matchdesk-cli-older-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('a data folder from before migration 28', () => {
  it('is brought up to this version with its progress on stderr, then the command runs on it', async () => {
    const home = join(dir, 'home');
    mkdirSync(home, { mode: 0o700 });
    writeVersion27Folder(join(home, 'matchdesk.sqlite'));
    const opts = { cwd: dir, home, connection: {} };

    const listed = await runMatchdesk(['projects', '--json'], opts);
    expect(listed.code, listed.stderr).toBe(0);
    // Off a terminal, a line at each tenth reached (the rows are one slice, the answers the next) and at the swap.
    expect(listed.stderr.split('\n').filter((line) => line.startsWith('Updating'))).toEqual([
      'Updating the data folder to this version: 68% (120 of 175 rows and answers)',
      'Updating the data folder to this version: 100% (175 of 175 rows and answers)',
      'Updating the data folder to this version: finishing',
    ]);
    expect((JSON.parse(listed.stdout) as { name: string }[]).map((p) => p.name).sort()).toEqual(['first', 'second']);

    // Up to date now: nothing more is said.
    const again = await runMatchdesk(['projects', '--json'], opts);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).not.toContain('Updating');
  });
});
