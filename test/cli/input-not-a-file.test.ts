// `matchdesk import` and `matchdesk match` given a named pipe or a device: refused at once with what it is, not a
// hang (a named pipe opened for reading waits for a writer) and not "empty" (/dev/zero says its size is 0).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT_CODES } from '../../electron/cli/exit-codes';
import { startSimulator, type Simulator } from '../../electron/simulator/server';
import { skipBecause } from '../support/skips';
import { connectionTo, runMatchdesk } from './matchdesk-process';

const skipped = skipBecause('the named pipe, socket and device tests', process.platform === 'win32' ? 'Windows has no named pipes or devices in its file system' : null);

let sim: Simulator;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'matchdesk-cli-not-a-file-'));
  sim = await startSimulator({ port: 0, people: 200, seed: 5 });
});

afterAll(async () => {
  await sim?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(skipped)('matchdesk import and match given something that is not a file', () => {
  it('a named pipe: refused at once, saying what it is, with nothing imported or written', async () => {
    const pipe = join(dir, 'people.csv');
    execFileSync('mkfifo', [pipe]);
    const home = join(dir, 'home-pipe');
    const out = join(dir, 'matched.csv');
    writeFileSync(out, 'kept\n');
    const message = "Can't read “people.csv”: it is a named pipe, not a file. Matchdesk reads only files saved on disk: choose a CSV or Excel (.xlsx) file.";

    const imported = await runMatchdesk(['import', pipe], { cwd: dir, home, connection: {} });
    expect(imported.code, imported.stderr).toBe(EXIT_CODES.failed);
    expect(imported.stderr).toContain(message);

    const matched = await runMatchdesk(['match', pipe, '--out', out, '--yes'], { cwd: dir, home, connection: connectionTo(sim) });
    expect(matched.code, matched.stderr).toBe(EXIT_CODES.failed);
    expect(matched.stderr).toContain(message);
    expect(readFileSync(out, 'utf8')).toBe('kept\n');

    const listed = await runMatchdesk(['projects', '--json'], { cwd: dir, home, connection: {} });
    expect(JSON.parse(listed.stdout)).toEqual([]);
  });

  it.skipIf(!existsSync('/dev/zero'))('/dev/zero: a device, not an empty file', async () => {
    const run = await runMatchdesk(['import', '/dev/zero'], { cwd: dir, home: join(dir, 'home-zero'), connection: {} });
    expect(run.code, run.stderr).toBe(EXIT_CODES.failed);
    expect(run.stderr).toContain("Can't read “zero”: it is a device, not a file.");
    expect(run.stderr).not.toContain('empty');
  });
});
