// A run whose lookups fail must not look like success: partly done (some answered) in the warning colour, failed
// (none answered, the service out of reach) in the danger colour, each with the reason, never a green, full "Done".
import type { Page } from '@playwright/test';
import { startSimulator, type Simulator } from '../../electron/simulator';
import { expect, openApp, projectIdFromUrl, test, useHost } from './support/app';
import { selectSimulatorProfile } from './support/profiles';
import { checkScreen, expectVisibleKeyboardFocus } from './support/screen-check';
import { csvFile } from './support/sheets';

const host = useHost('run-failures');
let simulator: Simulator;

test.beforeAll(async () => {
  simulator = await startSimulator({ people: 2000, seed: 3 });
});

test.afterAll(async () => {
  await simulator?.close();
});

/** Imports a sheet of these e-mails through "New from file…" and opens its run screen. */
async function importEmails(page: Page, name: string, emails: string[]): Promise<number> {
  await openApp(page, host(), '#/projects');
  const choosing = page.waitForEvent('filechooser');
  await page.getByTestId('new-from-file').click();
  await (await choosing).setFiles(csvFile(`${name}.csv`, [['Email'], ...emails.map((email) => [email])]));
  await expect(page).toHaveURL(/#\/projects\/\d+\/mapping$/);
  await page.getByTestId('mapping-continue').click();
  await expect(page).toHaveURL(/\/run$/);
  return projectIdFromUrl(page);
}

test('a run some of whose lookups failed shows as partly done, with the reason and the failed lookups', async ({ page }) => {
  await selectSimulatorProfile(host(), 'Simulator', simulator.baseUrl);
  const known = simulator.dataset.people.slice(0, 4).map((person) => person.email_address);
  // Answered once and kept, so only the new addresses are sent while the service fails every people call.
  await importEmails(page, 'known', known);
  await page.getByTestId('run-start').click();
  await expect(page).toHaveURL(/\/review$/);

  await importEmails(page, 'mixed', [...known, 'lost.one@outage.example', 'lost.two@outage.example']);
  simulator.setFaults('outage');
  try {
    await page.getByTestId('run-start').click();
    await expect(page.getByTestId('run-status')).toHaveText('Partly done: some lookups failed', { timeout: 60_000 });
  } finally {
    simulator.setFaults('none');
  }
  await expect(page.getByTestId('run-status')).toHaveClass(/status--warning/);
  await expect(page.getByTestId('run-progress')).toHaveClass(/progress--warning/);
  await expect(page.getByTestId('run-progress')).toHaveAttribute('aria-valuenow', '66');
  await expect(page.getByRole('status').filter({ hasText: '2 of 6 lookups failed: The service failed with HTTP' })).toBeVisible();
  await expect(page.getByTestId('failed-lookups').getByRole('row')).toHaveCount(3);
  await expect(page.getByTestId('go-review')).toHaveClass(/button--secondary/);
  await expect(page).toHaveURL(/\/run$/);
  await page.getByTestId('run-retry').focus();
  await expectVisibleKeyboardFocus(page, page.getByRole('region', { name: 'Each failed lookup and why' }));
  await checkScreen(page, 'run-partly-done', () => page.getByTestId('run-status').scrollIntoViewIfNeeded());
});

test('a run that reached no service shows as failed, saying why', async ({ page }) => {
  await selectSimulatorProfile(host(), 'Nobody home', 'http://127.0.0.1:1');
  await importEmails(page, 'unreachable', ['someone@nowhere.example', 'someone.else@nowhere.example']);
  await page.getByTestId('run-start').click();
  const status = page.getByTestId('run-status');
  await expect(status).toHaveText('Failed: no lookup was answered', { timeout: 60_000 });
  await expect(status).toHaveClass(/status--danger/);
  await expect(status).not.toHaveText(/^Done/);
  await expect(page.getByTestId('run-progress')).toHaveAttribute('aria-valuenow', '0');
  await expect(page.getByRole('status').filter({ hasText: 'Every lookup failed, so no row was matched: Could not get an answer from 127.0.0.1:1' })).toBeVisible();
  await checkScreen(page, 'run-failed', () => page.getByTestId('run-status').scrollIntoViewIfNeeded());
});
