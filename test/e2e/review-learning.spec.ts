// Learning from the reviewer's decisions in the review (issue 43): the queue grouped by reason ("rows like this"), a
// group decided row by row until the app learns from it in the background, the line that says what changed, its
// accept of the rows like them in one step that one undo takes back whole, what was learned in words, and its reset.
import { expect, openApp, test, useHost } from './support/app';
import { runDemoProject } from './support/demo';
import { checkScreen } from './support/screen-check';
import { rowsInView } from './support/review-list';

const host = useHost('review-learning');
test.use({ colorScheme: 'light' });

const NEAR_NAME = 'near_name|typo|current_same|none|alone';

const NEAR_NAME_WORDS = 'Rows with a near name at the same company';

test('a group of rows like this is decided, what changed is said and accepted in one undoable step, and what was learned is shown and reset', async ({ page }) => {
  const app = host();
  const projectId = await runDemoProject(app);
  const groups = await app.value('review.groups', { projectId });
  const near = groups.find((g) => g.pattern === NEAR_NAME)!;
  expect(near.rows, 'the demo leaves near names at one employer to review').toBeGreaterThan(12);
  const rows = (await app.value('review.page', { projectId, pattern: NEAR_NAME, offset: 0, limit: 500 })).rows;
  await openApp(page, app, `#/projects/${projectId}/review`);
  await expect(page.getByTestId('review-total')).toContainText('rows');
  // The tools for rows like this take no room from the list: at 800x600 it still shows at least 8 rows.
  await page.setViewportSize({ width: 800, height: 600 });
  await expect(page.getByTestId('review-learned')).toBeVisible();
  await expect.poll(() => rowsInView(page)).toBeGreaterThanOrEqual(8);
  await page.setViewportSize({ width: 1280, height: 800 });

  // The key help lists the grouping key, and the key opens the groups with their counts.
  await page.keyboard.press('?');
  await expect(page.getByTestId('key-help')).toContainText('Group rows by reason (rows like this)');
  await page.keyboard.press('Escape');
  await page.getByTestId('review-table').focus();
  await page.keyboard.press('g');
  const group = page.locator(`[data-testid="review-group"][data-pattern="${NEAR_NAME}"]`);
  await expect(group).toContainText(NEAR_NAME_WORDS);
  await expect(group.locator('.group-dialog__count')).toHaveText(String(near.rows));
  await expect(page.getByTestId('review-group')).toHaveCount(groups.length);
  await checkScreen(page, 'review-groups', () => expect(group).toBeVisible());
  await group.click();

  // The list is that group alone, said in its words, and clearable like any filter; it stays after a reload.
  await expect(page.getByTestId('review-total')).toHaveText(`${near.rows} rows`);
  await expect(page.getByTestId('review-group-by')).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByTestId('review-group-by')).toHaveText(NEAR_NAME_WORDS);
  await expect(page.getByTestId('review-order')).toHaveCount(0);
  await page.reload();
  await expect(page.getByTestId('review-group-by')).toHaveAttribute('aria-pressed', 'true');
  await expect(page.locator('.review-row.is-selected')).toHaveAttribute('data-row-index', String(rows[0]!.rowIndex));

  // Ten near names accepted, one by one, as a reviewer does with Enter: then the app learns in the background. Its
  // answer is held, as a large project's learning takes a while: meanwhile the line says how far it is.
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/api/call/learning.learn', async (route) => {
    const response = await route.fetch();
    await held;
    await route.fulfill({ response });
  });
  const selected = page.locator('.review-row.is-selected');
  await page.getByTestId('review-table').focus();
  for (const row of rows.slice(0, 10)) {
    await expect(selected).toHaveAttribute('data-row-index', String(row.rowIndex));
    await expect(page.getByTestId('learning-progress')).toHaveCount(0);
    await page.keyboard.press('Enter');
    await expect(page.locator(`.review-row[data-row-index="${row.rowIndex}"]`)).toHaveAttribute('data-state', 'accepted');
  }
  const learningProgress = page.getByTestId('learning-progress');
  await expect(learningProgress.getByRole('status')).toHaveText('Learning from your decisions…');
  await expect(learningProgress.getByRole('progressbar', { name: 'Learning progress' })).toHaveAttribute('aria-valuenow', '100');
  await expect(page.getByTestId('learning-cancel')).toBeVisible();
  release();
  await expect(learningProgress).toHaveCount(0);
  const more = near.rows - 10;
  const change = page.getByTestId('learning-change');
  await expect(change).toHaveText(`You accepted 10 of 10 rows with a near name at the same company; ${more} more rows now look like them.`);
  // The list was read again: the group holds the rows still to decide, each lifted to what the labels give.
  await expect(page.getByTestId('review-total')).toContainText(`${more} rows`);
  const selectedScore = page.locator('.review-row.is-selected .col-score');
  await expect(selectedScore).toHaveText(/^9\d%$/);
  await expect(selectedScore).toHaveAttribute('title', /; lifted by what you decided on rows like it$/);
  await expect(page.getByTestId('learning-show')).toHaveCount(0);
  await checkScreen(page, 'review-learning-change', () => expect(change).toBeVisible());

  // Accepted in one step; one undo takes every one of them back, and the offer with them.
  const auto = Number(await page.getByTestId('filter-chip-auto').getAttribute('data-count'));
  const toReview = Number(await page.getByTestId('filter-chip-to_review').getAttribute('data-count'));
  await page.getByTestId('learning-accept').click();
  await expect(page.getByText(`Accepted ${more} rows. Undo takes them all back.`)).toBeVisible();
  await expect(change).toHaveCount(0);
  await expect(page.getByTestId('filter-chip-auto')).toHaveAttribute('data-count', String(auto + more));
  await expect(page.getByTestId('filter-chip-to_review')).toHaveAttribute('data-count', String(toReview - more));
  await expect(page.getByTestId('review-total')).toContainText('0 rows');
  await page.getByTestId('review-table').focus();
  await page.keyboard.press('u');
  await expect(page.getByText(`Undid the last action on ${more} rows.`)).toBeVisible();
  await expect(page.getByTestId('filter-chip-auto')).toHaveAttribute('data-count', String(auto));
  await expect(page.getByTestId('filter-chip-to_review')).toHaveAttribute('data-count', String(toReview));
  await expect(page.getByTestId('review-total')).toContainText(`${more} rows`);
  await expect(change).toBeVisible();

  // What was learned, in words, from the toolbar; its reset asks first and then forgets it.
  await page.getByTestId('review-learned').click();
  const sentences = page.getByTestId('learned-sentences');
  await expect(sentences).toContainText('You accepted 10 of 10 rows with a near name at the same company: such rows are now at least 91% confident.');
  await expect(page.getByTestId('learned-figures')).toContainText(`From 10 decisions you made by hand; ${more} rows waiting for review now look like the rows you accepted.`);
  await checkScreen(page, 'review-learned', () => expect(sentences).toBeVisible());
  await page.getByTestId('learned-reset').click();
  await expect(page.getByText('This cannot be undone; your decisions stay.')).toBeVisible();
  await checkScreen(page, 'review-learned-reset', () => expect(page.getByTestId('learned-reset-confirm')).toBeVisible());
  await page.getByTestId('learned-reset-confirm').click();
  await expect(page.getByTestId('learned-nothing')).toBeVisible();
  await page.getByRole('button', { name: 'Close' }).click();
  await expect(change).toHaveCount(0);
  expect(await app.value('learning.summary', { projectId })).toMatchObject({ labels: 0, rowsLifted: 0, sentences: [] });
  // The lifted rows wait as the model alone says.
  await expect(selectedScore).toHaveAttribute('title', /^name nearly the same/);
  await expect(selectedScore).not.toHaveAttribute('title', /lifted/);

  // Clear filters shows every row again.
  await page.getByTestId('review-clear-filters').click();
  await expect(page.getByTestId('review-group-by')).toHaveAttribute('aria-pressed', 'false');
  await expect(page.getByTestId('filter-chip-all')).toHaveAttribute('aria-pressed', 'true');
});
