// `node bin/matchdesk.mjs` on a Node older than 22.15 (better-sqlite3 needs Node-API 10, records are stored with zstd): the CLI runs again on the
// Node that comes with the project, with the same arguments, output, exit code and signals, or says what to do.
// Never a bare "Segmentation fault". Run for real on the machine's older Node.
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT_CODES } from '../../electron/cli/exit-codes';
import { skipBecause } from '../support/skips';
import { runMatchdesk } from './matchdesk-process';

const CANDIDATES = ['/usr/bin/node', '/usr/local/bin/node', '/bin/node'];

/** The first Node on this machine older than 22.15, or null. */
function olderNode(): string | null {
  for (const path of CANDIDATES) {
    try {
      const [major, minor] = execFileSync(path, ['--version'], { encoding: 'utf8' }).trim().replace(/^v/, '').split('.').map(Number);
      if (major < 22 || (major === 22 && minor < 15)) return path;
    } catch {
      // Not there, or not a Node: try the next.
    }
  }
  return null;
}

const old = olderNode();
const skipped = skipBecause('the older-Node start tests', old ? null : `no Node older than 22.15 at ${CANDIDATES.join(', ')}`);

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'matchdesk-cli-old-node-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe.skipIf(skipped)('matchdesk on a Node older than 22.15', () => {
  const on = (args: string[], extra: { bin?: string; whileRunning?: Parameters<typeof runMatchdesk>[1]['whileRunning'] } = {}) =>
    runMatchdesk(args, { cwd: dir, home: join(dir, 'home'), connection: {}, node: old!, ...extra });

  it('runs again on the bundled Node: same arguments, output and exit code, and the database opens', async () => {
    const sheet = join(dir, 'people.csv');
    writeFileSync(sheet, 'Name,Email\nAda Lovelace,ada@example.com\n');
    const imported = await on(['import', sheet, '--name', 'on the bundled node']);
    expect(imported.code, imported.stderr).toBe(EXIT_CODES.ok);
    expect(imported.stdout).toMatch(/^Project 1: on the bundled node, 1 rows$/m);

    const unknown = await on(['no-such-command']);
    expect(unknown.code).toBe(EXIT_CODES.usage);
    expect(unknown.stderr).toBe('matchdesk: unknown command "no-such-command". Run "matchdesk --help" to see the commands.\n');
  });

  it('forwards a SIGTERM to the run on the bundled Node, and ends as it does', async () => {
    let ready: () => void;
    const listening = new Promise<void>((resolve) => (ready = resolve));
    const run = await on(['simulator', '--port', '0', '--people', '50'], {
      whileRunning: (child) => {
        let said = '';
        child.stdout!.on('data', (chunk: Buffer) => {
          said += chunk.toString();
          if (said.includes('Press Ctrl+C to stop.')) ready();
        });
        void listening.then(() => child.kill('SIGTERM'));
      },
    });
    // Not forwarded, the simulator would go on serving and this run would never end.
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/Simulator stopped\./);
  });

  it('says what to do, and exits 1, where no bundled Node is installed', async () => {
    const lonely = join(dir, 'lonely', 'bin');
    mkdirSync(lonely, { recursive: true });
    copyFileSync(resolve(__dirname, '../../bin/matchdesk.mjs'), join(lonely, 'matchdesk.mjs'));
    const run = await on(['--version'], { bin: join(lonely, 'matchdesk.mjs') });
    expect(run.code).toBe(EXIT_CODES.failed);
    expect(run.stderr).toMatch(/^matchdesk: needs Node 22\.15 or newer \(better-sqlite3 needs Node-API 10, and records are stored with zstd\); this is Node v\d+\.\d+\.\d+ /);
    expect(run.stderr).toMatch(/The Node that comes with Matchdesk \(the "node" package in node_modules\) is not installed\./);
    expect(run.stderr).toMatch(/Run "npm install" in .*lonely and start it with "npx matchdesk"/);
    expect(run.stdout).toBe('');
  });
});
