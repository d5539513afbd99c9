import { createWriteStream, statSync } from 'node:fs';
import { once } from 'node:events';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { openSheet } from '../../../electron/engine/sheets';
import { tempFolder } from './sheet-files';

// A real collection before each heap reading, so the figure is what the reader holds, not garbage not yet swept.
setFlagsFromString('--expose_gc');
const gc = runInNewContext('gc') as () => void;

const ROWS = 200_000;

async function writeBigCsv(path: string, rows: number): Promise<void> {
  const out = createWriteStream(path);
  out.write('id,first,last,email,company,title,city,country,phone,note\n');
  let chunk = '';
  for (let i = 0; i < rows; i++) {
    chunk += `${i},First${i},Last${i},user${i}@example.com,"Company ${i % 977}, Inc",Engineer,City${i % 100},Country,+1 555 ${i},"a ""quoted"" note ${i}"\n`;
    if (chunk.length > 1 << 20) {
      const more = out.write(chunk);
      chunk = '';
      if (!more) await once(out, 'drain');
    }
  }
  out.end(chunk);
  await once(out, 'finish');
}

describe('openSheet streams', () => {
  it(`reads a ${ROWS.toLocaleString('en-US')}-row CSV without holding it in memory, and fast`, async () => {
    const path = join(tempFolder(), 'big.csv');
    await writeBigCsv(path, ROWS);
    const megabytes = statSync(path).size / 1e6;

    gc();
    const baseline = process.memoryUsage().heapUsed;
    let peakGrowth = 0;
    const started = performance.now();
    const sheet = await openSheet(path);
    let count = 0;
    let last: string[] = [];
    for await (const row of sheet.rows()) {
      count++;
      last = row;
      if (count % 50_000 === 0) {
        gc();
        peakGrowth = Math.max(peakGrowth, process.memoryUsage().heapUsed - baseline);
      }
    }
    const seconds = (performance.now() - started) / 1000;

    console.log(
      `CSV read: ${count.toLocaleString('en-US')} rows x 10 columns (${megabytes.toFixed(1)} MB) in ${seconds.toFixed(2)} s = ` +
        `${Math.round(count / seconds).toLocaleString('en-US')} rows/s (target >= 100,000); heap growth after GC peaked at ${(peakGrowth / 1e6).toFixed(1)} MB`,
    );
    expect(count).toBe(ROWS);
    expect(last).toEqual([`${ROWS - 1}`, `First${ROWS - 1}`, `Last${ROWS - 1}`, `user${ROWS - 1}@example.com`, `Company ${(ROWS - 1) % 977}, Inc`, 'Engineer', `City${(ROWS - 1) % 100}`, 'Country', `+1 555 ${ROWS - 1}`, `a "quoted" note ${ROWS - 1}`]);
    // The file is ~27 MB and would take well over 100 MB as row arrays; a streaming reader holds a chunk or two.
    expect(peakGrowth).toBeLessThan(16e6);
    expect(sheet.warnings).toEqual([]);
  });
});
