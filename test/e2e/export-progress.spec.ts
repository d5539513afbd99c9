// An export of a large project takes a while (a million rows: ~10 s to CSV, ~40 s to Excel): the export screen says
// which file it writes and how far through the rows it is, then what it wrote.
import { expect, openApp, pickFile, projectIdFromUrl, screenshot, test, useHost } from './support/app';

const host = useHost('export-progress');

test('an Excel export of a 100,000-row project says how far it is, then hands the file over', async ({ page }) => {
  const app = host();
  await openApp(page, app, '#/projects');
  const lines = ['Name,Email,Company'];
  for (let i = 0; i < 100_000; i++) lines.push(`Person ${i},p${i}@example.com,Company ${i % 700}`);
  await pickFile(page, { name: 'large.csv', mimeType: 'text/csv', buffer: Buffer.from(lines.join('\n')) });
  await expect(page).toHaveURL(/#\/projects\/\d+\/mapping$/, { timeout: 60_000 });
  await page.goto(`${app.url}#/projects/${projectIdFromUrl(page)}/export`);
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
