import { access, mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { openSheet } from '../electron/engine/sheets';
import { runBenchScript } from './child-process';
import type { SheetStats } from './sheet-generator';

export interface SheetFiles {
  csv: string;
  xlsx: string;
  headers: string[];
  stats: SheetStats;
}

/** Bump when the generator or the simulator's people change, so sheets made from older ones are not reused. */
const GENERATOR_VERSION = 3;

/**
 * The bench sheet for these parameters as CSV and XLSX in `dir`, made by a child process unless an identical one
 * is there from an earlier run (it is a pure function of its parameters).
 */
export async function ensureSheetFiles(dir: string, p: { rows: number; people: number; seed: number }, log: (line: string) => void): Promise<SheetFiles> {
  const base = join(dir, `sheet-v${GENERATOR_VERSION}-s${p.seed}-p${p.people}-r${p.rows}`);
  const csv = `${base}.csv`;
  const xlsx = `${base}.xlsx`;
  const metaPath = `${base}.json`;
  const reused = await Promise.all([csv, xlsx, metaPath].map((f) => access(f).then(() => true, () => false)));
  if (reused.every(Boolean)) {
    log(`  reusing ${csv} (and .xlsx)`);
  } else {
    await mkdir(dir, { recursive: true });
    await runBenchScript('./sheet-child.ts', [csv, xlsx, metaPath, String(p.rows), String(p.people), String(p.seed)], 'Generating the bench sheet', { echo: true });
  }
  return JSON.parse(await readFile(metaPath, 'utf8')) as SheetFiles;
}

/** The first `count` rows of the sheet as the app's reader gives them, so the reference strategies see the same cells. */
export async function readFirstRows(file: string, count: number): Promise<string[][]> {
  const sheet = await openSheet(file);
  const rows: string[][] = [];
  try {
    for await (const cells of sheet.rows()) {
      rows.push(cells);
      if (rows.length >= count) break;
    }
  } finally {
    await sheet.close();
  }
  return rows;
}
