// Moving an older data folder to the layout of today, timed on a copy of a folder an older version made: migration 28
// (integer query ids: every answer, plan step and row moved, in slices; store/migrations/028-integer-query-ids.ts),
// then the answers stored before migration 25 (runs/answer-people.ts). --times N first makes its cache N times larger
// (each copy's people renamed, so none is found again), to measure the answers' move at 1M rows from a 100k folder:
//
//   git worktree add /tmp/old27 e1034ab    # the code before migration 28; before 23 for the answers' move
//   (cd /tmp/old27 && npx tsx bench/profile-step.ts --rows 1000000 prepare)
//   npx tsx bench/answer-move.ts --from /tmp/old27/bench/tmp/profile-1000000 [--times 10] [--stop-at 40]
//
// --stop-at P: migration 28 is first stopped once P% is moved (as closing the app would stop it), then started again
// in a new connection, which goes on where it stopped. Each part prints its wall time, CPU time and the process's peak
// RSS, with the load average.
import Database from 'better-sqlite3';
import { copyFile, mkdir, rm, stat } from 'node:fs/promises';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { AnswerMove } from '../electron/engine/runs/answer-people';
import { ALL_MIGRATIONS, MigrationStopped, migrateInSlices, openDatabase, schemaVersion, type MigrationProgress } from '../electron/engine/store';
import { num } from './report';

const TMP_DIR = fileURLToPath(new URL('./tmp', import.meta.url));
const { values } = parseArgs({ options: { from: { type: 'string' }, times: { type: 'string' }, 'stop-at': { type: 'string' } } });
if (!values.from) throw new Error('--from names the data folder an older version made (see the head of this file).');
const times = Number(values.times ?? 1);
const dir = join(TMP_DIR, 'answer-move');
const file = join(dir, 'matchdesk.sqlite');
await rm(dir, { recursive: true, force: true });
await mkdir(dir, { recursive: true });
await copyFile(join(resolve(values.from), 'matchdesk.sqlite'), file);

if (times > 1) {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  const started = performance.now();
  for (let k = 1; k < times; k++) {
    db.prepare(
      `INSERT INTO lookups (query_key, query, fetched_at, status, candidate_count, facts, candidates, error)
       SELECT query_key || '-' || @k, query, fetched_at + @k, status, candidate_count, facts, replace(candidates, '"name":"', '"name":"' || @k || ' '), error
       FROM lookups WHERE instr(query_key, '-') = 0`,
    ).run({ k });
  }
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
  console.log(`made the cache ${times} times larger in ${num((performance.now() - started) / 1000, 1)} s`);
}

const stopAt = values['stop-at'] === undefined ? null : Number(values['stop-at']);
const peakRss = () => num((process.resourceUsage().maxRSS * 1024) / 1e6);
/** Opens the copy as the engine's start does, and migrates it in slices, stopped at `stopAt`% when given. */
async function migrateCopy(stopAt: number | null): Promise<boolean> {
  // Opened at the version it is: the migrations run below, as the engine's start runs them.
  const header = new Database(file, { readonly: true });
  const version = schemaVersion(header);
  header.close();
  const db = openDatabase(file, { migrations: ALL_MIGRATIONS.filter((m) => m.version <= version) });
  db.pragma('cache_size = -16384');
  const stop = new AbortController();
  const cpu = process.cpuUsage();
  const started = performance.now();
  let shown = -1;
  const show = (p: MigrationProgress) => {
    const percent = Math.floor((p.done / Math.max(1, p.total)) * 100);
    if (stopAt !== null && percent >= stopAt) stop.abort();
    if (Math.floor(percent / 10) === shown && p.phase !== 'finishing') return;
    shown = Math.floor(percent / 10);
    const memory = process.memoryUsage();
    console.log(
      `  ${p.phase}: ${percent}% (${num(p.done)} of ${num(p.total)}), ${num((performance.now() - started) / 1000, 1)} s, RSS ${num(memory.rss / 1e6)} MB (JS heap ${num(memory.heapUsed / 1e6)} MB)`,
    );
  };
  let stopped = false;
  try {
    await migrateInSlices(db, ALL_MIGRATIONS, { onProgress: show, signal: stop.signal });
  } catch (error) {
    if (!(error instanceof MigrationStopped)) throw error;
    stopped = true;
  } finally {
    db.close();
  }
  const used = process.cpuUsage(cpu);
  console.log(
    `migration ${stopped ? 'stopped' : 'done'} in ${num((performance.now() - started) / 1000, 1)} s (CPU ${num((used.user + used.system) / 1e6, 1)} s), ` +
      `peak RSS so far ${peakRss()} MB; file ${num((await stat(file)).size / 1e6)} MB; load ${num(loadavg()[0]!, 1)}`,
  );
  return stopped;
}
if (stopAt !== null) await migrateCopy(stopAt);
await migrateCopy(null);
const db = openDatabase(file);
const cpu = process.cpuUsage();
const started = performance.now();
let last = 0;
await new AnswerMove(db, () => true, (p) => {
  if (p.done || p.answersMoved - last >= 100_000) {
    last = p.answersMoved;
    console.log(`  ${num(p.answersMoved)} / ${num(p.answersTotal)} answers moved, ${num((performance.now() - started) / 1000, 1)} s`);
  }
}).finishNow();
const used = process.cpuUsage(cpu);
const seconds = (performance.now() - started) / 1000;
const counts = db.prepare('SELECT (SELECT count(*) FROM lookups) AS answers, (SELECT count(*) FROM people) AS people').get() as { answers: number; people: number };
db.pragma('wal_checkpoint(TRUNCATE)');
db.close();
console.log(
  `moved in ${num(seconds, 1)} s (CPU ${num((used.user + used.system) / 1e6, 1)} s): ${num(counts.answers)} answers, ${num(counts.people)} people; ` +
    `file ${num((await stat(file)).size / 1e6)} MB (its free pages are given back while the app is idle)`,
);
await rm(dir, { recursive: true, force: true });
