import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { onTestFinished } from 'vitest';

/** A fresh folder under the OS temp folder, removed when the current test finishes. */
export function tempFolder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'matchdesk-store-'));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}
