// A large sheet's import, the planning of its queries, its Excel export and an accept of its confident rows take a
// while: a user who picked the wrong file, mapping, format or threshold cancels any of them, and nothing half-made is
// left.
import type { Page } from '@playwright/test';
import { expect, openApp, pickFile, projectIdFromUrl, screenshot, test, useHost } from './support/app';
import { waitForRun } from './support/demo';
import { currentCompany, employedPeople } from './support/sheets';

const host = useHost('cancel-long-work');

/** Holds the browser host's uploads until the function returned is called. */
async function holdUploads(page: Page): Promise<() => void> {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/api/upload', async (route) => {
    await released;
    await route.continue();
  });
  return release;
}

/**
 * `rows` people, with `notes` columns of text beside them: an export writes every cell that is not empty, so a sheet
 * whose rows are not run yet (their match columns empty) needs them for its export to take long enough to cancel.
 */
function sheet(rows: number, notes = 0): Buffer {
  const extra = Array.from({ length: notes }, (_, n) => `Note ${n + 1}`);
  const lines = [['Name', 'Email', 'Company', ...extra].join(',')];
  for (let i = 0; i < rows; i++) lines.push([`Person ${i}`, `p${i}@example.com`, `Company ${i % 700}`, ...extra.map((_, n) => `note ${n + 1} of ${i}`)].join(','));
  return Buffer.from(lines.join('\n'));
}

test('an import cancelled part-way leaves no project, a plan cancelled part-way the mapping screen, and an export cancelled part-way no download', async ({ page }) => {
  const app = host();
  await openApp(page, app, '#/projects');

  await pickFile(page, { name: 'wrong-file.csv', mimeType: 'text/csv', buffer: sheet(500_000) });
  const status = page.getByTestId('import-status');
  await expect(status.getByRole('progressbar', { name: 'Rows read' })).toBeVisible({ timeout: 60_000 });
  await screenshot(page, 'import-under-way');
  await page.getByTestId('import-cancel').click();
  await expect(status.getByRole('status')).toHaveText('Import cancelled', { timeout: 30_000 });
  await expect(status).toContainText('The import of wrong-file.csv was cancelled: nothing of it was kept.');
  await expect(page).toHaveURL(/#\/projects$/);
  await expect(page.getByTestId('project-row')).toHaveCount(0);
  await screenshot(page, 'import-cancelled');
  await status.getByRole('button', { name: 'Dismiss this message' }).click();
  await expect(status).toHaveCount(0);

  await pickFile(page, { name: 'large.csv', mimeType: 'text/csv', buffer: sheet(100_000, 20) });
  await expect(page).toHaveURL(/#\/projects\/\d+\/mapping$/, { timeout: 60_000 });
  const projectId = projectIdFromUrl(page);
  // Planning its queries is cancelled too: the screen stays as it was, to change the mapping and go on.
  await page.getByTestId('mapping-continue').click();
  await expect(page.getByTestId('mapping-planning')).toHaveText(/^Planning the queries… \d+%$/, { timeout: 30_000 });
  await screenshot(page, 'planning-under-way');
  // Escape is the Cancel button's key.
  await expect(page.getByTestId('mapping-cancel')).toHaveAttribute('aria-keyshortcuts', 'Escape');
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('mapping-planning')).toHaveCount(0, { timeout: 30_000 });
  await expect(page.getByTestId('mapping-continue')).toBeEnabled();
  await expect(page.getByRole('alert')).toHaveCount(0);
  await expect(page).toHaveURL(/#\/projects\/\d+\/mapping$/);
  await page.getByTestId('mapping-continue').click();
  await expect(page).toHaveURL(/\/run$/, { timeout: 60_000 });

  await page.goto(`${app.url}#/projects/${projectId}/export`);
  await page.getByRole('radio', { name: 'Excel workbook (.xlsx)' }).check();
  let downloads = 0;
  page.on('download', () => downloads++);
  await page.getByTestId('export-button').click();
  await expect(page.getByTestId('export-progress')).toHaveText(/^Writing the rows… ([1-9]\d?)%$/, { timeout: 60_000 });
  await screenshot(page, 'export-under-way');
  await page.getByTestId('export-cancel').click();
  const cancelled = page.getByTestId('export-cancelled');
  await expect(cancelled.getByRole('status')).toHaveText('Export cancelled', { timeout: 30_000 });
  await expect(cancelled).toContainText(/The export was cancelled: large-matches\.xlsx was not written\./);
  await expect(page.getByTestId('export-progress')).toHaveCount(0);
  await expect(page.getByTestId('export-result')).toHaveCount(0);
  await screenshot(page, 'export-cancelled');
  expect(downloads).toBe(0);

  // Exporting again goes to the end, and hands the file over.
  await page.getByRole('radio', { name: 'CSV' }).check();
  const downloading = page.waitForEvent('download', { timeout: 60_000 });
  await page.getByTestId('export-button').click();
  expect((await downloading).suggestedFilename()).toBe('large-matches.csv');
  await expect(page.getByTestId('export-result')).toContainText('Exported 100,000 rows');
  await expect(cancelled).toHaveCount(0);
});

test('an import cancelled while the browser still uploads the file is never started', async ({ page }) => {
  const app = host();
  await openApp(page, app, '#/projects');
  // The upload is held until Cancel was pressed, as a large file on a slow disk would be.
  const release = await holdUploads(page);
  const imports: string[] = [];
  page.on('request', (request) => {
    if (request.url().endsWith('/api/call/projects.import')) imports.push(request.url());
  });

  await pickFile(page, { name: 'slow.csv', mimeType: 'text/csv', buffer: sheet(10) });
  const status = page.getByTestId('import-status');
  await expect(status.getByRole('status')).toHaveText('Importing slow.csv');
  await page.getByTestId('import-cancel').click();
  await expect(status.getByRole('status')).toHaveText('Cancelling the import of slow.csv');
  release();
  await expect(status.getByRole('status')).toHaveText('Import cancelled');
  await expect(status).toContainText('The import of slow.csv was cancelled: nothing of it was kept.');
  await expect(page.getByTestId('project-row').filter({ hasText: 'slow' })).toHaveCount(0);
  expect(imports).toEqual([]);

  // The next file imports as usual: nothing of the cancelled one is left to cancel it too.
  await page.unroute('**/api/upload');
  await pickFile(page, { name: 'next.csv', mimeType: 'text/csv', buffer: sheet(10) });
  await expect(page).toHaveURL(/#\/projects\/\d+\/mapping$/);
  expect(imports).toHaveLength(1);
});

test('an import that ends while the user works on another screen leaves them there and offers its mapping', async ({ page }) => {
  const app = host();
  await openApp(page, app, '#/projects');
  // The upload is held until the user has gone to Settings, as a large file would still be importing by then.
  const release = await holdUploads(page);

  await pickFile(page, { name: 'meanwhile.csv', mimeType: 'text/csv', buffer: sheet(25) });
  const status = page.getByTestId('import-status');
  await expect(status.getByRole('status')).toHaveText('Importing meanwhile.csv');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' }).click();
  await expect(page).toHaveURL(/#\/settings$/);
  release();

  await expect(status.getByRole('status')).toHaveText('meanwhile.csv is imported', { timeout: 30_000 });
  await expect(status).toContainText('25 rows. Map its columns to see what a run will cost.');
  await expect(page).toHaveURL(/#\/settings$/);
  await screenshot(page, 'import-ended-elsewhere');
  await status.getByRole('link', { name: 'Map its columns' }).click();
  await expect(page).toHaveURL(/#\/projects\/\d+\/mapping$/);
  await expect(page.getByTestId('mapping-continue')).toBeVisible();
  await expect(status).toHaveCount(0);

  // Without leaving its screen, an import goes on to its mapping as before.
  await page.unroute('**/api/upload');
  await page.goto(`${app.url}#/projects`);
  await pickFile(page, { name: 'stayed.csv', mimeType: 'text/csv', buffer: sheet(10) });
  await expect(page).toHaveURL(/#\/projects\/\d+\/mapping$/);
  await expect(status).toHaveCount(0);
});

/**
 * A project of ~18,000 rows waiting for review (the demo's employed people at a stride, 455 of them, each 40 times),
 * opened on the review screen: accepting them writes 500 at a time, a few seconds in all. Returns the counts then.
 */
async function confidentRowsToReview(page: Page, app: ReturnType<typeof host>) {
  // The demo's service and a threshold above what a name and an employer alone reach: the run leaves those rows for review.
  await app.value('demo.start', {});
  await app.value('settings.update', { autoAccept: { enabled: true, minConfidence: 0.9999, minLead: 0.5 } });
  // ~18,000 rows (the demo's employed people at a stride, 455 of them, each 40 times): the accept writes them 500 at
  // a time, a few seconds in all.
  const people = employedPeople(500);
  const lines = ['Name,Company'];
  for (let copy = 0; copy < 40; copy++) for (const person of people) lines.push(`${person.name},${currentCompany(person)}`);
  await openApp(page, app, '#/projects');
  await pickFile(page, { name: 'confident.csv', mimeType: 'text/csv', buffer: Buffer.from(lines.join('\n')) });
  await expect(page).toHaveURL(/#\/projects\/\d+\/mapping$/, { timeout: 60_000 });
  const projectId = projectIdFromUrl(page);
  await page.getByTestId('mapping-continue').click();
  await expect(page).toHaveURL(/\/run$/, { timeout: 60_000 });
  await app.value('run.start', { projectId });
  await waitForRun(app, projectId, (p) => p.status === 'done');

  await page.goto(`${app.url}#/projects/${projectId}/review`);
  const toReview = page.getByTestId('filter-chip-to_review');
  // The counts once loaded (the chips read 0 until then): every row waits for review, none is accepted yet.
  await expect(toReview).toHaveAttribute('data-count', /^[1-9]\d{3,}$/);
  const before = { toReview: await toReview.getAttribute('data-count'), auto: await page.getByTestId('filter-chip-auto').getAttribute('data-count') };
  return { projectId, toReview, before };
}

test('an accept of confident rows cancelled part-way takes back the rows it had accepted', async ({ page }) => {
  const app = host();
  const { toReview, before } = await confidentRowsToReview(page, app);
  await page.getByTestId('accept-all-auto').click();
  await page.getByTestId('threshold-0.95').check();
  await expect(page.getByTestId('accept-confident-confirm')).toHaveText(/^Accept \d{1,2},\d{3} rows$/);
  await page.getByTestId('accept-confident-confirm').click();
  const progress = page.getByTestId('accept-progress');
  await expect(progress.getByRole('status')).toHaveText('Accepting rows…');
  // Cancelled once rows were accepted (its first slice written), so there is something to take back.
  await expect(progress.getByRole('progressbar', { name: 'Accept progress' })).toHaveAttribute('aria-valuenow', /^[1-9]\d?$/);
  await screenshot(page, 'accept-under-way');
  await page.getByTestId('accept-cancel').click();
  await expect(page.getByText('Accepting the confident rows was cancelled: no row was changed.')).toBeVisible({ timeout: 30_000 });
  await expect(progress).toHaveCount(0);
  await expect(toReview).toHaveAttribute('data-count', before.toReview!);
  await expect(page.getByTestId('filter-chip-auto')).toHaveAttribute('data-count', before.auto!);
});

test('an accept goes on while the user is elsewhere and shows again on the way back; undoing it says how far it is', async ({ page }) => {
  const app = host();
  const { projectId, toReview, before } = await confidentRowsToReview(page, app);
  await page.getByTestId('accept-all-auto').click();
  await page.getByTestId('threshold-0.95').check();
  const confirm = page.getByTestId('accept-confident-confirm');
  await expect(confirm).toHaveText(/^Accept \d{1,2},\d{3} rows$/);
  const accepting = Number((await confirm.textContent())!.replace(/\D/g, ''));
  await confirm.click();
  await expect(page.getByTestId('accept-progress').getByRole('status')).toHaveText('Accepting rows…');

  // Away to the settings and back while it goes on: the review finds it going on, says how far, and offers its Cancel.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' }).click();
  await expect(page).toHaveURL(/#\/settings$/);
  await page.goBack();
  await expect(page).toHaveURL(new RegExp(`#/projects/${projectId}/review$`));
  const progress = page.getByTestId('accept-progress');
  await expect(progress.getByRole('progressbar', { name: 'Accept progress' })).toHaveAttribute('aria-valuenow', /^\d{1,2}$/);
  await expect(page.getByTestId('accept-cancel')).toBeVisible();
  await screenshot(page, 'accept-found-going-on');
  // It ends without this screen's call: the line goes, and the rows and counts are read again.
  await expect(progress).toHaveCount(0, { timeout: 60_000 });
  await expect(page.getByTestId('filter-chip-auto')).toHaveAttribute('data-count', String(Number(before.auto) + accepting));
  await expect(page.getByTestId('accept-all-auto')).toBeVisible();

  // Undoing all of it takes a moment too: its line says so, then every row is back in review.
  await page.getByTestId('review-table').focus();
  await page.keyboard.press('u');
  const undoing = page.getByTestId('undo-progress');
  await expect(undoing.getByRole('status')).toHaveText('Undoing the last action…');
  await expect(page.getByTestId('undo-cancel')).toBeVisible();
  await screenshot(page, 'undo-progress');
  await expect(page.getByText(`Undid the last action on ${accepting.toLocaleString('en-US')} rows.`)).toBeVisible({ timeout: 60_000 });
  await expect(undoing).toHaveCount(0);
  await expect(toReview).toHaveAttribute('data-count', before.toReview!);
});
