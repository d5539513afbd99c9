// The same sheet imported again: its run takes the first project's verdicts where nothing differs
// (runs/copied-verdicts.ts), sends no call, and the new project reviews as the first one did.
import type { Page } from '@playwright/test';
import { expect, openApp, pickFile, projectIdFromUrl, screenshot, test, useHost } from './support/app';
import { csvFile, currentCompany, employedPeople, misspelledName, misspellablePeople } from './support/sheets';

const host = useHost('reimport');

/** People found by name and company (most accepted alone) and near names (left for review). */
const ROWS = [
  ['Name', 'Company'],
  ...employedPeople(120).map((p) => [p.name, currentCompany(p)!]),
  ...misspellablePeople(30).map((p) => [misspelledName(p), currentCompany(p)!]),
];

/** Picks the sheet on the projects screen, keeps the columns found, runs it to the end; returns the project. */
async function importAndRun(page: Page): Promise<number> {
  await openApp(page, host(), '#/projects');
  await pickFile(page, csvFile('contacts.csv', ROWS));
  await expect(page).toHaveURL(/#\/projects\/\d+\/mapping$/);
  await page.getByTestId('mapping-continue').click();
  await expect(page).toHaveURL(/\/run$/);
  const projectId = projectIdFromUrl(page);
  await page.getByTestId('run-start').click();
  // A run that ends opens the review.
  await expect(page).toHaveURL(new RegExp(`#/projects/${projectId}/review$`), { timeout: 60_000 });
  return projectId;
}

test('a sheet imported again is settled from the cache without a call, and reviews as the first project', async ({ page }) => {
  const app = host();
  // The demo's service, which knows the sheet's people, as the active profile.
  await app.value('demo.start', {});
  const first = await importAndRun(page);
  expect((await app.value('run.status', { projectId: first }))!.calls).toBeGreaterThan(0);

  const again = await importAndRun(page);
  expect(again).not.toBe(first);
  const progress = (await app.value('run.status', { projectId: again }))!;
  expect(progress).toMatchObject({ status: 'done', calls: 0, errors: 0, rowsResolved: ROWS.length - 1 });
  expect(progress.cacheHits).toBe(progress.queriesDone);
  await screenshot(page, 'reimport-review');
  await openApp(page, app, `#/projects/${again}/run`);
  await expect(page.getByTestId('run-status')).toHaveText('Done');
  await expect(page.getByText('0 calls to the service')).toBeVisible();
  await expect(page.getByText(`${progress.cacheHits.toLocaleString('en-US')} from the cache`)).toBeVisible();
  await screenshot(page, 'reimport-run-done');

  const counts = async (projectId: number) => (await app.value('projects.get', { projectId })).summary.counts;
  const firstCounts = await counts(first);
  expect(firstCounts.auto, 'rows accepted alone').toBeGreaterThan(50);
  expect(firstCounts.to_review, 'rows left for review').toBeGreaterThan(10);
  expect(await counts(again)).toEqual(firstCounts);
});
