// A text filter on a large project waits for its text index to fill (once per project and mapping): the review's
// toolbar says how far that is, in place of "Loading…", then shows the rows found. Opened while the project's rows are
// still being planned, it waits for that first, and finds rows the plan had not reached (it once said "0 rows").
import { expect, openApp, pickFile, projectIdFromUrl, screenshot, test, useHost } from './support/app';

const host = useHost('text-index');

test('the first text filter of a 200,000-row project says how far its search is, then finds the row', async ({ page }) => {
  const app = host();
  await openApp(page, app, '#/projects');
  const lines = ['Name,Email,Company'];
  for (let i = 0; i < 200_000; i++) lines.push(`Person ${i},p${i}@example.com,${i === 191_234 ? 'Needle Corp' : 'Filler Inc'}`);
  await pickFile(page, { name: 'large.csv', mimeType: 'text/csv', buffer: Buffer.from(lines.join('\n')) });
  await expect(page).toHaveURL(/#\/projects\/\d+\/mapping$/, { timeout: 60_000 });
  await page.goto(`${app.url}#/projects/${projectIdFromUrl(page)}/review`);

  await page.getByRole('searchbox').first().fill('needle');
  const total = page.getByTestId('review-total');
  // The mapping screen planned the rows as it opened: the list waits for that plan first (quick here, unless the
  // machine is busy), then for the index.
  await expect(total).toHaveText(/^Searching… (\d+%|almost done)$/, { timeout: 60_000 });
  await expect(total).toHaveAttribute('title', /rows so far\.$/);
  await screenshot(page, 'review-text-index-filling');
  await expect(total).toHaveText('1 row', { timeout: 60_000 });
  await expect(page.getByRole('row', { name: /Person 191234/ })).toBeVisible();
});
