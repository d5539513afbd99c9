// A skipped group must say why, in the run and in `npm test`'s closing summary: each skip is printed and
// appended to reports/skips.jsonl, which scripts/test-all.mjs reads after the runners have finished.
import { appendFileSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';

const REPORTS = process.env.MATCHDESK_TEST_REPORTS ?? join(import.meta.dirname, '..', '..', 'reports');

/** Prints and records that `group` is skipped because of `reason`; returns true when it is (reason not null). */
export function skipBecause(group: string, reason: string | null): boolean {
  if (reason === null) return false;
  console.warn(`Skipping ${group}: ${reason}.`);
  const file = join(REPORTS, 'skips.jsonl');
  mkdirSync(dirname(file), { recursive: true });
  appendFileSync(file, `${JSON.stringify({ group, reason })}\n`);
  return true;
}
