// `matchdesk simulator`: starts the local People Data Service and serves until Ctrl+C / SIGTERM.
import { parseArgs } from 'node:util';
import { FAULT_PROFILES, FaultProfileError } from './faults';
import { FIND_SHAPES, type FindShape } from './find';
import { HostileRepliesError } from './hostile-replies';
import { SimulatorOptionsError, startSimulator, type SimulatorOptions } from './server';

const USAGE = `Usage: matchdesk simulator [options]

Runs a local People Data Service on 127.0.0.1 with seeded synthetic people.

Options:
  --port P          port to listen on (default 8787; 0 picks a free one)
  --people N        number of people (default 20000)
  --seed S          data and fault seed (default 1)
  --latency-ms L    delay added to every find/search call (default 0)
  --faults PROFILE  ${Object.keys(FAULT_PROFILES).join(' | ')}, or pairs like rate429=0.1,retryAfterS=2
  --hostile LIST    replies a broken or hostile service could send, comma-separated:
                      huge=BYTES        find and search replies padded to BYTES (valid JSON, only too big)
                      huge-login=BYTES  login replies padded so
                      candidates=N      each query that finds someone answers with N people (the spec says 5 at most)
                      jobs=N            every person in a reply lists N jobs
                      trickle=BPS       find and search replies sent at BPS bytes a second (a slow loris)
                      trickle-login=BPS login replies sent so
                      bad-utf8          a byte sequence that is not UTF-8 in every name
  --token-ttl-s T   access token lifetime in seconds (default 3600)
  --find-shape S    ${FIND_SHAPES.join(' | ')} (default array)
  --credits N       credit budget: credit headers, then 402 once spent (default: no cap)
  --scores          add a score to each person in find replies (the real service sends none)
  --gzip            gzip find and search replies for a caller that accepts it, as a web front end would
  --move-on SHARE   let the world move on before serving: of the people with a current job, this share (0 to 1)
                    end it; most start a new job elsewhere, a fifth leave without one (the same people as without
                    the flag otherwise, so a refresh against it finds who moved)
  --move-every S    with --move-on: move on by that share every S seconds while serving instead (each step a month
                    after the last, seeded by its number: the same people move in step N on every start)
  --move-seed S     which people move, where and when (default 1)
  -h, --help        show this help
`;

export interface SimulatorCommandIo {
  stdout?: (text: string) => void;
  stderr?: (text: string) => void;
  /** Stops the server when aborted; SIGINT and SIGTERM always do. */
  signal?: AbortSignal;
}

class UsageError extends Error {}

function wholeNumber(flag: string, text: string | undefined, fallback: number): number {
  if (text === undefined) return fallback;
  const value = Number(text);
  if (text.trim() === '' || !Number.isInteger(value) || value < 0) throw new UsageError(`${flag} must be a whole number of 0 or more, got "${text}".`);
  return value;
}

export async function runSimulatorCommand(argv: string[], io: SimulatorCommandIo = {}): Promise<number> {
  const out = io.stdout ?? ((text: string) => void process.stdout.write(text));
  const err = io.stderr ?? ((text: string) => void process.stderr.write(text));
  let options: SimulatorOptions;
  try {
    const { values } = parseArgs({
      args: argv,
      options: {
        port: { type: 'string' },
        people: { type: 'string' },
        seed: { type: 'string' },
        'latency-ms': { type: 'string' },
        faults: { type: 'string' },
        hostile: { type: 'string' },
        'token-ttl-s': { type: 'string' },
        'find-shape': { type: 'string' },
        credits: { type: 'string' },
        scores: { type: 'boolean' },
        gzip: { type: 'boolean' },
        'move-on': { type: 'string' },
        'move-seed': { type: 'string' },
        'move-every': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
      allowPositionals: false,
    });
    if (values.help) {
      out(USAGE);
      return 0;
    }
    const shape = values['find-shape'];
    if (shape !== undefined && !(FIND_SHAPES as readonly string[]).includes(shape)) {
      throw new UsageError(`--find-shape must be one of ${FIND_SHAPES.join(', ')}, got "${shape}".`);
    }
    const ttl = wholeNumber('--token-ttl-s', values['token-ttl-s'], 3600);
    const moveShare = values['move-on'] === undefined ? undefined : Number(values['move-on']);
    if (moveShare !== undefined && (values['move-on']!.trim() === '' || !(moveShare >= 0 && moveShare <= 1))) {
      throw new UsageError(`--move-on takes a share from 0 to 1 (e.g. 0.2), got "${values['move-on']}".`);
    }
    if (moveShare === undefined && values['move-seed'] !== undefined) throw new UsageError('--move-seed goes with --move-on.');
    if (moveShare === undefined && values['move-every'] !== undefined) throw new UsageError('--move-every goes with --move-on (the share each step moves).');
    const moveEvery = values['move-every'] === undefined ? undefined : wholeNumber('--move-every', values['move-every'], 0);
    if (moveEvery === 0) throw new UsageError('--move-every must be at least 1 second.');
    const moves = moveShare === undefined ? undefined : { share: moveShare, seed: wholeNumber('--move-seed', values['move-seed'], 1) };
    if (ttl === 0) throw new UsageError('--token-ttl-s must be at least 1 second.');
    options = {
      port: wholeNumber('--port', values.port, 8787),
      people: wholeNumber('--people', values.people, 20_000),
      seed: wholeNumber('--seed', values.seed, 1),
      latencyMs: wholeNumber('--latency-ms', values['latency-ms'], 0),
      faults: values.faults ?? 'none',
      ...(values.hostile === undefined ? {} : { hostile: values.hostile }),
      tokenTtlS: ttl,
      findShape: (shape ?? 'array') as FindShape,
      creditBudget: values.credits === undefined ? null : wholeNumber('--credits', values.credits, 0),
      scores: values.scores ?? false,
      gzip: values.gzip ?? false,
      ...(moves === undefined ? {} : moveEvery === undefined ? { moveOn: moves } : { epochs: { ...moves, everyMs: moveEvery * 1000 } }),
    };
  } catch (error) {
    err(`matchdesk simulator: ${(error as Error).message}\n\n${USAGE}`);
    return 2;
  }

  const started = performance.now();
  out(`Building ${options.people!.toLocaleString('en-US')} people (seed ${options.seed})...\n`);
  let simulator;
  try {
    simulator = await startSimulator(options);
  } catch (error) {
    if (error instanceof SimulatorOptionsError || error instanceof FaultProfileError || error instanceof HostileRepliesError) {
      err(`matchdesk simulator: ${error.message}\n`);
      return 2;
    }
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') {
      err(`matchdesk simulator: port ${options.port} is already in use; pick another with --port, or --port 0 for any free one.\n`);
      return 1;
    }
    throw error;
  }
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  const { demo } = simulator;
  // Listening for Ctrl+C before saying so: whoever reads "Press Ctrl+C to stop." may signal at once.
  const stopped = new Promise<void>((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      io.signal?.removeEventListener('abort', stop);
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
    if (io.signal?.aborted) stop();
    else io.signal?.addEventListener('abort', stop, { once: true });
  });
  out(
    [
      `People Data Service simulator ready in ${seconds} s`,
      `  base URL      ${simulator.baseUrl}`,
      `  org id        ${simulator.orgId}   (no role on ${simulator.otherOrgId}: 403)`,
      ...(options.hostile ? [`  hostile       ${String(options.hostile)}`] : []),
      `  faults        ${typeof options.faults === 'string' ? options.faults : 'custom'}; find shape ${options.findShape}; scores ${options.scores ? 'on' : 'off'}; gzip ${options.gzip ? 'on' : 'off'}; latency ${options.latencyMs} ms; credits ${options.creditBudget ?? 'no cap'}`,
      ...(options.moveOn ? [`  moved on      ${options.moveOn.share} of the people with a current job ended it (move seed ${options.moveOn.seed})`] : []),
      ...(options.epochs ? [`  moves on      ${options.epochs.share} of the people with a current job end it every ${options.epochs.everyMs! / 1000} s (move seed ${options.epochs.seed})`] : []),
      'Accounts it accepts (demo credentials, valid on this simulator only):',
      `  service account     clientId ${demo.clientId}   clientSecret ${demo.clientSecret}`,
      `  username/password   username ${demo.username}   password ${demo.password}`,
      `  API key             ${demo.apiKey}   (Authorization: Bearer <key>, no login)`,
      'Press Ctrl+C to stop.',
      '',
    ].join('\n'),
  );

  await stopped;
  await simulator.close();
  out('Simulator stopped.\n');
  return 0;
}
