// The XLSX writer alone: the rows of a bench sheet, with the columns an export adds (a status, a confidence, a
// profile address, a date), held in memory and written by writeTable, so the time is the writer's own. Prints the
// wall and CPU time of each of three writes and the file's size:
//
//   npx tsx bench/xlsx-write.ts bench/tmp/sheet-v3-s1-p200000-r100000.csv
import { rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSheet } from '../electron/engine/sheets';
import { writeTable } from '../electron/engine/export';

const path = process.argv[2];
if (!path) {
  process.stderr.write('usage: xlsx-write <sheet.csv|sheet.xlsx>\n');
  process.exit(2);
}
const sheet = await openSheet(path);
const headers = [...sheet.headers, 'match_status', 'match_confidence', 'match_profile', 'match_checked_at'];
const rows: (string | number | null)[][] = [];
const statuses = ['matched', 'needs_review', 'no_match', 'not_searched'];
for await (const row of sheet.rows()) {
  const n = rows.length;
  rows.push([...row.map((cell) => (cell === '' ? null : cell)), statuses[n % 4]!, n % 4 === 0 ? 0.5 + (n % 50) / 100 : null, n % 4 === 0 ? `https://people.example/p/${n}` : null, '2026-11-29']);
}
const out = join(tmpdir(), `matchdesk-xlsx-write-${process.pid}.xlsx`);
try {
  for (let round = 1; round <= 3; round++) {
    const cpu = process.cpuUsage();
    const started = performance.now();
    await writeTable({ path: out, format: 'xlsx' }, headers, rows);
    const used = process.cpuUsage(cpu);
    process.stdout.write(
      `write ${round}: ${rows.length.toLocaleString('en-US')} rows in ${((performance.now() - started) / 1000).toFixed(2)} s, ` +
        `CPU ${((used.user + used.system) / 1e6).toFixed(2)} s, ${((await stat(out)).size / 1e6).toFixed(1)} MB\n`,
    );
  }
} finally {
  await rm(out, { force: true });
}
