// A skipped group must say why, in the run and in `npm test`'s closing summary: each skip is printed and
// appended to reports/skips.jsonl, which scripts/test-all.mjs reads after the runners have finished.
import { appendFileSync, existsSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';

const REPO_ROOT = join(import.meta.dirname, '..', '..');
const REPORTS = process.env.MATCHDESK_TEST_REPORTS ?? join(REPO_ROOT, 'reports');

/**
 * Prints and records that `group` is skipped because of `reason`, pointing to `howToRun` (a file of this
 * repository that says how to run the group); returns true when it is skipped (reason not null). A `howToRun`
 * that does not exist fails the test file whether it skips or not, so no skip message points nowhere.
 */
export function skipBecause(group: string, reason: string | null, howToRun = 'docs/testing.md'): boolean {
  if (!existsSync(join(REPO_ROOT, howToRun))) throw new Error(`The skip of ${group} points to ${howToRun}, which is not in the repository.`);
  if (reason === null) return false;
  const why = `${reason} (how to run it: ${howToRun})`;
  console.warn(`Skipping ${group}: ${why}.`);
  const file = join(REPORTS, 'skips.jsonl');
  mkdirSync(dirname(file), { recursive: true });
  appendFileSync(file, `${JSON.stringify({ group, reason: why })}\n`);
  return true;
}
