// Decisions are saved as they are made: reloading the page in the middle of a review loses none of them.
import type { Page } from '@playwright/test';
import { ROW_STATES } from '../../shared/model';
import { expect, openApp, test, useHost } from './support/app';
import { runDemoProject } from './support/demo';

const host = useHost('reload');

async function chipCounts(page: Page): Promise<Record<string, string | null>> {
  const counts: Record<string, string | null> = {};
  for (const key of ['all', ...ROW_STATES]) {
    const chip = page.getByTestId(`filter-chip-${key}`);
    if ((await chip.count()) > 0) counts[key] = await chip.getAttribute('data-count');
  }
  return counts;
}

async function shownRowIndexes(page: Page): Promise<number[]> {
  const rows = page.locator('[data-testid="review-row"][data-row-index]');
  return (await rows.evaluateAll((elements) => elements.map((element) => Number(element.getAttribute('data-row-index'))))).sort((a, b) => a - b);
}

test('a reload in the middle of the review keeps every decision and count', async ({ page }) => {
  const app = host();
  const projectId = await runDemoProject(app);
  await openApp(page, app, `#/projects/${projectId}/review`);
  await expect(page.getByTestId('filter-chip-all')).toHaveAttribute('data-count', '322');

  // Work through the rows still to review, the way a reviewer does.
  await page.getByTestId('filter-chip-to_review').click();
  await expect(page.getByTestId('filter-chip-to_review')).toHaveAttribute('aria-pressed', 'true');
  // The chip reads 0 until the counts come (the demo has rows to review); that count is the one to go down from.
  await expect(page.getByTestId('filter-chip-to_review')).toHaveAttribute('data-count', /^[1-9]\d*$/);
  const toReview = Number(await page.getByTestId('filter-chip-to_review').getAttribute('data-count'));
  const rowAt = (position: number) => page.locator(`#review-row-${position}`);
  await expect(rowAt(0)).toHaveAttribute('data-state', 'to_review');
  const rowIndexAt = async (position: number) => Number(await rowAt(position).getAttribute('data-row-index'));
  const [chosen, rejected, skipped, acceptedTop] = [await rowIndexAt(0), await rowIndexAt(1), await rowIndexAt(2), await rowIndexAt(3)];

  await page.keyboard.press('1');
  await expect(rowAt(0)).toHaveAttribute('data-state', 'accepted');
  await expect(rowAt(1)).toHaveAttribute('aria-selected', 'true');
  // "None fits" by its button this time; the keys stay with the table afterwards.
  await expect(page.getByTestId('row-panel')).toHaveAttribute('data-row-index', String(rejected));
  await page.getByTestId('decide-reject').click();
  await expect(rowAt(1)).toHaveAttribute('data-state', 'rejected');
  await expect(rowAt(2)).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('s');
  await expect(rowAt(2)).toHaveAttribute('data-state', 'skipped');
  await page.keyboard.press('Enter');
  await expect(rowAt(3)).toHaveAttribute('data-state', 'accepted');

  // The chips may count the last decision a moment after its row shows it: wait until the four are counted.
  await expect(page.getByTestId('filter-chip-to_review')).toHaveAttribute('data-count', String(toReview - 4));
  const before = await chipCounts(page);
  expect(before).toMatchObject({ all: '322', accepted: '2', rejected: '1', skipped: '1' });

  await page.reload();
  await expect(page).toHaveURL(new RegExp(`#/projects/${projectId}/review$`));
  await expect(page.getByTestId('filter-chip-all')).toHaveAttribute('data-count', '322');
  expect(await chipCounts(page)).toEqual(before);

  // Every decision is where it was left, in the engine and on screen. "1" and Enter both took the candidate listed
  // first, the one the confidence model puts first (decisions keep it by the service's rank).
  const firstListed = async (rowIndex: number) => (await app.value('review.row', { projectId, rowIndex })).candidates[0]!.rank;
  for (const [rowIndex, state, rank] of [
    [chosen, 'accepted', await firstListed(chosen)],
    [rejected, 'rejected', null],
    [skipped, 'skipped', null],
    [acceptedTop, 'accepted', await firstListed(acceptedTop)],
  ] as const) {
    const row = await app.value('review.row', { projectId, rowIndex });
    expect({ rowIndex, state: row.state, chosenRank: row.chosenRank, source: row.source }).toEqual({ rowIndex, state, chosenRank: rank, source: 'manual' });
  }
  await page.getByTestId('filter-chip-accepted').click();
  await expect(page.getByTestId('review-total')).toHaveText('2 rows');
  expect(await shownRowIndexes(page)).toEqual([chosen, acceptedTop].sort((a, b) => a - b));
  await page.locator(`[data-testid="review-row"][data-row-index="${chosen}"]`).click();
  await expect(page.getByTestId('row-panel')).toHaveAttribute('data-row-index', String(chosen));
  await expect(page.getByTestId('candidate-card').and(page.locator('[data-position="1"]'))).toContainText('Chosen');
  await page.getByTestId('filter-chip-rejected').click();
  await expect(page.getByTestId('review-total')).toHaveText('1 row');
  expect(await shownRowIndexes(page)).toEqual([rejected]);
  await page.getByTestId('filter-chip-skipped').click();
  await expect(page.getByTestId('review-total')).toHaveText('1 row');
  expect(await shownRowIndexes(page)).toEqual([skipped]);
});
