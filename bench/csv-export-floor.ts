// The floor of a CSV export: the simplest program doing an export's essential work on a prepared data folder, for
// comparing with the engine's export (`bench/profile-step.ts --rows N export-csv`). One statement walks the project's
// rows in order with their result columns, each row's cells and chosen person are parsed from their JSON, and each
// line is built with the quoting a CSV needs and written to a file 64 KB at a time. No formula guard, no pages, no
// progress. Run in its own process with the app's V8 flags; prints rows/s, CPU and peak RSS:
//
//   npx tsx bench/profile-step.ts --rows 100000 prepare      # the data folder
//   npx tsx bench/csv-export-floor.ts --rows 100000
import Database from 'better-sqlite3';
import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, openSync, rmSync, statSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { APP_NODE_FLAGS } from './child-process';
import { num } from './report';

const TMP_DIR = fileURLToPath(new URL('./tmp', import.meta.url));
const { values } = parseArgs({ options: { rows: { type: 'string' }, child: { type: 'boolean' } } });
const rows = Number(values.rows ?? 100_000);
const dataDir = join(TMP_DIR, `profile-${rows}`);
if (!existsSync(join(dataDir, 'matchdesk.sqlite'))) throw new Error(`No prepared folder for ${rows} rows: run "npx tsx bench/profile-step.ts --rows ${rows} prepare" first.`);

if (!values.child) {
  const child = spawnSync(process.execPath, [...APP_NODE_FLAGS, '--import', 'tsx', fileURLToPath(import.meta.url), '--rows', String(rows), '--child'], {
    stdio: 'inherit',
    env: { ...process.env, NODE_OPTIONS: '' },
  });
  process.exit(child.status ?? 1);
}

interface Chosen {
  rank: number;
  score: number | null;
  summary: Record<string, string | null>;
  confidence?: number;
  reason?: string;
  jobChange?: { status: string; date: string | null };
}

const quoted = /[",\r\n]|^\s|\s$/;
const field = (text: string): string => (text.length === 0 || !quoted.test(text) ? text : `"${text.replace(/"/g, '""')}"`);

let peak = 0;
const sample = () => (peak = Math.max(peak, process.memoryUsage.rss()));
const timer = setInterval(sample, 20);
const started = performance.now();
const cpu = process.cpuUsage();
const db = new Database(join(dataDir, 'matchdesk.sqlite'), { readonly: true, fileMustExist: true });
const project = db.prepare("SELECT id FROM projects WHERE name = 'Profile'").pluck().get() as number;
const out = join(dataDir, 'floor-export.csv');
const fd = openSync(out, 'w');
let written = 0;
try {
  const select = db
    .prepare(
      `SELECT r.cells, rs.state, rs.outcome, rs.source, rs.chosen, rs.confidence, rs.reason, rs.strategy, rs.fetched_at, rs.decided_at
       FROM rows r LEFT JOIN row_status rs ON rs.project_id = r.project_id AND rs.row_index = r.row_index
       WHERE r.project_id = ? ORDER BY r.row_index`,
    )
    .raw();
  let text = '';
  for (const [cells, state, outcome, source, chosenText, confidence, reason, strategy, fetchedAt, decidedAt] of select.iterate(project) as IterableIterator<
    [string, string | null, string, string | null, string | null, number | null, string | null, string | null, number | null, string | null]
  >) {
    let line = '';
    for (const cell of JSON.parse(cells) as string[]) line += `${field(cell)},`;
    if (state === null) {
      line += 'blank,,,,,,,,,,,,,,,,,,,\r\n';
    } else {
      const chosen = chosenText === null ? null : (JSON.parse(chosenText) as Chosen);
      const s = chosen?.summary;
      line +=
        `${state},${source ?? ''},${field(s?.id ?? '')},${field(s?.name ?? '')},${field(s?.title ?? '')},${field(s?.company ?? '')},` +
        `${chosen?.jobChange?.status ?? ''},${chosen?.jobChange?.date ?? ''},${field(s?.social ?? '')},${field(s?.location ?? '')},${chosen?.score ?? ''},` +
        `${confidence === null ? '' : Math.round((chosen?.confidence ?? confidence) * 1000) / 1000},${field(chosen?.reason ?? reason ?? '')},${chosen?.rank ?? ''},` +
        `${strategy ?? ''},${fetchedAt === null ? '' : new Date(fetchedAt).toISOString()},${decidedAt ?? ''},${outcome === 'error' ? 'error' : ''},${chosen ? 'no' : ''},\r\n`;
    }
    text += line;
    written++;
    if (text.length >= 65536) {
      writeSync(fd, text);
      text = '';
    }
  }
  writeSync(fd, text);
} finally {
  closeSync(fd);
  db.close();
}
const seconds = (performance.now() - started) / 1000;
const used = process.cpuUsage(cpu);
clearInterval(timer);
sample();
const size = statSync(out).size;
rmSync(out, { force: true });
process.stdout.write(
  `floor: ${num(written)} rows (${num(size / 1e6, 1)} MB) in ${num(seconds, 2)} s = ${num(written / seconds)} rows/s, CPU ${num((used.user + used.system) / 1e6, 2)} s, ` +
    `peak RSS ${num(Math.max(peak, process.resourceUsage().maxRSS * 1024) / 1e6)} MB\n`,
);
