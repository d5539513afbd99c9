// The end of long work (issue 44): the tab's title says how far a run is ("42% · Matching · Matchdesk"), and a run
// that ends while the window is not in front says so in a desktop notification, the browser having allowed it when
// the run was started (headless Chromium shows none: the spec records them instead). A run slow enough to watch: our own simulator with latency, one request at a time.
import { startSimulator, type Simulator } from '../../electron/simulator';
import { expect, openApp, test, useHost } from './support/app';
import { waitForRun } from './support/demo';
import { selectSimulatorProfile } from './support/profiles';
import { csvFile } from './support/sheets';

const host = useHost('work-title');
const ROWS = 1000;
let simulator: Simulator;

test.beforeAll(async () => {
  simulator = await startSimulator({ people: 2000, seed: 7, latencyMs: 400 });
  const app = host();
  await selectSimulatorProfile(app, 'Slow simulator', simulator.baseUrl);
  await app.value('settings.update', { concurrency: 1 });
});

test.afterAll(async () => {
  await simulator?.close();
});

test('the title follows a run, and its end is notified while the window is elsewhere', async ({ page }) => {
  // Headless Chromium denies notifications whatever is granted, so the page's Notification is one that records what
  // the app shows and says the user allowed it; everything up to it (the run's events, the window's focus) is real.
  await page.addInitScript(() => {
    const browser = globalThis as unknown as { Notification: unknown; shownNotifications: { title: string; body?: string }[] };
    browser.shownNotifications = [];
    browser.Notification = class {
      static permission = 'granted';
      static requestPermission = () => Promise.resolve('granted');
      constructor(title: string, options?: { body?: string }) {
        browser.shownNotifications.push({ title, body: options?.body });
      }
    };
  });
  const app = host();
  await openApp(page, app, '#/projects');
  await expect(page).toHaveTitle('Matchdesk');
  const choosing = page.waitForEvent('filechooser');
  await page.getByTestId('new-from-file').click();
  await (await choosing).setFiles(csvFile('slow.csv', [['Email'], ...Array.from({ length: ROWS }, (_, i) => [`nobody.title.${i}@e2e.example`])]));
  await expect(page).toHaveURL(/#\/projects\/\d+\/mapping$/);
  await page.getByTestId('mapping-continue').click();
  await expect(page).toHaveURL(/\/run$/);
  const projectId = Number(/projects\/(\d+)\//.exec(page.url())![1]);

  await page.getByTestId('run-start').click();
  await expect(page).toHaveTitle(/^\d{1,2}% · Matching · Matchdesk$/);
  // The user goes to another window while it runs.
  await page.evaluate(() => (globalThis as unknown as { dispatchEvent(event: Event): boolean }).dispatchEvent(new Event('blur')));
  await waitForRun(app, projectId, (progress) => progress.status !== 'running');
  await expect(page).toHaveTitle('Matchdesk');
  await expect
    .poll(() => page.evaluate(() => (globalThis as unknown as { shownNotifications: unknown[] }).shownNotifications))
    .toEqual([{ title: 'Matching done', body: `${ROWS.toLocaleString('en-US')} rows looked up: the review is ready.` }]);
});
