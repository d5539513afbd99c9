// Every screen, from a first visit through the demo to the export, at 1280x800 and at 800x600, each checked with
// axe-core: test-results/screenshots/ holds a picture of each at both sizes; the review screen also goes to
// docs/screenshots/ for the README when asked (UPDATE_DOCS_SCREENSHOTS=1).
import { DOCS_SCREENSHOT_DIR, expect, openApp, projectIdFromUrl, screenshot, setTheme, test, useHost } from './support/app';
import { checkScreen, expectOneLine, expectVisibleKeyboardFocus } from './support/screen-check';

const host = useHost('screens');
test.use({ colorScheme: 'light' });

test('every screen, light, and the review screen dark as well', async ({ page }) => {
  const app = host();
  await openApp(page, app);
  await expect(page.getByTestId('demo-start')).toBeVisible();
  await checkScreen(page, 'account-first-visit');
  await page.getByRole('button', { name: 'Add a profile' }).click();
  await checkScreen(page, 'account-profile-form');
  await page.getByRole('button', { name: 'Cancel' }).click();

  await page.getByTestId('demo-start').click();
  await expect(page).toHaveURL(/#\/projects\/\d+\/mapping$/);
  const projectId = projectIdFromUrl(page);
  await expect(page.getByTestId('mapping-field-profile')).toContainText('→');
  await expect(page.getByText(/\d rows? to look up/)).toBeVisible();
  await checkScreen(page, 'mapping');
  await page.getByRole('link', { name: 'Projects' }).first().focus();
  await expectVisibleKeyboardFocus(page, page.getByRole('region', { name: 'First rows of the sheet' }));

  await page.getByTestId('mapping-continue').click();
  await expect(page.getByTestId('preview-to-fetch')).toBeVisible();
  await checkScreen(page, 'run-preview');

  await page.getByTestId('run-start').click();
  await expect(page).toHaveURL(/\/review$/, { timeout: 30_000 });

  // A review under way: a few rows decided, and a row with more than one candidate selected.
  const rows = (await app.value('review.page', { projectId, offset: 0, limit: 500 })).rows;
  const toReview = rows.filter((row) => row.state === 'to_review');
  const shown = toReview.find((row) => row.candidateCount > 1) ?? toReview[0]!;
  const others = toReview.filter((row) => row !== shown);
  await app.value('decisions.choose', { projectId, rowIndex: others[0]!.rowIndex, rank: 1 });
  await app.value('decisions.reject', { projectId, rowIndex: others[1]!.rowIndex });
  await app.value('decisions.skip', { projectId, rowIndex: others[2]!.rowIndex });
  await page.reload();
  // The rows still to review, as a reviewer works through them.
  await page.getByTestId('filter-chip-to_review').click();
  await page.locator(`[data-testid="review-row"][data-row-index="${shown.rowIndex}"]`).click();
  await expect(page.getByTestId('row-panel')).toHaveAttribute('data-row-index', String(shown.rowIndex));
  await expect(page.getByTestId('candidate-card')).toHaveCount(shown.candidateCount);
  await expect(page.getByTestId('filter-chip-skipped')).toHaveAttribute('data-count', '1');
  await setTheme(page, 'light');
  await screenshot(page, 'review', DOCS_SCREENSHOT_DIR);
  await checkScreen(page, 'review-light', async () => {
    await expect(page.getByTestId('candidate-card')).toHaveCount(shown.candidateCount);
    // The row list keeps the input and the best candidate in view whatever the window's size.
    for (const column of ['Input', 'Best candidate']) await expect(page.getByRole('columnheader', { name: column })).toBeInViewport({ ratio: 1 });
    await expect(page.locator('.review-row.is-selected .col-match')).toBeInViewport();
    // The filter row (filter, count, clear, order, accept, keys) stays one line, so the list keeps its height.
    await expectOneLine(page.getByTestId('review-filter-bar'));
  });
  await setTheme(page, 'dark');
  await checkScreen(page, 'review-dark');
  // The row list takes the keyboard (it scrolls itself) and shows that it has it.
  await page.getByPlaceholder(/Filter rows/).focus();
  await expectVisibleKeyboardFocus(page, page.getByTestId('review-table'));
  await page.keyboard.press('?');
  await expect(page.getByRole('dialog')).toBeVisible();
  await checkScreen(page, 'review-keys-dark');
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await setTheme(page, 'light');

  await page.getByRole('navigation', { name: 'Project steps' }).getByRole('link', { name: 'Export' }).click();
  const downloading = page.waitForEvent('download');
  await page.getByTestId('export-button').click();
  await downloading;
  await expect(page.getByTestId('export-result')).toBeVisible();
  await checkScreen(page, 'export');

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' }).click();
  await expect(page.getByTestId('cache-stats')).toBeVisible();
  await expect(page.getByTestId('data-dir')).toHaveText(app.dataDir);
  await checkScreen(page, 'settings');

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Projects' }).click();
  await expect(page.getByTestId('project-row')).toHaveCount(1);
  await checkScreen(page, 'projects');

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Account' }).click();
  await expect(page.getByTestId('profile-card')).toHaveCount(1);
  await checkScreen(page, 'account');
  await setTheme(page, 'dark');
  await checkScreen(page, 'account-dark');
});

test('in a small window the menu folds away, and its button brings it back', async ({ page }) => {
  await page.setViewportSize({ width: 800, height: 600 });
  await openApp(page, host(), '#/projects');
  const menu = page.getByRole('navigation', { name: 'Main' });
  const toggle = menu.getByRole('button', { name: 'Show the menu' });
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  await expect(menu.getByRole('link', { name: 'Settings' })).toBeHidden();

  await toggle.click();
  await expect(menu.getByRole('button', { name: 'Hide the menu' })).toHaveAttribute('aria-expanded', 'true');
  await menu.getByRole('link', { name: 'Settings' }).click();
  await expect(page).toHaveURL(/#\/settings$/);
  await menu.getByRole('button', { name: 'Hide the menu' }).click();
  await expect(menu.getByRole('link', { name: 'Settings' })).toBeHidden();

  // A wide window has the room: the menu is open again.
  await page.setViewportSize({ width: 1280, height: 800 });
  await expect(menu.getByRole('link', { name: 'Settings' })).toBeVisible();
});
