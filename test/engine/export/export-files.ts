import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { onTestFinished } from 'vitest';

/** A fresh folder under the OS temp folder, removed when the current test finishes. */
export function tempFolder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'matchdesk-export-'));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

export async function* slowly<T>(rows: T[]): AsyncGenerator<T> {
  for (const row of rows) {
    await new Promise((resolve) => setImmediate(resolve));
    yield row;
  }
}

/** A row source that fails part way, as a database cursor might. */
export async function* failingAfter<T>(rows: T[], count: number): AsyncGenerator<T> {
  let n = 0;
  for (const row of rows) {
    if (n++ === count) throw new Error('the database went away');
    yield row;
  }
}
