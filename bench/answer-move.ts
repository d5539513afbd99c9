// Moving a data folder's answers to the layout of migration 23 (runs/answer-people.ts), timed on a copy of a folder
// an older version made. --times N first makes its cache N times larger (each copy's people renamed, so none is found
// again), to measure the move at 1M rows from a 100k folder:
//
//   git checkout <a commit before migration 23> && npx tsx bench/profile-step.ts --rows 100000 prepare
//   cp -r bench/tmp/profile-100000 bench/tmp/old-layout-100000 && git checkout -
//   npx tsx bench/answer-move.ts --from bench/tmp/old-layout-100000 [--times 10]
//
// "migrated in" is the schema's migrations from the folder's version: from before 28, the move of every answer, plan
// step and row to integer query ids (store/migrations/028-integer-query-ids.ts) in one transaction.
import Database from 'better-sqlite3';
import { copyFile, mkdir, rm, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { AnswerMove } from '../electron/engine/runs/answer-people';
import { openDatabase } from '../electron/engine/store';
import { num } from './report';

const TMP_DIR = fileURLToPath(new URL('./tmp', import.meta.url));
const { values } = parseArgs({ options: { from: { type: 'string' }, times: { type: 'string' } } });
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

const opened = performance.now();
const db = openDatabase(file);
console.log(`migrated in ${num((performance.now() - opened) / 1000, 2)} s; file ${num((await stat(file)).size / 1e6)} MB`);
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
