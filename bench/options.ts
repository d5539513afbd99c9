import { parseArgs } from 'node:util';

export interface BenchOptions {
  rows: number;
  seed: number;
  latencyMs: number;
  concurrency: number;
  /** People in the simulator's dataset. */
  people: number;
  /** Rows the two reference strategies run on, from the top of the sheet. */
  slice: number;
  quick: boolean;
  readme: boolean;
  /** Where the engine process of each size writes a V8 CPU profile; null: none. */
  cpuProfileDir: string | null;
}

export const BENCH_USAGE = `Usage: npm run bench -- [options]

Measures Matchdesk against the local simulator (in its own process) and two reference strategies.

Options:
  --rows N          rows in the generated sheet (default 100000)
  --seed S          seed of the sheet and the simulator's people (default 1)
  --latency-ms L    fixed latency the simulator adds to every call (default 25)
  --concurrency C   Matchdesk's calls in flight (default 4)
  --slice N         rows the reference strategies run on (default 2000; 500 with --quick)
  --quick           10,000 rows, for a fast check
  --no-readme       leave README.md and bench/results.json as they are
  --cpu-prof DIR    the engine process of each size writes a CPU profile to DIR (bench/profile-summary.ts reads it)
  -h, --help        show this help
`;

export class BenchUsageError extends Error {
  override readonly name = 'BenchUsageError';
}

function whole(flag: string, text: string | undefined, fallback: number, min: number): number {
  if (text === undefined) return fallback;
  const value = Number(text);
  if (text.trim() === '' || !Number.isInteger(value) || value < min) throw new BenchUsageError(`${flag} must be a whole number of ${min} or more, got "${text}".`);
  return value;
}

/** Null when help was asked for. */
export function parseBenchArgs(argv: string[]): BenchOptions | null {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        rows: { type: 'string' },
        seed: { type: 'string' },
        'latency-ms': { type: 'string' },
        concurrency: { type: 'string' },
        slice: { type: 'string' },
        quick: { type: 'boolean' },
        'no-readme': { type: 'boolean' },
        'cpu-prof': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    throw new BenchUsageError((error as Error).message);
  }
  if (values.help) return null;
  const quick = values.quick ?? false;
  const rows = whole('--rows', values.rows, quick ? 10_000 : 100_000, 100);
  const concurrency = whole('--concurrency', values.concurrency, 4, 1);
  if (concurrency > 16) throw new BenchUsageError('--concurrency is at most 16 (the app allows 1 to 16).');
  return {
    rows,
    seed: whole('--seed', values.seed, 1, 0),
    latencyMs: whole('--latency-ms', values['latency-ms'], 25, 0),
    concurrency,
    people: 200_000,
    slice: Math.min(rows, whole('--slice', values.slice, quick ? 500 : 2000, 10)),
    quick,
    readme: !values['no-readme'],
    cpuProfileDir: values['cpu-prof'] ?? null,
  };
}
