// A picture of every screen, at the 1280x800 the app is designed for, from a first visit through the demo to the
// export. test-results/screenshots/ holds them all; the review screen also goes to docs/screenshots/ for the README.
import { DOCS_SCREENSHOT_DIR, expect, openApp, projectIdFromUrl, screenshot, setTheme, test, useHost } from './support/app';

const host = useHost('screens');
test.use({ colorScheme: 'light' });

test('every screen, light, and the review screen dark as well', async ({ page }) => {
  const app = host();
  await openApp(page, app);
  await expect(page.getByTestId('demo-start')).toBeVisible();
  await screenshot(page, 'account-first-visit');

  await page.getByTestId('demo-start').click();
  await expect(page).toHaveURL(/#\/projects\/\d+\/mapping$/);
  const projectId = projectIdFromUrl(page);
  await expect(page.getByTestId('mapping-field-profile')).toContainText('→');
  await expect(page.getByText(/rows? to look up/)).toBeVisible();
  await screenshot(page, 'mapping');

  await page.getByTestId('mapping-continue').click();
  await expect(page.getByTestId('preview-to-fetch')).toBeVisible();
  await screenshot(page, 'run-preview');

  await page.getByTestId('run-start').click();
  await expect(page).toHaveURL(/\/review$/, { timeout: 30_000 });

  // A review under way: a few rows decided, and a row with more than one candidate selected.
  const rows = (await app.value('review.page', { projectId, offset: 0, limit: 60 })).rows;
  const toReview = rows.filter((row) => row.state === 'to_review');
  const shown = toReview.find((row) => row.candidateCount > 1) ?? toReview[0]!;
  const others = toReview.filter((row) => row !== shown);
  await app.value('decisions.choose', { projectId, rowIndex: others[0]!.rowIndex, rank: 1 });
  await app.value('decisions.reject', { projectId, rowIndex: others[1]!.rowIndex });
  await app.value('decisions.skip', { projectId, rowIndex: others[2]!.rowIndex });
  await page.reload();
  await page.locator(`[data-testid="review-row"][data-row-index="${shown.rowIndex}"]`).click();
  await expect(page.getByTestId('row-panel')).toHaveAttribute('data-row-index', String(shown.rowIndex));
  await expect(page.getByTestId('candidate-card')).toHaveCount(shown.candidateCount);
  await expect(page.getByTestId('filter-chip-skipped')).toHaveAttribute('data-count', '1');
  await setTheme(page, 'light');
  await screenshot(page, 'review-light');
  await screenshot(page, 'review', DOCS_SCREENSHOT_DIR);
  await setTheme(page, 'dark');
  await screenshot(page, 'review-dark');
  await page.keyboard.press('?');
  await expect(page.getByRole('dialog')).toBeVisible();
  await screenshot(page, 'review-keys-dark');
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await setTheme(page, 'light');

  await page.getByRole('navigation', { name: 'Project steps' }).getByRole('link', { name: 'Export' }).click();
  const downloading = page.waitForEvent('download');
  await page.getByTestId('export-button').click();
  await downloading;
  await expect(page.getByTestId('export-result')).toBeVisible();
  await screenshot(page, 'export');

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' }).click();
  await expect(page.getByTestId('cache-stats')).toBeVisible();
  await expect(page.getByTestId('data-dir')).toHaveText(app.dataDir);
  await screenshot(page, 'settings');

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Projects' }).click();
  await expect(page.getByTestId('project-row')).toHaveCount(1);
  await screenshot(page, 'projects');

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Account' }).click();
  await expect(page.getByTestId('profile-card')).toHaveCount(1);
  await screenshot(page, 'account');
  await setTheme(page, 'dark');
  await screenshot(page, 'account-dark');
});
