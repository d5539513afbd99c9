// Pause, resume and cancel on a run slow enough to catch in the act: a simulator of our own with latency,
// one request at a time, and a sheet of 1,500 e-mails (15 calls, 7.5 s at the least).
import type { Page } from '@playwright/test';
import { expect, screenshot, test } from './support/app';
import { waitForRun } from './support/demo';
import { importFromFile, useSimulatorHost } from './support/simulator-host';
import { csvFile } from './support/sheets';

const { host, simulator } = useSimulatorHost('run-control', { people: 2000, seed: 7, latencyMs: 500 }, 'Slow simulator', { concurrency: 1 });
const ROWS = 1500;
const CALLS = ROWS / 100;

/** Imports a sheet of e-mails nobody has and opens its run screen. */
async function importEmails(page: Page, name: string): Promise<number> {
  const rows = [['Email'], ...Array.from({ length: ROWS }, (_, i) => [`nobody.${name}.${i}@e2e.example`])];
  const projectId = await importFromFile(page, host(), csvFile(`${name}.csv`, rows));
  await expect(page.getByTestId('mapping-select-email')).toHaveValue('0');
  await page.getByTestId('mapping-continue').click();
  await expect(page).toHaveURL(/\/run$/);
  await expect(page.getByTestId('preview-calls')).toContainText(String(CALLS));
  await expect(page.getByText('Runs with the profile Slow simulator.')).toBeVisible();
  return projectId;
}

async function progressValue(page: Page): Promise<number> {
  return Number(await page.getByTestId('run-progress').getAttribute('aria-valuenow'));
}

test('a run paused, resumed, cancelled and started again finishes without asking twice', async ({ page }) => {
  const app = host();
  const projectId = await importEmails(page, 'first');
  simulator().resetCounters();

  await page.getByTestId('run-start').click();
  const status = page.getByTestId('run-status');
  await expect(status).toHaveText('Running');
  await expect.poll(() => progressValue(page), { message: 'the run makes progress' }).toBeGreaterThan(0);
  await screenshot(page, 'run-in-progress');

  await page.getByTestId('run-pause').click();
  await expect(status).toHaveText('Paused');
  await expect(page.getByTestId('run-resume')).toBeVisible();
  await page.getByTestId('run-resume').click();
  await expect(status).toHaveText('Running');

  await page.getByTestId('run-cancel').click();
  await expect(status).toHaveText('Cancelled');
  const cancelled = await app.value('run.status', { projectId });
  expect(cancelled?.status).toBe('cancelled');
  expect(cancelled!.rowsResolved, 'cancelled before the end').toBeLessThan(ROWS);
  expect(await progressValue(page)).toBeLessThan(100);

  // Starting again continues from what was fetched, and a clean finish opens the review.
  await page.getByTestId('run-start').click();
  await expect(page).toHaveURL(new RegExp(`#/projects/${projectId}/review$`), { timeout: 60_000 });
  const done = await app.value('run.status', { projectId });
  expect(done).toMatchObject({ status: 'done', rowsTotal: ROWS, rowsResolved: ROWS, errors: 0 });
  await expect(page.getByTestId('filter-chip-no_candidates')).toHaveAttribute('data-count', String(ROWS));
  // A call cut short by the cancel may be asked again; nothing else is.
  expect(simulator().counters().findCalls).toBeLessThanOrEqual(CALLS + 1);
  expect(simulator().counters().queries).toBeLessThanOrEqual(ROWS + 100);
});

test('cancelling a paused run cancels it, and starting again finishes', async ({ page }) => {
  const app = host();
  const projectId = await importEmails(page, 'second');

  await page.getByTestId('run-start').click();
  const status = page.getByTestId('run-status');
  await expect(status).toHaveText('Running');
  await page.getByTestId('run-pause').click();
  await expect(status).toHaveText('Paused');

  await page.getByTestId('run-cancel').click();
  await expect(status, 'run.cancel on a paused run').toHaveText('Cancelled');
  expect((await app.value('run.status', { projectId }))?.status).toBe('cancelled');

  await page.getByTestId('run-start').click();
  await expect(page).toHaveURL(new RegExp(`#/projects/${projectId}/review$`), { timeout: 60_000 });
  const done = await waitForRun(app, projectId, (progress) => progress.status !== 'running');
  expect(done).toMatchObject({ status: 'done', rowsResolved: ROWS, errors: 0 });
});
