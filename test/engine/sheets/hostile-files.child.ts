// Reads one sheet to its end (or its refusal) in a process of its own, started with a small heap, and prints what
// happened and the process's peak resident memory: hostile-files.test.ts compares it with a fixed bound.
import { openSheet, SheetError } from '../../../electron/engine/sheets';
import { peakRssBytes } from '../../../bench/peak-rss';

const path = process.argv[2]!;
let outcome: { rows: number } | { code: string; message: string };
try {
  const sheet = await openSheet(path);
  let rows = 0;
  for await (const row of sheet.rows()) if (row) rows++;
  outcome = { rows };
} catch (err) {
  outcome = err instanceof SheetError ? { code: err.code, message: err.message } : { code: 'crash', message: String(err) };
}
process.stdout.write(JSON.stringify({ outcome, peakRssBytes: peakRssBytes() }));
