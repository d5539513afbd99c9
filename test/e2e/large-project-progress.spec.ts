// Importing a large sheet reads every row, saving its mapping plans every row's queries, and exporting it writes every
// row (a million rows: ~5-20 s to import, ~15 s to plan, ~10 s to CSV, ~40 s to Excel): each says how far it is, then goes on.
import { expect, openApp, pickFile, projectIdFromUrl, screenshot, test, useHost } from './support/app';

const host = useHost('large-project-progress');

test('a 100,000-row project says how far its planning and its Excel export are, then hands the file over', async ({ page }) => {
  const app = host();
  await openApp(page, app, '#/projects');
  const lines = ['Name,Email,Company'];
  for (let i = 0; i < 100_000; i++) lines.push(`Person ${i},p${i}@example.com,Company ${i % 700}`);
  await pickFile(page, { name: 'large.csv', mimeType: 'text/csv', buffer: Buffer.from(lines.join('\n')) });
  // While it imports, a screen reader is told which file, not every count of rows read.
  await expect(page.getByTestId('import-status').getByRole('status')).toHaveText('Importing large.csv');
  // The rows read and how far through the file, as a bar it reads when asked.
  await expect(page.getByTestId('import-status').getByRole('progressbar', { name: 'Rows read' })).toHaveAttribute('aria-valuetext', /^[\d,]+ rows read, \d+%$/);
  await expect(page).toHaveURL(/#\/projects\/\d+\/mapping$/, { timeout: 60_000 });
  const projectId = projectIdFromUrl(page);

  await page.getByTestId('mapping-continue').click();
  const planning = page.getByTestId('mapping-planning');
  await expect(planning).toHaveText(/^Planning the queries… \d+%$/, { timeout: 30_000 });
  // A screen reader is told the words; the percent, which changes up to four times a second, is a bar it reads when asked.
  await expect(planning.getByRole('status')).toHaveText('Planning the queries…');
  await expect(planning.getByRole('progressbar', { name: 'Planning progress' })).toHaveAttribute('aria-valuenow', /^\d+$/);
  await screenshot(page, 'mapping-planning');
  await expect(page).toHaveURL(/\/run$/, { timeout: 60_000 });

  await page.goto(`${app.url}#/projects/${projectId}/export`);
  await expect(page.getByRole('heading', { level: 1, name: 'Export' })).toBeVisible();
  await page.getByRole('radio', { name: 'Excel workbook (.xlsx)' }).check();
  const downloading = page.waitForEvent('download', { timeout: 120_000 });
  await page.getByTestId('export-button').click();
  const progress = page.getByTestId('export-progress');
  await expect(progress).toHaveText(/^Writing the rows… ([1-9]\d?)%$/, { timeout: 60_000 });
  await expect(progress.getByRole('status')).toHaveText('Writing the rows…');
  await expect(progress.getByRole('progressbar', { name: 'Export progress' })).toHaveAttribute('aria-valuenow', /^[1-9]\d?$/);
  await screenshot(page, 'export-progress');
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/\.xlsx$/);
  await expect(page.getByTestId('export-result')).toContainText('Exported 100,000 rows');
  await expect(progress).toHaveCount(0);
});
