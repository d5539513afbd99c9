// The XLSX reader alone against the floor for its work: rows/s and peak RSS of openSheet reading every row of a
// workbook, and of the simplest program doing the same essential work (a streaming inflate of the worksheet part and
// a plain scan of its XML for rows, no cell decoded). Each is run in its own process with the app's V8 flags, so one
// run's heap is not the other's:
//
//   npx tsx bench/xlsx-read.ts bench/tmp/sheet-v3-s1-p200000-r1000000.xlsx
//
// The bench's sheets are made by `npx tsx bench/profile-step.ts --rows N prepare`, or bench/sheet-child.ts alone.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { openSheet } from '../electron/engine/sheets';
import { readWorkbookOutline } from '../electron/engine/sheets/xlsx-workbook';
import { streamPart } from '../electron/engine/sheets/zip-directory';
import { INFLATE_CAPS } from '../electron/engine/sheets/inflate-limits';
import { APP_NODE_FLAGS } from './child-process';

const [path, mode] = process.argv.slice(2);
if (!path) {
  process.stderr.write('usage: xlsx-read <file.xlsx> [reader|floor]\n');
  process.exit(2);
}

if (!mode) {
  for (const which of ['floor', 'reader']) {
    const child = spawnSync(process.execPath, [...APP_NODE_FLAGS, '--import', 'tsx', fileURLToPath(import.meta.url), path, which], { stdio: 'inherit', env: { ...process.env, NODE_OPTIONS: '' } });
    if (child.status !== 0) process.exit(child.status ?? 1);
  }
} else {
  let peak = 0;
  const sample = () => (peak = Math.max(peak, process.memoryUsage.rss()));
  const timer = setInterval(sample, 20);
  const started = performance.now();
  const cpu = process.cpuUsage();
  let rows = 0;
  if (mode === 'reader') {
    const sheet = await openSheet(path);
    for await (const batch of sheet.rowBatches()) rows += batch.length;
    await sheet.close();
  } else {
    const outline = await readWorkbookOutline(path);
    const part = outline.parts.get(outline.sheets[0]!.part)!;
    const row = Buffer.from('<row');
    let tail = Buffer.alloc(0);
    for await (const input of streamPart(path, part, undefined, { cap: INFLATE_CAPS.worksheet }) as AsyncIterable<Buffer>) {
      // The end of the chunk before, so that a tag cut in two is still found.
      const chunk = Buffer.concat([tail, input]);
      for (let at = chunk.indexOf(row); at >= 0; at = chunk.indexOf(row, at + row.length)) rows++;
      tail = chunk.subarray(Math.max(0, chunk.length - row.length + 1));
    }
    rows--; // the header
  }
  const seconds = (performance.now() - started) / 1000;
  const used = process.cpuUsage(cpu);
  clearInterval(timer);
  sample();
  const maxRss = (process.resourceUsage().maxRSS * 1024) / 1e6;
  process.stdout.write(
    `${mode}: ${rows.toLocaleString('en-US')} rows in ${seconds.toFixed(2)} s = ${Math.round(rows / seconds).toLocaleString('en-US')} rows/s, ` +
      `CPU ${((used.user + used.system) / 1e6).toFixed(2)} s, peak RSS ${Math.round(Math.max(peak / 1e6, maxRss))} MB\n`,
  );
}
