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
//   npx tsx bench/csv-export-floor.ts --rows 100000 --ready
//   npx tsx bench/csv-export-floor.ts --rows 100000 --split
//   npx tsx bench/csv-export-floor.ts --rows 100000 --merged --bytes [--check]
//
// --split: the walk done again and again with one more part of the work each time (splitCosts).
//
// --merged: the floor of the engine's reading since issue 41's export work: no join per row. The chosen people's
// summaries read first, once, in id order (the engine's runs/export-summaries.ts), then each page's cells and
// row_status read by two statements walking their tables side by side and merged by row index.
//
// --bytes: --merged with the rows' cells read as their JSON's bytes, a page's rows in one buffer, and copied into the
// file's chunk as CSV fields (csv-stored-cells.ts: a cell needing quotes, an escape or the formula guard made as a
// string, as the export makes it), the match columns made as strings and written into the same chunk as UTF-8, 256 KB
// written at a time. --check: each row's fields compared with the export's string path (slower; for exactness only).
//
// --ready: the floor of a design whose rows keep their export text ready: each row's original cells as the CSV text
// the export copies as is (quoted and formula-guarded once, as an import would store them, in place of their JSON), and
// each chosen person's six summary values in a small table as the two pieces of text the line takes. Both are made
// first, in a copy of the folder (profile-N-ready), and what that costs is printed: the bytes a row's text takes beside
// its JSON, and the CPU making them, as an import would pay it.
//
// --threads N: N worker threads, each with its own read-only connection in one read transaction, take spans of
// SPAN_ROWS row indexes in turn and format each span into a buffer, which they hand over (transferred, not copied);
// the main thread writes the spans to the file in order.
import Database from 'better-sqlite3';
import { spawnSync } from 'node:child_process';
import { closeSync, copyFileSync, existsSync, mkdirSync, openSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import { csvEscaper } from '../electron/engine/export/csv-escape';
import { neutralizeFormula } from '../electron/engine/export/neutralize-formula';
import { parseCells } from '../electron/engine/rows/row-cells';
import { FACTS_VERSION, readStoredSummary } from '../electron/engine/matching/candidate-facts';
import { ROW_FACTS_VERSION } from '../electron/engine/store/lookups';
import { ExportSummaries } from '../electron/engine/runs/export-summaries';
import type { PersonSummary } from '../shared/model';
import { APP_NODE_FLAGS } from './child-process';
import { CsvStoredCells } from './csv-stored-cells';
import { num } from './report';

/** Row indexes a worker formats at a time. */
const SPAN_ROWS = 2000;
const TMP_DIR = fileURLToPath(new URL('./tmp', import.meta.url));
/** What --bytes did: the rows copied from their bytes and those made as strings. */
let copiedRows = '';
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

const STATUS_SELECT = `SELECT rs.row_index, rs.state, rs.outcome, rs.source, rs.chosen_person, rs.chosen_rank, rs.chosen_score, rs.chosen_confidence,
     coalesce(rs.chosen_reason, rs.reason), rs.job_change, rs.job_change_date, rs.confidence, rs.strategy, rs.fetched_at, rs.decided_at
   FROM row_status rs WHERE rs.project_id = ? AND rs.row_index BETWEEN ? AND ? ORDER BY rs.row_index`;
type StatusRow = [
  rowIndex: number, state: string, outcome: string, source: string | null, person: number | null, rank: number | null, score: number | null, chosenConfidence: number | null,
  reason: string | null, jobChange: string | null, jobChangeDate: string | null, confidence: number | null, strategy: string | null, fetchedAt: number | null,
  decidedAt: string | null,
];

const READY_SELECT = `SELECT x.row_index, x.line, rs.state, rs.outcome, rs.source, rs.chosen_person, rs.chosen_rank, rs.chosen_score, rs.chosen_confidence,
     coalesce(rs.chosen_reason, rs.reason), rs.job_change, rs.job_change_date, rs.confidence, rs.strategy, rs.fetched_at, rs.decided_at, pe.head, pe.tail
   FROM row_lines x LEFT JOIN row_status rs ON rs.project_id = x.project_id AND rs.row_index = x.row_index
   LEFT JOIN person_exports pe ON pe.person_id = rs.chosen_person AND rs.state IN ('auto', 'accepted')
   WHERE x.project_id = ? AND x.row_index >= ? AND x.row_index < ? ORDER BY x.row_index LIMIT 1000`;
type ReadyRow = [
  rowIndex: number, line: string, state: string | null, outcome: string, source: string | null, person: number | null, rank: number | null, score: number | null,
  chosenConfidence: number | null, reason: string | null, jobChange: string | null, jobChangeDate: string | null, confidence: number | null, strategy: string | null,
  fetchedAt: number | null, decidedAt: string | null, head: string | null, tail: string | null,
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
          `${jobChange ?? ''},${jobChangeDate ?? ''},${field(social ?? '')},${field(location ?? '')},` + lineTail(score, sure, reason, chosen, rank, strategy, fetchedAt, decidedAt, outcome);
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
  const { values } = parseArgs({
    options: {
      rows: { type: 'string' },
      threads: { type: 'string' },
      ready: { type: 'boolean' },
      split: { type: 'boolean' },
      merged: { type: 'boolean' },
      bytes: { type: 'boolean' },
      check: { type: 'boolean' },
      child: { type: 'boolean' },
    },
  });
  const rows = Number(values.rows ?? 100_000);
  const threads = Number(values.threads ?? 1);
  const dataDir = join(TMP_DIR, `profile-${rows}`);
  const dbPath = join(dataDir, 'matchdesk.sqlite');
  if (!existsSync(dbPath)) throw new Error(`No prepared folder for ${rows} rows: run "npx tsx bench/profile-step.ts --rows ${rows} prepare" first.`);

  if (!values.child) {
    const mode = values.ready ? ['--ready'] : values.split ? ['--split'] : values.merged ? ['--merged', ...(values.bytes ? ['--bytes'] : []), ...(values.check ? ['--check'] : [])] : [];
    const child = spawnSync(process.execPath, [...APP_NODE_FLAGS, '--import', 'tsx', fileURLToPath(import.meta.url), '--rows', String(rows), '--threads', String(threads), ...mode, '--child'], {
      stdio: 'inherit',
      env: { ...process.env, NODE_OPTIONS: '' },
    });
    process.exit(child.status ?? 1);
  }

  if (values.split) {
    splitCosts(dbPath);
    process.exit(0);
  }
  const readyDir = join(TMP_DIR, `profile-${rows}-ready`);
  // Made in this process the first time: its peak RSS is then the making's, and only the export's is sampled.
  const readyMade = values.ready === true && !existsSync(join(readyDir, 'matchdesk.sqlite'));
  const readyPath = values.ready ? prepareReady(dbPath, readyDir) : null;

  let peak = 0;
  const sample = () => (peak = Math.max(peak, process.memoryUsage.rss()));
  const timer = setInterval(sample, 20);
  const started = performance.now();
  const cpu = process.cpuUsage();
  const db = new Database(readyPath ?? dbPath, { readonly: true, fileMustExist: true });
  const project = db.prepare("SELECT id FROM projects WHERE name = 'Profile'").pluck().get() as number;
  const end = (db.prepare('SELECT max(row_index) + 1 FROM rows WHERE project_id = ?').pluck().get(project) as number | null) ?? 0;
  const out = join(dataDir, 'floor-export.csv');
  const fd = openSync(out, 'w');
  let written = 0;
  try {
    if (readyPath) {
      written = formatReadyRows(db, project, end, (text) => writeSync(fd, text));
    } else if (values.merged && values.bytes) {
      written = await formatBytesRows(db, project, (bytes) => writeSync(fd, bytes), values.check === true);
    } else if (values.merged) {
      written = await formatMergedRows(db, project, (text) => writeSync(fd, text));
    } else if (threads <= 1) {
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
  const kind = readyPath ? 'export text ready' : values.merged ? (values.bytes ? `no join per row, cells as bytes (${copiedRows})` : 'no join per row') : threads === 1 ? 'one thread' : `${threads} worker threads`;
  process.stdout.write(
    `floor, ${kind}: ${num(written)} rows (${num(size / 1e6, 1)} MB) in ${num(seconds, 2)} s = ${num(written / seconds)} rows/s, ` +
      `CPU ${num((used.user + used.system) / 1e6, 2)} s, peak RSS ${num((readyMade ? peak : Math.max(peak, process.resourceUsage().maxRSS * 1024)) / 1e6)} MB; load ${loadavg()[0]!.toFixed(1)}\n`,
  );
}

/** CPU seconds since `from` (a process.cpuUsage()). */
function cpuSince(from: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(from);
  return (used.user + used.system) / 1e6;
}

/**
 * A copy of the prepared folder whose rows keep their export text ready (--ready): `row_lines` holds each row's
 * cells as CSV text, in place of their JSON (the same key, written in row order as an import writes it), and
 * `person_exports` each person's summary as the two pieces a line takes (id to company; profile and location). Made
 * once; prints what it cost. Its path.
 */
function prepareReady(dbPath: string, readyDir: string): string {
  const readyPath = join(readyDir, 'matchdesk.sqlite');
  if (existsSync(readyPath)) return readyPath;
  // A copy left half-made (and its WAL) goes first.
  rmSync(readyDir, { recursive: true, force: true });
  mkdirSync(readyDir, { recursive: true });
  const source = new Database(dbPath, { readonly: true, fileMustExist: true });
  source.pragma('wal_checkpoint(TRUNCATE)');
  source.close();
  copyFileSync(dbPath, `${readyPath}.part`);
  const db = new Database(`${readyPath}.part`);
  const escape = csvEscaper(',');
  const cellsText = (cells: string[]) => cells.map((c) => escape(neutralizeFormula(c))).join(',');
  db.exec(`CREATE TABLE row_lines (project_id INTEGER NOT NULL, row_index INTEGER NOT NULL, line TEXT NOT NULL, PRIMARY KEY (project_id, row_index)) WITHOUT ROWID;
    CREATE TABLE person_exports (person_id INTEGER PRIMARY KEY, head TEXT NOT NULL, tail TEXT NOT NULL);`);
  let making = 0;
  let lineBytes = 0;
  let cellBytes = 0;
  const insertLine = db.prepare('INSERT INTO row_lines VALUES (?, ?, ?)');
  const started = process.cpuUsage();
  // Read whole first: a connection writes nothing while it iterates.
  const allRows = db.prepare('SELECT project_id, row_index, cells FROM rows ORDER BY project_id, row_index').raw().all() as [number, number, string][];
  db.transaction(() => {
    for (const [project, rowIndex, cells] of allRows) {
      const made = process.cpuUsage();
      const line = cellsText(JSON.parse(cells) as string[]);
      making += cpuSince(made);
      lineBytes += Buffer.byteLength(line);
      cellBytes += Buffer.byteLength(cells);
      insertLine.run(project, rowIndex, line);
    }
  })();
  const insertPerson = db.prepare('INSERT INTO person_exports VALUES (?, ?, ?)');
  let people = 0;
  let personBytes = 0;
  db.transaction(() => {
    for (const [id, facts] of db.prepare(`SELECT id, facts FROM people WHERE facts_version BETWEEN ${ROW_FACTS_VERSION} AND ${FACTS_VERSION}`).raw().all() as [number, string][]) {
      const s = readStoredSummary(facts) ?? NO_SUMMARY;
      const head = [s.id, s.name, s.title, s.company].map((v) => escape(v ?? '')).join(',');
      const tail = `${escape(s.social ?? '')},${escape(s.location ?? '')}`;
      insertPerson.run(id, head, tail);
      people++;
      personBytes += Buffer.byteLength(head) + Buffer.byteLength(tail);
    }
  })();
  const total = cpuSince(started);
  const pages = (name: string) => db.prepare('SELECT count(*) * (SELECT page_size FROM pragma_page_size) FROM dbstat WHERE name = ?').pluck().get(name) as number;
  process.stdout.write(
    `ready text made in ${num(total, 2)} s of CPU (${num(making, 2)} s making the rows' text): rows' text ${num(lineBytes / 1e6, 1)} MB against their JSON's ` +
      `${num(cellBytes / 1e6, 1)} MB (tables ${num(pages('row_lines') / 1e6, 1)} and ${num(pages('rows') / 1e6, 1)} MB); ${num(people)} people's summaries ` +
      `${num(personBytes / 1e6, 1)} MB of text, a table of ${num(pages('person_exports') / 1e6, 1)} MB\n`,
  );
  db.close();
  renameSync(`${readyPath}.part`, readyPath);
  return readyPath;
}

/** A matched line's columns from the score on, the same in both floors. */
function lineTail(
  score: number | null, sure: number | null, reason: string | null, chosen: boolean, rank: number | null,
  strategy: string | null, fetchedAt: number | null, decidedAt: string | null, outcome: string,
): string {
  return (
    `${score ?? ''},${sure === null ? '' : Math.round(sure * 1000) / 1000},${field(reason ?? '')},${chosen ? (rank ?? '') : ''},` +
    `${strategy ?? ''},${fetchedAt === null ? '' : new Date(fetchedAt).toISOString()},${decidedAt ?? ''},${outcome === 'error' ? 'error' : ''},${chosen ? 'no' : ''},\r\n`
  );
}

/** formatRows on the ready copy: each row's cells copied as they are, the person's summary as its two pieces. */
function formatReadyRows(db: Database.Database, project: number, end: number, out: (text: string) => void): number {
  const select = db.prepare(READY_SELECT).raw();
  let written = 0;
  let text = '';
  for (let at = 0; ; ) {
    const page = select.all(project, at, end) as ReadyRow[];
    if (page.length === 0) break;
    at = page.at(-1)![0] + 1;
    for (const [, cells, state, outcome, source, person, rank, score, chosenConfidence, reason, jobChange, jobChangeDate, confidence, strategy, fetchedAt, decidedAt, head, tail] of page) {
      let line = `${cells},`;
      if (state === null) {
        line += 'blank,,,,,,,,,,,,,,,,,,,\r\n';
      } else {
        const chosen = person !== null && (state === 'auto' || state === 'accepted');
        const sure = chosen ? chosenConfidence : confidence;
        line +=
          `${state},${source ?? ''},${head ?? ',,,'},${jobChange ?? ''},${jobChangeDate ?? ''},${tail ?? ','},` + lineTail(score, sure, reason, chosen, rank, strategy, fetchedAt, decidedAt, outcome);
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

/**
 * formatRows without a join per row (--merged): the people the matched rows chose read first, in id order, into a table
 * of their summaries (ExportSummaries.read); each page's cells and row_status (1,000 rows) by two statements side by side.
 */
async function formatMergedRows(db: Database.Database, project: number, out: (text: string) => void): Promise<number> {
  const summaries = await ExportSummaries.read(db, 'FROM row_status rs WHERE rs.project_id = @projectId', { projectId: project });
  const cellsPage = db.prepare('SELECT row_index, cells FROM rows WHERE project_id = ? AND row_index >= ? ORDER BY row_index LIMIT 1000').raw();
  const statusPage = db.prepare(STATUS_SELECT).raw();
  let written = 0;
  let text = '';
  for (let at = 0; ; ) {
    const cells = cellsPage.all(project, at) as [number, string][];
    if (cells.length === 0) break;
    const to = cells.at(-1)![0];
    const status = statusPage.all(project, at, to) as StatusRow[];
    at = to + 1;
    let next = 0;
    for (const [rowIndex, rowCells] of cells) {
      let line = '';
      for (const cell of JSON.parse(rowCells) as string[]) line += `${field(cell)},`;
      while (next < status.length && status[next]![0] < rowIndex) next++;
      const row = status[next];
      if (row === undefined || row[0] !== rowIndex) {
        line += 'blank,,,,,,,,,,,,,,,,,,,\r\n';
      } else {
        const [, state, outcome, source, person, rank, score, chosenConfidence, reason, jobChange, jobChangeDate, confidence, strategy, fetchedAt, decidedAt] = row;
        const chosen = person !== null && (state === 'auto' || state === 'accepted');
        const { id, name, title, company, social, location } = (chosen ? summaries.summaryOf(person) : null) ?? NO_SUMMARY;
        const sure = chosen ? chosenConfidence : confidence;
        line +=
          `${state},${source ?? ''},${field(id ?? '')},${field(name ?? '')},${field(title ?? '')},${field(company ?? '')},` +
          `${jobChange ?? ''},${jobChangeDate ?? ''},${field(social ?? '')},${field(location ?? '')},` + lineTail(score, sure, reason, chosen, rank, strategy, fetchedAt, decidedAt, outcome);
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

/**
 * formatMergedRows with the cells as their JSON's bytes (--bytes), copied into a 256 KB chunk as CSV fields where they
 * can be (csv-stored-cells.ts), with the formula guard; the match columns made as strings, as there. `check`: each
 * row's fields compared with the string path's (the export's: escape(neutralizeFormula(cell)), padded to the width).
 */
async function formatBytesRows(db: Database.Database, project: number, out: (bytes: Uint8Array) => void, check: boolean): Promise<number> {
  const summaries = await ExportSummaries.read(db, 'FROM row_status rs WHERE rs.project_id = @projectId', { projectId: project });
  const width = (JSON.parse(db.prepare('SELECT headers FROM projects WHERE id = ?').pluck().get(project) as string) as string[]).length;
  // A page's cells as one buffer, with their row indexes and byte lengths: a Buffer per row (CAST(cells AS BLOB)) cost
  // two to three times reading the cells as text, one per page about the same. The three aggregates take the rows in
  // one pass, in the subquery's order (checked below): an ORDER BY in each cost more than copying the cells saves.
  const cellsPage = db
    .prepare(
      `SELECT json_group_array(row_index), json_group_array(octet_length(cells)), CAST(group_concat(cells, '') AS BLOB)
       FROM (SELECT row_index, cells FROM rows WHERE project_id = ? AND row_index >= ? ORDER BY row_index LIMIT 1000)`,
    )
    .raw();
  const statusPage = db.prepare(STATUS_SELECT).raw();
  const escape = csvEscaper(',');
  const fields = new CsvStoredCells(',', escape);
  const chunk = Buffer.allocUnsafe(256 * 1024);
  let used = 0;
  let written = 0;
  for (let at = 0; ; ) {
    const [indexes, lengths, bytes] = cellsPage.get(project, at) as [string, string, Buffer | null];
    if (bytes === null) break;
    const rowIndexes = JSON.parse(indexes) as number[];
    const rowLengths = JSON.parse(lengths) as number[];
    const to = rowIndexes.at(-1)!;
    const status = statusPage.all(project, at, to) as StatusRow[];
    at = to + 1;
    let start = 0;
    let next = 0;
    for (let k = 0; k < rowIndexes.length; k++) {
      const rowIndex = rowIndexes[k]!;
      if (k > 0 && rowIndex <= rowIndexes[k - 1]!) throw new Error(`The page's rows came out of order at row ${rowIndex}.`);
      const end = start + rowLengths[k]!;
      let line: string;
      while (next < status.length && status[next]![0] < rowIndex) next++;
      const row = status[next];
      if (row === undefined || row[0] !== rowIndex) {
        line = ',blank,,,,,,,,,,,,,,,,,,,\r\n';
      } else {
        const [, state, outcome, source, person, rank, score, chosenConfidence, reason, jobChange, jobChangeDate, confidence, strategy, fetchedAt, decidedAt] = row;
        const chosen = person !== null && (state === 'auto' || state === 'accepted');
        const { id, name, title, company, social, location } = (chosen ? summaries.summaryOf(person) : null) ?? NO_SUMMARY;
        const sure = chosen ? chosenConfidence : confidence;
        line =
          `,${state},${source ?? ''},${field(id ?? '')},${field(name ?? '')},${field(title ?? '')},${field(company ?? '')},` +
          `${jobChange ?? ''},${jobChangeDate ?? ''},${field(social ?? '')},${field(location ?? '')},` + lineTail(score, sure, reason, chosen, rank, strategy, fetchedAt, decidedAt, outcome);
      }
      if (used + CsvStoredCells.room(start, end, width) + line.length * 3 > chunk.length) {
        out(chunk.subarray(0, used));
        used = 0;
      }
      const copied = fields.write(bytes, start, end, width, chunk, used);
      if (copied === -1 || check) {
        const cells = parseCells(bytes.toString('utf8', start, end));
        cells.length = width;
        const text = Array.from(cells, (cell) => escape(neutralizeFormula(cell ?? ''))).join(',');
        if (copied !== -1 && !chunk.subarray(used, copied).equals(Buffer.from(text))) {
          throw new Error(`Row ${rowIndex}: the cells copied from their bytes are ${JSON.stringify(chunk.toString('utf8', used, copied))}, the string path's ${JSON.stringify(text)}.`);
        }
        if (copied === -1) used += chunk.write(text, used);
      }
      if (copied !== -1) used = copied;
      start = end;
      used += chunk.write(line, used);
      written++;
    }
  }
  out(chunk.subarray(0, used));
  copiedRows = `${num(fields.copied)} copied, ${num(fields.declined)} made as strings`;
  return written;
}

/**
 * Where the floor's time goes (--split): the same walk done again and again, each time with one more part of the work,
 * 100 rows a read as the engine reads them, each pass's CPU printed: reading the rows' cells alone, then their
 * row_status too, then their chosen person's facts, then parsing the cells' JSON, then quoting and building the lines,
 * then turning them into UTF-8, then writing the file.
 */
function splitCosts(dbPath: string): void {
  const db = new Database(dbPath, { readonly: true, fileMustExist: true });
  const project = db.prepare("SELECT id FROM projects WHERE name = 'Profile'").pluck().get() as number;
  const reads = {
    cells: 'SELECT r.row_index, r.cells FROM rows r WHERE r.project_id = ? AND r.row_index >= ? ORDER BY r.row_index LIMIT 100',
    status: SELECT.replace(/,\s*p\.facts/, ', NULL').replace(/LEFT JOIN people[^\n]*\n/, '').replace('LIMIT 1000', 'LIMIT 100').replace('AND r.row_index < ?', ''),
    people: SELECT.replace('LIMIT 1000', 'LIMIT 100').replace('AND r.row_index < ?', ''),
  };
  const out = join(dirname(dbPath), 'split-export.csv');
  const stages = ['cells read', 'row_status read', 'people read', 'JSON.parse', 'lines', 'UTF-8', 'file writes'] as const;
  let before = 0;
  for (const [n, stage] of stages.entries()) {
    const select = db.prepare(n === 0 ? reads.cells : n === 1 ? reads.status : reads.people).raw();
    const fd = n === 6 ? openSync(out, 'w') : -1;
    const bytes = Buffer.allocUnsafe(256 * 1024);
    let used = 0;
    const cpu = process.cpuUsage();
    for (let at = 0; ; ) {
      const page = select.all(project, at) as Row[];
      if (page.length === 0) break;
      at = page.at(-1)![0] + 1;
      if (n < 3) continue;
      for (const [, cells, state, outcome, source, person, rank, score, chosenConfidence, reason, jobChange, jobChangeDate, confidence, strategy, fetchedAt, decidedAt, facts] of page) {
        const parsed = JSON.parse(cells) as string[];
        if (n < 4 || parsed.length < 0) continue;
        let line = '';
        for (const cell of parsed) line += `${field(neutralizeFormula(cell))},`;
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
        if (n < 5) continue;
        if (used + line.length * 3 > bytes.length) {
          if (fd !== -1) writeSync(fd, bytes, 0, used);
          used = 0;
        }
        used += bytes.write(line, used);
      }
    }
    if (fd !== -1) {
      writeSync(fd, bytes, 0, used);
      closeSync(fd);
      rmSync(out, { force: true });
    }
    const seconds = cpuSince(cpu);
    process.stdout.write(`  ${stage.padEnd(16)} ${num(seconds, 2)} s of CPU, ${num(Math.max(0, seconds - before), 2)} s more\n`);
    before = seconds;
  }
  db.close();
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
