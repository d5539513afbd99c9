// Deciding by confidence: the queue sorted by it, and "accept all at or above X" as one action that shows its count
// before it is applied and that undo takes back whole.
import type { Page } from '@playwright/test';
import { expect, openApp, screenshot, test, useHost } from './support/app';
import { checkScreen } from './support/screen-check';
import { waitForRun } from './support/demo';

const host = useHost('confidence');

async function shownConfidences(page: Page): Promise<number[]> {
  const cells = page.locator('[data-testid="review-row"][data-row-index] .col-score');
  return (await cells.allTextContents()).filter((t) => t.trim() !== '').map((t) => Number(t.replace('%', '')));
}

test('the review queue sorts by confidence, and the confident rows are accepted in one undoable step after their count is shown', async ({ page }) => {
  const app = host();
  // A threshold above what a name and an employer alone reach: the run leaves those rows for review.
  await app.value('settings.update', { autoAccept: { enabled: true, minConfidence: 0.9999, minLead: 0.5 } });
  const { project } = await app.value('demo.start', {});
  const projectId = project.id;
  await app.value('run.start', { projectId });
  await waitForRun(app, projectId, (p) => p.status === 'done');
  const preview = await app.value('decisions.acceptPreview', { projectId });
  const at95 = preview.thresholds.find((t) => t.minConfidence === 0.95)!.rows;
  expect(at95, 'rows a name and an employer accept at 0.95').toBeGreaterThan(20);

  await openApp(page, app, `#/projects/${projectId}/review`);
  await page.getByTestId('filter-chip-to_review').click();
  await page.getByTestId('review-order').selectOption('confidence_desc');
  await expect(page.locator('#review-row-0')).toHaveAttribute('data-state', 'to_review');
  const descending = await shownConfidences(page);
  expect(descending.length).toBeGreaterThan(5);
  expect(descending).toEqual([...descending].sort((a, b) => b - a));
  await page.getByTestId('review-order').selectOption('confidence_asc');
  await expect.poll(async () => (await shownConfidences(page))[0]).toBeLessThan(descending[0]!);

  const toReview = Number(await page.getByTestId('filter-chip-to_review').getAttribute('data-count'));
  const auto = Number(await page.getByTestId('filter-chip-auto').getAttribute('data-count'));
  await page.getByTestId('accept-all-auto').click();
  await page.getByTestId('threshold-0.95').check();
  await expect(page.getByTestId('accept-confident-confirm')).toHaveText(`Accept ${at95} rows`);
  await checkScreen(page, 'accept-confident', () => expect(page.getByTestId('accept-confident-confirm')).toBeVisible());
  // The accept's answer is held, as a long accept of many rows would keep it: meanwhile its progress stands
  // where the button was, from the engine's own events.
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/api/call/decisions.acceptAtOrAbove', async (route) => {
    const response = await route.fetch();
    await held;
    await route.fulfill({ response });
  });
  await page.getByTestId('accept-confident-confirm').click();
  const progress = page.getByTestId('accept-progress');
  await expect(progress.getByRole('status')).toHaveText('Accepting rows…');
  await expect(progress.getByRole('progressbar', { name: 'Accept progress' })).toHaveAttribute('aria-valuenow', '100');
  await expect(page.getByTestId('accept-all-auto')).toHaveCount(0);
  await screenshot(page, 'accept-progress');
  release();
  await expect(page.getByText(`Accepted ${at95} rows. Undo takes them all back.`)).toBeVisible();
  await expect(progress).toHaveCount(0);
  await expect(page.getByTestId('accept-all-auto')).toBeVisible();
  await expect(page.getByTestId('filter-chip-auto')).toHaveAttribute('data-count', String(auto + at95));
  await expect(page.getByTestId('filter-chip-to_review')).toHaveAttribute('data-count', String(toReview - at95));

  await page.getByTestId('review-table').focus();
  await page.keyboard.press('u');
  // Said as what it was: the whole action undone, not one row's decision (and nothing "applied").
  await expect(page.getByText(`Undid the last action on ${at95} rows.`)).toBeVisible();
  await expect(page.getByText(/^Applied to/)).toHaveCount(0);
  await expect(page.getByTestId('filter-chip-auto')).toHaveAttribute('data-count', String(auto));
  await expect(page.getByTestId('filter-chip-to_review')).toHaveAttribute('data-count', String(toReview));
});
