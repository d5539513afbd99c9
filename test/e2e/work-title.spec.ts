// The end of long work (issue 44): the tab's title says how far a run is ("42% · Matching · Matchdesk"), and a run
// that ends while the window is not in front says so in a desktop notification, the browser having allowed it when
// the run was started (headless Chromium shows none: the spec records them instead). A run slow enough to watch: our own simulator with latency, one request at a time.
import { expect, test } from './support/app';
import { waitForRun } from './support/demo';
import { importFromFile, recordNotifications, useSimulatorHost } from './support/simulator-host';
import { csvFile } from './support/sheets';

const { host } = useSimulatorHost('work-title', { people: 2000, seed: 7, latencyMs: 400 }, 'Slow simulator', { concurrency: 1 });
const ROWS = 1000;

test('the title follows a run, and its end is notified while the window is elsewhere', async ({ page }) => {
  const notifications = await recordNotifications(page);
  const app = host();
  const projectId = await importFromFile(page, app, csvFile('slow.csv', [['Email'], ...Array.from({ length: ROWS }, (_, i) => [`nobody.title.${i}@e2e.example`])]));
  await expect(page).toHaveTitle('Matchdesk');
  await page.getByTestId('mapping-continue').click();
  await expect(page).toHaveURL(/\/run$/);

  await page.getByTestId('run-start').click();
  await expect(page).toHaveTitle(/^\d{1,2}% · Matching · Matchdesk$/);
  // The user goes to another window while it runs.
  await page.evaluate(() => (globalThis as unknown as { dispatchEvent(event: Event): boolean }).dispatchEvent(new Event('blur')));
  await waitForRun(app, projectId, (progress) => progress.status !== 'running');
  await expect(page).toHaveTitle('Matchdesk');
  await expect
    .poll(notifications)
    .toEqual([{ title: 'Matching done', body: `${ROWS.toLocaleString('en-US')} rows looked up: the review is ready.` }]);
});
