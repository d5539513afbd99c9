// The floor of a CSV export: the simplest program doing an export's essential work on a prepared data folder, for
// comparing with the engine's export (`bench/profile-step.ts --rows N export-csv`). One statement walks the project's
// rows in order, 1,000 at a time, with their result columns and their chosen person's facts (whose summary is read from
// their front, as the engine reads it), each row's cells are parsed from their JSON, and each line is built with the
// quoting a CSV needs and written to a file 64 KB at a time. No formula guard, no progress, no last refresh's join, no
// decisions stored as JSON. Run in its own process with the app's V8 flags; prints rows/s, CPU and peak RSS:
//
//   npx tsx bench/profile-step.ts --rows 100000 prepare      # the data folder
//   npx tsx bench/csv-export-floor.ts --rows 100000
import Database from 'better-sqlite3';
import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, openSync, rmSync, statSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { readStoredSummary } from '../electron/engine/matching/candidate-facts';
import type { PersonSummary } from '../shared/model';
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

const NO_SUMMARY: PersonSummary = { id: null, name: null, title: null, company: null, social: null, location: null };
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
      `SELECT r.row_index, r.cells, rs.state, rs.outcome, rs.source, rs.chosen_person, rs.chosen_rank, rs.chosen_score, rs.chosen_confidence, coalesce(rs.chosen_reason, rs.reason),
         rs.job_change, rs.job_change_date, rs.confidence, rs.strategy, rs.fetched_at, rs.decided_at,
         p.facts
       FROM rows r LEFT JOIN row_status rs ON rs.project_id = r.project_id AND rs.row_index = r.row_index
       LEFT JOIN people p ON p.id = rs.chosen_person AND rs.state IN ('auto', 'accepted')
       WHERE r.project_id = ? AND r.row_index >= ? ORDER BY r.row_index LIMIT 1000`,
    )
    .raw();
  type Row = [
    rowIndex: number, cells: string, state: string | null, outcome: string, source: string | null, person: number | null, rank: number | null, score: number | null, chosenConfidence: number | null,
    reason: string | null, jobChange: string | null, jobChangeDate: string | null, confidence: number | null, strategy: string | null, fetchedAt: number | null,
    decidedAt: string | null, facts: string | null,
  ];
  let text = '';
  // Pages read whole: better-sqlite3's iterate() costs more per row than the rest of a line.
  const rowsRead = function* () {
    for (let from = 0; ; ) {
      const page = select.all(project, from) as Row[];
      if (page.length === 0) return;
      yield* page;
      from = page.at(-1)![0] + 1;
    }
  };
  for (const [, cells, state, outcome, source, person, rank, score, chosenConfidence, reason, jobChange, jobChangeDate, confidence, strategy, fetchedAt, decidedAt, facts] of rowsRead()) {
    let line = '';
    for (const cell of JSON.parse(cells) as string[]) line += `${field(cell)},`;
    if (state === null) {
      line += 'blank,,,,,,,,,,,,,,,,,,,\r\n';
    } else {
      const chosen = person !== null && (state === 'auto' || state === 'accepted');
      const { id, name, title, company, social, location } = (facts === null ? null : readStoredSummary(facts)) ?? NO_SUMMARY;
      const sure = chosen ? chosenConfidence : confidence;
      line +=
        `${state},${source ?? ''},${field(id ?? '')},${field(name ?? '')},${field(title ?? '')},${field(company ?? '')},` +
        `${jobChange ?? ''},${jobChangeDate ?? ''},${field(social ?? '')},${field(location ?? '')},${score ?? ''},` +
        `${sure === null ? '' : Math.round(sure * 1000) / 1000},${field(reason ?? '')},${chosen ? (rank ?? '') : ''},` +
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
