// Child process: builds the simulator's people for a seed, generates the bench sheet and writes it as CSV and
// XLSX with the app's own export module. Kept out of the engine's process so its memory is not counted there.
import { writeFile } from 'node:fs/promises';
import { buildDataset } from '../electron/simulator/dataset';
import { writeTable } from '../electron/engine/export';
import { generateSheet } from './sheet-generator';
import type { SheetFiles } from './sheet-files';

const [csvPath, xlsxPath, metaPath, rowsText, peopleText, seedText] = process.argv.slice(2);
if (!csvPath || !xlsxPath || !metaPath || !rowsText || !peopleText || !seedText) {
  process.stderr.write('usage: sheet-child <csv> <xlsx> <meta.json> <rows> <people> <seed>\n');
  process.exit(2);
}
const rows = Number(rowsText);
const seed = Number(seedText);
const started = performance.now();
const dataset = buildDataset(Number(peopleText), seed);
const sheet = generateSheet(dataset.people, rows, seed);
process.stdout.write(`  generated ${rows.toLocaleString('en-US')} rows in ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
await writeTable({ path: csvPath, format: 'csv' }, sheet.headers, sheet.rows);
process.stdout.write('  wrote the CSV\n');
await writeTable({ path: xlsxPath, format: 'xlsx' }, sheet.headers, sheet.rows);
process.stdout.write('  wrote the XLSX\n');
const meta: SheetFiles = { csv: csvPath, xlsx: xlsxPath, headers: sheet.headers, stats: sheet.stats };
await writeFile(metaPath, JSON.stringify(meta));
