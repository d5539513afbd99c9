import { resolve } from 'node:path';
import { defaultDataDir } from '../../engine/data-dir';
import { startWebHost, type WebHost } from '../../web/server';
import { parseCommandArgs } from '../args';
import { CliError } from '../cli-error';

/** `matchdesk web [--port P] [--data-dir DIR] [--open]`: runs until Ctrl+C. */
export async function runWebCommand(argv: string[]): Promise<number> {
  const { values } = parseCommandArgs(argv, {
    port: { type: 'string' },
    'data-dir': { type: 'string' },
    open: { type: 'boolean', default: false },
  });
  const port = parsePort(values.port);
  const dataDir = values['data-dir'] ? resolve(values['data-dir']) : defaultDataDir();
  let host: WebHost;
  try {
    host = await startWebHost({ dataDir, port, open: values.open, log: (line) => process.stderr.write(`${line}\n`) });
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    if ((err as NodeJS.ErrnoException).code === 'EADDRINUSE') throw CliError.usage(`Port ${port} is already in use. Pick another with --port, or leave it out to use a free one.`);
    throw new CliError(message);
  }
  process.stdout.write(`Matchdesk is running. Open this link in your browser:\n\n  ${host.url}\n\nData folder: ${dataDir}\nPress Ctrl+C to stop.\n`);
  // The engine starts meanwhile (the page shows an older data folder being brought up to this version).
  let failure: unknown = null;
  await new Promise<void>((done) => {
    process.once('SIGINT', () => done());
    process.once('SIGTERM', () => done());
    host.started.catch((err: unknown) => {
      failure = err;
      done();
    });
  });
  if (!failure) process.stdout.write('Stopping...\n');
  await host.close();
  if (failure) throw new CliError(failure instanceof Error ? failure.message : String(failure));
  return 0;
}

function parsePort(value: string | undefined): number {
  if (value === undefined) return 0;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw CliError.usage(`--port takes a port number from 0 to 65535, not "${value}".`);
  return port;
}
