// Saving the mapping of a large project plans every row's queries, and exporting it writes every row (a million rows:
// ~15 s to plan, ~10 s to CSV, ~40 s to Excel): both say how far they are, then go on.
import { expect, openApp, pickFile, projectIdFromUrl, screenshot, test, useHost } from './support/app';

const host = useHost('large-project-progress');

test('a 100,000-row project says how far its planning and its Excel export are, then hands the file over', async ({ page }) => {
  const app = host();
  await openApp(page, app, '#/projects');
  const lines = ['Name,Email,Company'];
  for (let i = 0; i < 100_000; i++) lines.push(`Person ${i},p${i}@example.com,Company ${i % 700}`);
  await pickFile(page, { name: 'large.csv', mimeType: 'text/csv', buffer: Buffer.from(lines.join('\n')) });
  await expect(page).toHaveURL(/#\/projects\/\d+\/mapping$/, { timeout: 60_000 });
  const projectId = projectIdFromUrl(page);

  await page.getByTestId('mapping-continue').click();
  await expect(page.getByTestId('mapping-planning')).toHaveText(/^Planning the queries… \d+%$/, { timeout: 30_000 });
  await screenshot(page, 'mapping-planning');
  await expect(page).toHaveURL(/\/run$/, { timeout: 60_000 });

  await page.goto(`${app.url}#/projects/${projectId}/export`);
  await expect(page.getByRole('heading', { level: 1, name: 'Export' })).toBeVisible();
  await page.getByRole('radio', { name: 'Excel workbook (.xlsx)' }).check();
  const downloading = page.waitForEvent('download', { timeout: 120_000 });
  await page.getByTestId('export-button').click();
  const progress = page.getByTestId('export-progress');
  await expect(progress).toHaveText(/^Writing the rows… ([1-9]\d?)%$/, { timeout: 60_000 });
  await screenshot(page, 'export-progress');
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/\.xlsx$/);
  await expect(page.getByTestId('export-result')).toContainText('Exported 100,000 rows');
  await expect(progress).toHaveCount(0);
});
