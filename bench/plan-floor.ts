// The floor of planning: the simplest program doing a plan's essential work, for comparing with the engine's
// (`bench/profile-step.ts --rows N plan-new`, every query new). It reads the prepared folder's project's rows in order,
// 10,000 at a time, works out each row's queries as the engine does (the same cells, mapping, normalising and
// hashing: matching/queries.ts, store/lookups.ts queryDigests), finds a repeated query by its digest in memory
// (store/digest-map.ts) and stores into a new file of its own, a transaction a page: each new query (id, digest,
// text), each step (row, step, strategy, query id) and each row's status as planning writes a new one (its query, step,
// strategy and label), all filed by their primary keys in row order, no other index. Run with the app's V8 flags;
// prints wall, CPU and the bytes written, and its thread's CPU in the two parts planning splits between two threads:
//
//   npx tsx bench/profile-step.ts --rows 100000 prepare      # the data folder (its rows and mapping are read)
//   npx node --max-semi-space-size=8 --import tsx bench/plan-floor.ts --rows 100000
import Database from 'better-sqlite3';
import { existsSync, rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { plannedQueries, rowInput } from '../electron/engine/matching';
import { BLANK_ROW, parseCells } from '../electron/engine/rows/row-cells';
import { rowLabel } from '../electron/engine/runs/planned-page';
import { DigestMap } from '../electron/engine/store/digest-map';
import { queryDigests } from '../electron/engine/store/lookups';
import { storedQuery } from '../electron/engine/store/query-text';
import type { Mapping, Strategy } from '../shared/model';
import { ioSince, readProcessIo } from './process-io';
import { num } from './report';

const PAGE_ROWS = 10_000;
const TMP_DIR = fileURLToPath(new URL('./tmp', import.meta.url));
const { values } = parseArgs({ options: { rows: { type: 'string' } } });
const rows = Number(values.rows ?? 100_000);
const source = join(TMP_DIR, `profile-${rows}`, 'matchdesk.sqlite');
if (!existsSync(source)) throw new Error(`No prepared folder for ${rows} rows: run \`npx tsx bench/profile-step.ts --rows ${rows} prepare\` first.`);
const target = join(TMP_DIR, `plan-floor-${rows}.sqlite`);
const removeTarget = () => ['', '-wal', '-shm'].forEach((end) => rmSync(`${target}${end}`, { force: true }));
removeTarget();

const src = new Database(source, { readonly: true });
const project = src.prepare('SELECT id, mapping, strategies, plan_scope FROM projects ORDER BY id LIMIT 1').get() as { id: number; mapping: string; strategies: string; plan_scope: string };
const mapping = JSON.parse(project.mapping) as Mapping;
const strategies = JSON.parse(project.strategies) as Strategy[];
const [baseUrl, orgId] = JSON.parse(project.plan_scope) as [string, string];
const pageOfRows = src.prepare('SELECT row_index, cells FROM rows WHERE project_id = ? AND row_index >= ? ORDER BY row_index LIMIT ?').raw();

const db = new Database(target);
db.pragma('journal_mode = WAL');
db.pragma('synchronous = NORMAL');
db.pragma('cache_size = -16000');
db.exec(`
  CREATE TABLE queries (id INTEGER PRIMARY KEY, digest INTEGER NOT NULL, query TEXT);
  CREATE TABLE row_queries (project_id INTEGER NOT NULL, row_index INTEGER NOT NULL, step INTEGER NOT NULL, strategy TEXT NOT NULL, query_id INTEGER NOT NULL,
    PRIMARY KEY (project_id, row_index, step)) WITHOUT ROWID;
  CREATE TABLE row_status (project_id INTEGER NOT NULL, row_index INTEGER NOT NULL, state TEXT NOT NULL, outcome TEXT, step INTEGER, strategy TEXT, query_id INTEGER, label TEXT,
    PRIMARY KEY (project_id, row_index)) WITHOUT ROWID;
`);
const addQuery = db.prepare('INSERT INTO queries (digest, query) VALUES (?, ?)');
const addStep = db.prepare('INSERT INTO row_queries (project_id, row_index, step, strategy, query_id) VALUES (?, ?, ?, ?, ?)');
const addStatus = db.prepare('INSERT INTO row_status (project_id, row_index, state, outcome, step, strategy, query_id, label) VALUES (?, ?, ?, ?, ?, ?, ?, ?)');

const digestOf = queryDigests(baseUrl, orgId);
const ids = new DigestMap();
let planned = 0;
let repeats = 0;
/** A row's part that needs no database: its label and its queries (text, strategy, digest). */
interface RowWork {
  rowIndex: number;
  label: string;
  steps: [signature: string, strategy: Strategy, digest: bigint][];
}
// Each page in two parts, timed apart: what the engine's verdict worker makes for it (runs/planned-page.ts), and the
// ids and writes its own thread keeps. On two threads the plan takes at best the longer of the two.
const cpuTimes = { pure: 0, writes: 0 };
const threadCpu = () => {
  const { user, system } = process.threadCpuUsage();
  return (user + system) / 1e6;
};
const workOut = (page: [number, string][]): RowWork[] => {
  const work: RowWork[] = [];
  for (const [rowIndex, text] of page) {
    if (text === BLANK_ROW) continue;
    const cells = parseCells(text);
    const input = rowInput(cells, mapping);
    const steps: RowWork['steps'] = [];
    for (const p of plannedQueries(input, strategies)) {
      const signature = storedQuery(p.query);
      if (steps.some((s) => s[0] === signature)) continue;
      steps.push([signature, p.strategy, digestOf(p.query)]);
    }
    work.push({ rowIndex, label: rowLabel(input, cells), steps });
  }
  return work;
};
const writePage = db.transaction((work: RowWork[]) => {
  for (const { rowIndex, label, steps } of work) {
    let first: [step: number, strategy: Strategy, id: number] | null = null;
    for (let step = 0; step < steps.length; step++) {
      const [signature, strategy, digest] = steps[step]!;
      let id = ids.get(digest);
      if (id === undefined) {
        id = Number(addQuery.run(digest, signature).lastInsertRowid);
        ids.set(digest, id);
      } else repeats++;
      addStep.run(project.id, rowIndex, step, strategy, id);
      first ??= [step, strategy, id];
    }
    if (first) addStatus.run(project.id, rowIndex, 'pending', 'pending', ...first, label);
    else addStatus.run(project.id, rowIndex, 'no_query', 'no_query', null, null, null, label);
    planned++;
  }
});

const io = readProcessIo();
const cpu = process.cpuUsage();
const started = performance.now();
for (let from = 0; ; ) {
  const page = pageOfRows.all(project.id, from, PAGE_ROWS) as [number, string][];
  if (page.length === 0) break;
  const atStart = threadCpu();
  const work = workOut(page);
  const worked = threadCpu();
  writePage(work);
  cpuTimes.pure += worked - atStart;
  cpuTimes.writes += threadCpu() - worked;
  from = page[page.length - 1]![0] + 1;
}
db.pragma('wal_checkpoint(TRUNCATE)');
const used = process.cpuUsage(cpu);
const wrote = ioSince(io, readProcessIo());
process.stdout.write(
  `plan floor, ${num(planned)} rows (${num(repeats)} repeated queries): ${((performance.now() - started) / 1000).toFixed(2)} s, ` +
    `CPU ${((used.user + used.system) / 1e6).toFixed(2)} s, wrote ${wrote ? num(Math.round(wrote.writeBytes / 1e6)) : '?'} MB; load ${loadavg()[0]!.toFixed(1)}\n` +
    `  its thread: the rows worked out ${cpuTimes.pure.toFixed(2)} s, ids and writes ${cpuTimes.writes.toFixed(2)} s (the pages read and the WAL checkpointed aside)\n`,
);
db.close();
src.close();
removeTarget();
