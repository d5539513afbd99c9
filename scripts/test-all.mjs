#!/usr/bin/env node
// `npm test`: every test runner in turn (vitest, then Playwright), then one summary line summed from their
// JSON reports, `N passed, N failed, N skipped`, and a non-zero exit if anything failed or nothing ran.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const reports = join(root, 'reports');
rmSync(reports, { recursive: true, force: true });
mkdirSync(reports, { recursive: true });

const only = process.argv[2]; // optional: "unit" or "e2e"
/** How much of a failed e2e test's page snapshot the log shows. */
const SNAPSHOT_LINES = 200;

/** `git status` lines of the checkout, or null where there is no git (an unpacked tarball). */
function checkoutState() {
  const status = spawnSync('git', ['status', '--porcelain', '--untracked-files=all'], { cwd: root, encoding: 'utf8' });
  return status.status === 0 ? new Set(status.stdout.split('\n').filter(Boolean)) : null;
}
// Tests write only to ignored folders (reports/, test-results/, the temp folder): a run that changes the checkout
// fails, so a screenshot or a fixture rewritten in place is caught the day it starts.
const checkoutBefore = checkoutState();
const totals = { passed: 0, failed: 0, skipped: 0 };
let runnerFailed = false;

function run(cmd, args) {
  const env = { ...process.env, PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1', MATCHDESK_TEST_REPORTS: reports };
  const result = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env });
  if (result.status !== 0) runnerFailed = true;
}

if (only !== 'e2e') {
  run('npx', ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${join(reports, 'vitest.json')}`]);
  const file = join(reports, 'vitest.json');
  if (existsSync(file)) {
    const r = JSON.parse(readFileSync(file, 'utf8'));
    totals.passed += r.numPassedTests ?? 0;
    // A file that failed to load has no failed test of its own: count it once, so it cannot hide.
    const brokenFiles = (r.testResults ?? []).filter(
      (f) => f.status === 'failed' && !(f.assertionResults ?? []).some((a) => a.status === 'failed'),
    ).length;
    totals.failed += (r.numFailedTests ?? 0) + brokenFiles;
    totals.skipped += (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0);
  } else {
    console.error('vitest wrote no report');
    totals.failed += 1;
  }
}

const hasE2e = existsSync(join(root, 'test/e2e')) && readdirSync(join(root, 'test/e2e')).some((f) => f.endsWith('.spec.ts'));
if (only !== 'unit' && hasE2e) {
  run('npx', ['playwright', 'test']);
  const file = join(reports, 'playwright.json');
  if (existsSync(file)) {
    const s = JSON.parse(readFileSync(file, 'utf8')).stats ?? {};
    totals.passed += (s.expected ?? 0) + (s.flaky ?? 0);
    totals.failed += s.unexpected ?? 0;
    totals.skipped += s.skipped ?? 0;
    if ((s.unexpected ?? 0) > 0) printPageSnapshots(join(root, 'test-results'));
  } else {
    console.error('playwright wrote no report');
    totals.failed += 1;
  }
}

/**
 * What each failed e2e test's page showed when it failed (Playwright's error-context.md: the page's accessibility
 * snapshot), so a failure seen only on CI, where test-results/ is gone afterwards, can still be read from its log.
 */
function printPageSnapshots(dir) {
  if (!existsSync(dir)) return;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const file = join(dir, entry.name, 'error-context.md');
    if (!entry.isDirectory() || !existsSync(file)) continue;
    // The file repeats the error the reporter printed and the test's source; the page is the YAML block between.
    const lines = readFileSync(file, 'utf8').split('\n');
    const start = lines.indexOf('```yaml');
    const end = lines.indexOf('# Test source');
    const page = lines.slice(start === -1 ? 0 : start, end > start ? end : lines.length);
    const shown = page.slice(0, SNAPSHOT_LINES);
    console.error(`\n---- the page when ${entry.name} failed (${entry.name}/error-context.md) ----\n${shown.join('\n')}`);
    if (page.length > shown.length) console.error(`(${page.length - shown.length} more lines)`);
  }
}

const checkoutAfter = checkoutState();
if (checkoutBefore && checkoutAfter) {
  const changed = [...checkoutAfter].filter((line) => !checkoutBefore.has(line));
  if (changed.length > 0) {
    console.error(`The tests changed the checkout (they may write only to ignored folders):\n  ${changed.join('\n  ')}`);
    totals.failed += 1;
  }
}

// Each skipped group says why (test/support/skips.ts records them), once however often its file was loaded.
const skipsFile = join(reports, 'skips.jsonl');
if (existsSync(skipsFile)) {
  const reasons = new Map();
  for (const line of readFileSync(skipsFile, 'utf8').split('\n').filter(Boolean)) {
    const { group, reason } = JSON.parse(line);
    reasons.set(group, reason);
  }
  for (const [group, reason] of reasons) console.log(`skipped: ${group}: ${reason}`);
}
console.log(`${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
if (runnerFailed && totals.failed === 0) console.error('a test runner exited non-zero');
process.exit(totals.failed > 0 || runnerFailed || totals.passed === 0 ? 1 : 0);
