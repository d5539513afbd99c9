// The floor of an XLSX import: the simplest program doing an import's essential work, for comparing with the engine's
// import (`bench/profile-step.ts --rows N import-xlsx`). The worksheet part is inflated as a stream, its XML scanned
// for rows and for each cell's value (`<v>`, or an inline string's `<t>`: the shapes the bench's workbooks have; no
// shared strings, formats or limits), and the rows are stored as the engine stores them: each row's cells as a JSON
// array in `rows`, 2,500 rows a transaction, into a fresh SQLite file with the app's schema. Run in its own process
// with the app's V8 flags; prints rows/s, CPU and peak RSS:
//
//   npx tsx bench/xlsx-import-floor.ts bench/tmp/sheet-v3-s1-p200000-r100000.xlsx [--no-store]
//
// --no-store: the rows are read but not stored, for what storing them costs.
import Database from 'better-sqlite3';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { openDatabase } from '../electron/engine/store';
import { readWorkbookOutline } from '../electron/engine/sheets/xlsx-workbook';
import { streamPart } from '../electron/engine/sheets/zip-directory';
import { decodeXml } from '../electron/engine/sheets/xml-elements';
import { INFLATE_CAPS } from '../electron/engine/sheets/inflate-limits';
import { APP_NODE_FLAGS } from './child-process';
import { num } from './report';

const { values, positionals } = parseArgs({ options: { 'no-store': { type: 'boolean' }, child: { type: 'boolean' } }, allowPositionals: true });
const path = positionals[0];
if (!path) {
  process.stderr.write('usage: xlsx-import-floor <file.xlsx> [--no-store]\n');
  process.exit(2);
}
if (!values.child) {
  const args = [...APP_NODE_FLAGS, '--import', 'tsx', fileURLToPath(import.meta.url), path, '--child', ...(values['no-store'] ? ['--no-store'] : [])];
  const run = spawnSync(process.execPath, args, { stdio: 'inherit', env: { ...process.env, NODE_OPTIONS: '' } });
  process.exit(run.status ?? 1);
}
const storing = !values['no-store'];

const ROWS_PER_TRANSACTION = 2500;
const dir = mkdtempSync(join(tmpdir(), 'matchdesk-import-floor-'));
let peak = 0;
const sample = () => (peak = Math.max(peak, process.memoryUsage.rss()));
const timer = setInterval(sample, 20);
try {
  const db: Database.Database = openDatabase(join(dir, 'matchdesk.sqlite'));
  const now = new Date().toISOString();
  const projectId = Number(
    db.prepare(`INSERT INTO projects (name, kind, source_name, format, headers, status, created_at, updated_at) VALUES ('floor', 'match', 'floor.xlsx', 'xlsx', '[]', 'importing', ?, ?)`).run(now, now)
      .lastInsertRowid,
  );
  const insert = db.prepare('INSERT INTO rows (project_id, row_index, cells) VALUES (?, ?, ?)');
  const store = db.transaction((batch: string[][], first: number) => {
    for (let i = 0; i < batch.length; i++) insert.run(projectId, first + i, JSON.stringify(batch[i]));
  });

  const started = performance.now();
  const cpu = process.cpuUsage();
  const outline = await readWorkbookOutline(path);
  const part = outline.parts.get(outline.sheets[0]!.part)!;
  const decoder = new StringDecoder('utf8');
  let rowsStored = 0;
  let batch: string[][] = [];
  let xml = '';
  let header = true;
  for await (const input of streamPart(path, part, undefined, { cap: INFLATE_CAPS.worksheet }) as AsyncIterable<Buffer>) {
    xml += decoder.write(input);
    let at = 0;
    for (;;) {
      const open = xml.indexOf('<row', at);
      const close = open < 0 ? -1 : xml.indexOf('</row>', open);
      if (close < 0) break;
      const cells: string[] = [];
      for (let c = xml.indexOf('<c ', open); c >= 0 && c < close; c = xml.indexOf('<c ', c + 3)) {
        const end = xml.indexOf('</c>', c);
        const gt = xml.indexOf('>', c);
        if (xml.charCodeAt(gt - 1) === 0x2f || end < 0 || end > close) {
          cells.push('');
          continue;
        }
        const from = xml.startsWith('<is><t>', gt + 1) ? gt + 8 : xml.startsWith('<v>', gt + 1) ? gt + 4 : -1;
        cells.push(from < 0 ? '' : decodeXml(xml.slice(from, xml.indexOf('<', from))));
      }
      at = close + 6;
      if (header) header = false;
      else batch.push(cells);
      if (batch.length >= ROWS_PER_TRANSACTION) {
        if (storing) store(batch, rowsStored);
        rowsStored += batch.length;
        batch = [];
      }
    }
    xml = xml.slice(at);
  }
  if (storing && batch.length > 0) store(batch, rowsStored);
  rowsStored += batch.length;
  const seconds = (performance.now() - started) / 1000;
  const used = process.cpuUsage(cpu);
  db.close();
  clearInterval(timer);
  sample();
  process.stdout.write(
    `floor${storing ? '' : ' (read, not stored)'}: ${num(rowsStored)} rows in ${num(seconds, 2)} s = ${num(rowsStored / seconds)} rows/s, CPU ${num((used.user + used.system) / 1e6, 2)} s, ` +
      `peak RSS ${num(Math.max(peak, process.resourceUsage().maxRSS * 1024) / 1e6)} MB\n`,
  );
} finally {
  clearInterval(timer);
  rmSync(dir, { recursive: true, force: true });
}
