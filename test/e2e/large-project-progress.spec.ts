// Importing a large sheet reads every row, saving its mapping plans every row's queries, and exporting it writes every
// row, each a while for a large sheet: each says how far it is, then goes on.
import { expect, openApp, pickFile, projectIdFromUrl, screenshot, test, useHost } from './support/app';

const host = useHost('large-project-progress');

test('a 100,000-row project says how far its planning and its Excel export are, then hands the file over', async ({ page }) => {
  const app = host();
  await openApp(page, app, '#/projects');
  // Sixty more columns, which the export writes and nothing plans: an export long enough to be seen going on and to
  // be found again after a visit elsewhere, on a fast machine too (three columns alone were written in half a second).
  const extra = Array.from({ length: 60 }, (_, j) => j);
  const lines = [`Name,Email,Company,${extra.map((j) => `Note ${j}`).join(',')}`];
  for (let i = 0; i < 100_000; i++) lines.push(`Person ${i},p${i}@example.com,Company ${i % 700},${extra.map((j) => (i * 7 + j) % 1000).join(',')}`);
  await pickFile(page, { name: 'large.csv', mimeType: 'text/csv', buffer: Buffer.from(lines.join('\n')) });
  // While it imports, a screen reader is told which file, not every count of rows read.
  await expect(page.getByTestId('import-status').getByRole('status')).toHaveText('Importing large.csv');
  // The rows read and how far through the file, as a bar it reads when asked.
  await expect(page.getByTestId('import-status').getByRole('progressbar', { name: 'Rows read' })).toHaveAttribute('aria-valuetext', /^[\d,]+ rows read, \d+%$/);
  await expect(page).toHaveURL(/#\/projects\/\d+\/mapping$/, { timeout: 60_000 });
  const projectId = projectIdFromUrl(page);
  // The whole sheet is checked for the rows to look up; the samples come from its first rows meanwhile.
  await expect(page.getByTestId('mapping-field-email')).toContainText('p0@example.com');
  await expect(page.getByText('100,000 rows to look up')).toBeVisible({ timeout: 30_000 });

  await page.getByTestId('mapping-continue').click();
  const planning = page.getByTestId('mapping-planning');
  await expect(planning).toHaveText(/^Planning the queries… \d+%$/, { timeout: 30_000 });
  // A screen reader is told the words; the percent, which changes up to four times a second, is a bar it reads when asked.
  await expect(planning.getByRole('status')).toHaveText('Planning the queries…');
  await expect(planning.getByRole('progressbar', { name: 'Planning progress' })).toHaveAttribute('aria-valuenow', /^\d+$/);
  await screenshot(page, 'mapping-planning');
  // Away to the settings while it plans: its end leaves the user there (it used to take them to the run screen).
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' }).click();
  await expect(page).toHaveURL(/#\/settings$/);
  await expect.poll(async () => (await app.value('job.list', { projectId })).filter((job) => job.kind === 'plan'), { timeout: 60_000 }).toEqual([]);
  // The save's answer reaches the page a moment after the engine is done: give it that moment to (not) move the page.
  await page.waitForTimeout(1_000);
  await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
  await expect(page).toHaveURL(/#\/settings$/);

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

  // Again, and away to the projects and back while it writes: the screen finds it going on, says how far, offers its
  // Cancel and holds the Export button (a second export would write the same rows beside it); the file still comes.
  const again = page.waitForEvent('download', { timeout: 120_000 });
  await page.getByTestId('export-button').click();
  await expect(progress).toHaveText(/^Writing the rows… ([1-9]\d?)%$/, { timeout: 60_000 });
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Projects' }).click();
  await expect(page).toHaveURL(/#\/projects$/);
  // The projects screen drawn, not only the address changed: back too soon, and React draws the export screen it never
  // left, which then shows its own export's end rather than one found going on.
  await expect(page.getByRole('heading', { level: 1, name: 'Projects' })).toBeVisible();
  await page.goBack();
  await expect(page.getByRole('heading', { level: 1, name: 'Export' })).toBeVisible();
  await expect(progress.getByRole('progressbar', { name: 'Export progress' })).toHaveAttribute('aria-valuenow', /^\d{1,2}$/);
  await expect(page.getByTestId('export-cancel')).toBeVisible();
  await expect(page.getByTestId('export-button')).toBeDisabled();
  // It shows what that export writes (Excel), not the screen's own default (CSV), held until it ends.
  const excel = page.getByRole('radio', { name: 'Excel workbook (.xlsx)' });
  await expect(excel).toBeChecked();
  await expect(excel).toBeDisabled();
  await screenshot(page, 'export-found-going-on');
  expect((await again).suggestedFilename()).toMatch(/\.xlsx$/);
  await expect(page.getByTestId('export-ended-elsewhere')).toContainText('The export has ended', { timeout: 10_000 });
  await expect(progress).toHaveCount(0);
  await expect(page.getByTestId('export-button')).toBeEnabled();
  await expect(excel).toBeChecked();
  await expect(excel).toBeEnabled();
});

test('the run screen of a project not planned yet says how far the planning is before it shows the cost', async ({ page }) => {
  const app = host();
  // A profile to run with (the demo's), so only the plan can hold the Start button back.
  await app.value('demo.start', {});
  await openApp(page, app, '#/projects');
  const lines = ['Name,Email,Company'];
  for (let i = 0; i < 100_000; i++) lines.push(`Person ${i},p${i}@example.com,Company ${i % 700}`);
  await pickFile(page, { name: 'unplanned.csv', mimeType: 'text/csv', buffer: Buffer.from(lines.join('\n')) });
  await expect(page).toHaveURL(/#\/projects\/\d+\/mapping$/, { timeout: 60_000 });
  const projectId = projectIdFromUrl(page);

  // Straight to the run, its mapping never saved (as after a quit on the mapping screen, or for another service's
  // profile): the cost can only be counted once the queries are planned with the mapping the import detected.
  await page.goto(`${app.url}#/projects/${projectId}/run`);
  const planning = page.getByTestId('run-planning');
  await expect(planning).toHaveText(/^Planning the queries… \d+%$/, { timeout: 30_000 });
  await expect(planning.getByRole('status')).toHaveText('Planning the queries…');
  // Starting would be refused as busy until the plan is made: the button waits for it. Both read in one moment of the
  // page, so a plan that ends in between cannot make this pass or fail by chance.
  const shown = await page
    .locator('[data-testid="run-planning"], [data-testid="run-start"]')
    .evaluateAll((elements) => elements.map((element) => `${element.getAttribute('data-testid')}${element.hasAttribute('disabled') ? ' disabled' : ''}`));
  if (shown.includes('run-planning')) expect(shown).toContain('run-start disabled');
  await screenshot(page, 'run-planning');
  await expect(page.getByTestId('cost-preview')).toBeVisible({ timeout: 60_000 });
  await expect(planning).toHaveCount(0);
  await expect(page.getByTestId('run-start')).toBeEnabled();
});
