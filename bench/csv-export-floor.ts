// The floor of a CSV export: the simplest program doing an export's essential work on a prepared data folder, for
// comparing with the engine's export (`bench/profile-step.ts --rows N export-csv`). One statement walks the project's
// rows in order, 1,000 at a time, with their result columns and their chosen person's facts (whose summary is read from
// their front, as the engine reads it), each row's cells are parsed from their JSON, and each line is built with the
// quoting a CSV needs and written to a file 64 KB at a time. No formula guard, no progress, no last refresh's join, no
// decisions stored as JSON. Run in its own process with the app's V8 flags; prints rows/s, CPU and peak RSS:
//
//   npx tsx bench/profile-step.ts --rows 100000 prepare      # the data folder
//   npx tsx bench/csv-export-floor.ts --rows 100000
//   npx tsx bench/csv-export-floor.ts --rows 100000 --threads 2
//
// --threads N: N worker threads, each with its own read-only connection in one read transaction, take spans of
// SPAN_ROWS row indexes in turn and format each span into a buffer, which they hand over (transferred, not copied);
// the main thread writes the spans to the file in order.
import Database from 'better-sqlite3';
import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, openSync, rmSync, statSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import { readStoredSummary } from '../electron/engine/matching/candidate-facts';
import type { PersonSummary } from '../shared/model';
import { APP_NODE_FLAGS } from './child-process';
import { num } from './report';

/** Row indexes a worker formats at a time. */
const SPAN_ROWS = 2000;
const TMP_DIR = fileURLToPath(new URL('./tmp', import.meta.url));
const NO_SUMMARY: PersonSummary = { id: null, name: null, title: null, company: null, social: null, location: null };
const quoted = /[",\r\n]|^\s|\s$/;
const field = (text: string): string => (text.length === 0 || !quoted.test(text) ? text : `"${text.replace(/"/g, '""')}"`);

const SELECT = `SELECT r.row_index, r.cells, rs.state, rs.outcome, rs.source, rs.chosen_person, rs.chosen_rank, rs.chosen_score, rs.chosen_confidence, coalesce(rs.chosen_reason, rs.reason),
     rs.job_change, rs.job_change_date, rs.confidence, rs.strategy, rs.fetched_at, rs.decided_at,
     p.facts
   FROM rows r LEFT JOIN row_status rs ON rs.project_id = r.project_id AND rs.row_index = r.row_index
   LEFT JOIN people p ON p.id = rs.chosen_person AND rs.state IN ('auto', 'accepted')
   WHERE r.project_id = ? AND r.row_index >= ? AND r.row_index < ? ORDER BY r.row_index LIMIT 1000`;
type Row = [
  rowIndex: number, cells: string, state: string | null, outcome: string, source: string | null, person: number | null, rank: number | null, score: number | null, chosenConfidence: number | null,
  reason: string | null, jobChange: string | null, jobChangeDate: string | null, confidence: number | null, strategy: string | null, fetchedAt: number | null,
  decidedAt: string | null, facts: string | null,
];

/** The lines of the rows from row index `from` up to `to`, handed to `out` 64 KB of text at a time; how many there were. */
function formatRows(db: Database.Database, project: number, from: number, to: number, out: (text: string) => void): number {
  const select = db.prepare(SELECT).raw();
  let written = 0;
  let text = '';
  // Pages read whole: better-sqlite3's iterate() costs more per row than the rest of a line.
  for (let at = from; ; ) {
    const page = select.all(project, at, to) as Row[];
    if (page.length === 0) break;
    at = page.at(-1)![0] + 1;
    for (const [, cells, state, outcome, source, person, rank, score, chosenConfidence, reason, jobChange, jobChangeDate, confidence, strategy, fetchedAt, decidedAt, facts] of page) {
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
        out(text);
        text = '';
      }
    }
  }
  out(text);
  return written;
}

interface WorkerStart {
  dbPath: string;
  project: number;
  /** This worker's spans: from = (first + k * step) * SPAN_ROWS. */
  first: number;
  step: number;
  end: number;
}
/** A span's bytes, or the end of the worker's spans. */
type WorkerMessage = { span: number; bytes: ArrayBuffer; length: number; rows: number } | { done: true };

if (!isMainThread) {
  const { dbPath, project, first, step, end } = workerData as WorkerStart;
  const db = new Database(dbPath, { readonly: true, fileMustExist: true });
  // One read transaction: every span this worker formats comes from the same snapshot.
  db.prepare('BEGIN').run();
  for (let span = first; span * SPAN_ROWS < end; span += step) {
    let bytes = Buffer.allocUnsafeSlow(1 << 20);
    let used = 0;
    const rows = formatRows(db, project, span * SPAN_ROWS, (span + 1) * SPAN_ROWS, (text) => {
      if (used + text.length * 3 > bytes.length) {
        const larger = Buffer.allocUnsafeSlow(Math.max(bytes.length * 2, used + text.length * 3));
        bytes.copy(larger, 0, 0, used);
        bytes = larger;
      }
      used += bytes.write(text, used);
    });
    parentPort!.postMessage({ span, bytes: bytes.buffer, length: used, rows } satisfies WorkerMessage, [bytes.buffer as ArrayBuffer]);
  }
  db.prepare('COMMIT').run();
  db.close();
  parentPort!.postMessage({ done: true } satisfies WorkerMessage);
} else {
  const { values } = parseArgs({ options: { rows: { type: 'string' }, threads: { type: 'string' }, child: { type: 'boolean' } } });
  const rows = Number(values.rows ?? 100_000);
  const threads = Number(values.threads ?? 1);
  const dataDir = join(TMP_DIR, `profile-${rows}`);
  const dbPath = join(dataDir, 'matchdesk.sqlite');
  if (!existsSync(dbPath)) throw new Error(`No prepared folder for ${rows} rows: run "npx tsx bench/profile-step.ts --rows ${rows} prepare" first.`);

  if (!values.child) {
    const child = spawnSync(process.execPath, [...APP_NODE_FLAGS, '--import', 'tsx', fileURLToPath(import.meta.url), '--rows', String(rows), '--threads', String(threads), '--child'], {
      stdio: 'inherit',
      env: { ...process.env, NODE_OPTIONS: '' },
    });
    process.exit(child.status ?? 1);
  }

  let peak = 0;
  const sample = () => (peak = Math.max(peak, process.memoryUsage.rss()));
  const timer = setInterval(sample, 20);
  const started = performance.now();
  const cpu = process.cpuUsage();
  const db = new Database(dbPath, { readonly: true, fileMustExist: true });
  const project = db.prepare("SELECT id FROM projects WHERE name = 'Profile'").pluck().get() as number;
  const end = (db.prepare('SELECT max(row_index) + 1 FROM rows WHERE project_id = ?').pluck().get(project) as number | null) ?? 0;
  const out = join(dataDir, 'floor-export.csv');
  const fd = openSync(out, 'w');
  let written = 0;
  try {
    if (threads <= 1) {
      written = formatRows(db, project, 0, end, (text) => writeSync(fd, text));
    } else {
      written = await inWorkers(threads, { dbPath, project, end }, (bytes) => writeSync(fd, bytes));
    }
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
    `floor, ${threads === 1 ? 'one thread' : `${threads} worker threads`}: ${num(written)} rows (${num(size / 1e6, 1)} MB) in ${num(seconds, 2)} s = ${num(written / seconds)} rows/s, ` +
      `CPU ${num((used.user + used.system) / 1e6, 2)} s, peak RSS ${num(Math.max(peak, process.resourceUsage().maxRSS * 1024) / 1e6)} MB\n`,
  );
}

/** The rows formatted by `threads` workers, span by span in turn, and handed to `write` in row order; how many there were. */
async function inWorkers(threads: number, job: Omit<WorkerStart, 'first' | 'step'>, write: (bytes: Uint8Array) => void): Promise<number> {
  const here = import.meta.url;
  // The worker runs this file's TypeScript: it registers tsx first.
  const boot = `import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(here)}); })`;
  const waiting = new Map<number, { bytes: Uint8Array; rows: number }>();
  const spans = Math.ceil(job.end / SPAN_ROWS);
  let next = 0;
  let written = 0;
  await new Promise<void>((resolve, reject) => {
    for (let first = 0; first < threads; first++) {
      const worker = new Worker(boot, { eval: true, workerData: { ...job, first, step: threads } satisfies WorkerStart });
      worker.on('error', reject);
      worker.on('message', (message: WorkerMessage) => {
        if ('done' in message) return void worker.terminate();
        waiting.set(message.span, { bytes: new Uint8Array(message.bytes, 0, message.length), rows: message.rows });
        for (let ready = waiting.get(next); ready; ready = waiting.get(next)) {
          write(ready.bytes);
          written += ready.rows;
          waiting.delete(next++);
        }
        if (next === spans) resolve();
      });
    }
  });
  return written;
}
