// `matchdesk match` end to end alone, as the bench runs it (bench/cli-match.ts), against its own simulator: for an A/B
// of the command against another checkout (`--repo DIR`), without the whole bench. `--hash` prints a digest of what the
// run stored (rows' results, answers, plan), times left out, people named by their facts, not their ids (which follow
// the order calls land in), so two runs' results can be compared.
// `--timeline` prints, with the seconds since the command started, each line it writes and each hundredth call the
// simulator is sent (polled every 0.1 s): what the calls wait for at the start, how fast they go, what follows them.
//   npx tsx bench/cli-match-step.ts --rows 100000 [--repo DIR] [--hash] [--timeline]
import { createHash } from 'node:crypto';
import { cpus, loadavg } from 'node:os';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import { runCliMatch } from './cli-match';
import { ensureSheetFiles } from './sheet-files';
import { SimulatorProcess } from './simulator-process';

const { values } = parseArgs({
  options: {
    rows: { type: 'string', default: '100000' },
    repo: { type: 'string' },
    hash: { type: 'boolean', default: false },
    timeline: { type: 'boolean', default: false },
    seed: { type: 'string', default: '1' },
    'latency-ms': { type: 'string', default: '25' },
    concurrency: { type: 'string', default: '4' },
  },
});
const rows = Number(values.rows);
const seed = Number(values.seed);
const latencyMs = Number(values['latency-ms']);
const concurrency = Number(values.concurrency);
const people = 200_000;
const tmpDir = join(import.meta.dirname, 'tmp');

const sheet = await ensureSheetFiles(tmpDir, { rows, people, seed }, (line) => console.error(line));
const simulator = await SimulatorProcess.start({ people, seed, latencyMs });
// The command's data folder and files, removed after.
const workDir = join(tmpDir, `cli-step-${process.pid}`);
let watch: NodeJS.Timeout | undefined;
try {
  const simulatorBefore = (await simulator.tally()).cpuSeconds;
  // When the first and the last find call reached the simulator (s from the command's start): what waits before the
  // calls, what after.
  let started = performance.now();
  let firstCall: number | null = null;
  let lastCall = 0;
  let finds = 0;
  watch = setInterval(() => {
    void simulator.tally().then(({ findCalls }) => {
      const at = (performance.now() - started) / 1000;
      if (findCalls > 0 && firstCall === null) firstCall = at;
      if (findCalls > finds) {
        if (values.timeline && Math.floor(findCalls / 100) > Math.floor(finds / 100)) console.log(`${at.toFixed(2)} s  (${findCalls} calls sent)`);
        [finds, lastCall] = [findCalls, at];
      }
    });
  }, values.timeline ? 100 : 1_000);
  let digest = '';
  const result = await runCliMatch(sheet.csv, workDir, simulator.info, latencyMs, concurrency, {
    ...(values.repo ? { repo: values.repo } : {}),
    onStart: () => (started = performance.now()),
    ...(values.timeline ? { onLine: (seconds: number, line: string) => console.log(`${seconds.toFixed(2)} s  ${line}`) } : {}),
    ...(values.hash ? { inspect: (path: string, projectId: number) => (digest = storedDigest(path, projectId)) } : {}),
  });
  const simulatorCpu = (await simulator.tally()).cpuSeconds - simulatorBefore;
  const load = loadavg().map((l) => l.toFixed(2)).join(' ');
  console.log(
    `${values.repo ?? 'this checkout'}: ${result.seconds.toFixed(1)} s = ${(result.seconds / result.lowerBoundSeconds).toFixed(2)}x bound (${result.lowerBoundSeconds.toFixed(2)} s); ` +
      `first call at ${firstCall === null ? '-' : (firstCall as number).toFixed(1)} s, last at ${lastCall.toFixed(1)} s; ` +
      `CPU ${result.cpuSeconds.toFixed(1)} s, simulator ${simulatorCpu.toFixed(1)} s; ${result.calls} calls; peak RSS ${Math.round(result.maxRssMb)} MB; load ${load} (${cpus().length} cores)` +
      (digest ? `; stored ${digest}` : ''),
  );
} finally {
  // Whether the command ended or failed: no poll of a simulator that is stopping.
  clearInterval(watch);
  await simulator.stop();
  await rm(workDir, { recursive: true, force: true });
}

/** A digest of the project's rows' results, its plan, its queries and their answers, without times or people's ids. */
function storedDigest(path: string, projectId: number): string {
  const db = new Database(path, { readonly: true });
  try {
    const facts = new Map<number, string>();
    const personOf = (id: number | null) => {
      if (id === null) return null;
      let f = facts.get(id);
      if (f === undefined) facts.set(id, (f = db.prepare('SELECT facts FROM people WHERE id = ?').pluck().get(id) as string));
      return f;
    };
    const parts: Record<string, string> = {};
    const hashOf = (rowsOf: Iterable<unknown>) => {
      const hash = createHash('sha256');
      for (const row of rowsOf) hash.update(JSON.stringify(row)).update('\n');
      return hash.digest('hex').slice(0, 12);
    };
    parts.row_status = hashOf(
      mapped(db.prepare('SELECT * FROM row_status WHERE project_id = ? ORDER BY row_index').iterate(projectId), ({ fetched_at: _f, decided_at: _d, chosen_person, ...rest }) => ({
        ...rest,
        chosen_person: personOf(chosen_person as number | null),
      })),
    );
    parts.row_queries = hashOf(db.prepare('SELECT * FROM row_queries WHERE project_id = ? ORDER BY row_index, step').raw().iterate(projectId));
    // A query's digest names the service's address, the simulator's port among it: left out.
    parts.queries = hashOf(db.prepare('SELECT id, query FROM queries ORDER BY id').raw().iterate());
    parts.lookups = hashOf(
      mapped(db.prepare('SELECT query_id, status, candidate_count, facts, candidates, error, people, ranks FROM lookups ORDER BY query_id').iterate(), ({ people: ids, ...rest }) => ({
        ...rest,
        people: ids === null ? null : (JSON.parse(ids as string) as number[]).map(personOf),
      })),
    );
    parts.shared_queries = hashOf(db.prepare('SELECT * FROM shared_queries WHERE project_id = ? ORDER BY query_id, row_index').raw().iterate(projectId));
    return Object.entries(parts)
      .map(([table, hash]) => `${table} ${hash}`)
      .join(', ');
  } finally {
    db.close();
  }
}

function* mapped<T>(rowsOf: Iterable<unknown>, each: (row: Record<string, unknown>) => T): Generator<T> {
  for (const row of rowsOf) yield each(row as Record<string, unknown>);
}
