// The real CLI in a child process, as a script runs it: no terminal, stdin closed, no keychain (the secret stays
// in the child's memory), its data in the MATCHDESK_HOME given.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { cliBundle } from '../support/cli-bundle';

export const BIN = resolve(__dirname, '../../bin/matchdesk.mjs');

export interface CliOutcome {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The MATCHDESK_* variables of a connection; an absent key is removed from the child's environment. */
export type Connection = Partial<Record<'MATCHDESK_BASE_URL' | 'MATCHDESK_ORG_ID' | 'MATCHDESK_CLIENT_ID' | 'MATCHDESK_CLIENT_SECRET', string>>;

/** The connection to a simulator, with its demo service account. */
export function connectionTo(sim: { baseUrl: string; orgId: string; demo: { clientId: string; clientSecret: string } }): Connection {
  return { MATCHDESK_BASE_URL: sim.baseUrl, MATCHDESK_ORG_ID: sim.orgId, MATCHDESK_CLIENT_ID: sim.demo.clientId, MATCHDESK_CLIENT_SECRET: sim.demo.clientSecret };
}

/**
 * `whileRunning` is handed the child once it is started: to signal it part-way, as a Ctrl-C would. The CLI runs from
 * its bundle (test/support/cli-bundle.ts) unless `bin` names a copy of the start script (BIN: the repository's, which
 * runs the same bundle after its checks) or `node` another Node than this one, which runs the start script.
 */
export async function runMatchdesk(
  args: string[],
  opts: { cwd: string; home: string; connection: Connection; whileRunning?: (child: ChildProcess) => void; node?: string; bin?: string },
): Promise<CliOutcome> {
  const env: NodeJS.ProcessEnv = { ...process.env, MATCHDESK_HOME: opts.home, DBUS_SESSION_BUS_ADDRESS: 'disabled:' };
  for (const key of ['MATCHDESK_BASE_URL', 'MATCHDESK_ORG_ID', 'MATCHDESK_CLIENT_ID', 'MATCHDESK_CLIENT_SECRET', 'MATCHDESK_USERNAME', 'MATCHDESK_PASSWORD', 'MATCHDESK_API_KEY']) {
    delete env[key];
  }
  Object.assign(env, opts.connection);
  const script = opts.bin ?? (opts.node ? BIN : await cliBundle());
  return new Promise((done, fail) => {
    const child = spawn(opts.node ?? process.execPath, [script, ...args], { cwd: opts.cwd, env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdin.end();
    child.on('error', fail);
    child.on('close', (code) => done({ code, stdout, stderr }));
    opts.whileRunning?.(child);
  });
}

/** The data file in a data home, as the engine names it (DATABASE_FILE), without loading the engine here. */
export const DATA_FILE = 'matchdesk.sqlite';

/**
 * Every project row in a data home's data file, whatever its status, read directly rather than by another CLI child:
 * none when no data file was made.
 */
export function projectsOnFile(home: string): { id: number; name: string; status: string }[] {
  const path = join(home, DATA_FILE);
  if (!existsSync(path)) return [];
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    return db.prepare('SELECT id, name, status FROM projects ORDER BY id').all() as { id: number; name: string; status: string }[];
  } finally {
    db.close();
  }
}
