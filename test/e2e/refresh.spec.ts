// Refresh from the app: a matched sheet, the simulator's world moves on, Refresh people… shows what it will ask,
// runs, and the counts by job change follow ("Still there" goes down, "Moved" and "Left" up); the rows that changed
// are one chip away, and each shows where the person was and where they are, with the sheet's company marked in the
// job history. Checked at both window sizes with axe-core.
import { expect, screenshot, test } from './support/app';
import { checkScreen, expectOneLine } from './support/screen-check';
import { findableByName, importFromFile, runToReview, useSimulatorHost } from './support/simulator-host';
import { csvFile } from './support/sheets';

const { host, simulator: world } = useSimulatorHost('refresh', { people: 3000, seed: 12 }, 'World simulator');
const ROWS = 120;

const count = async (chip: ReturnType<import('@playwright/test').Page['getByTestId']>) => Number(await chip.getAttribute('data-count'));

test('Refresh people… asks again after the world moved on, and the counts by job change follow', async ({ page }) => {
  const app = host();
  const simulator = world();
  const people = findableByName(simulator, ROWS);
  const rows = [['Name', 'Email', 'Company'], ...people.map((p) => [p.name, p.email_address, p.jobs[0]!.company.name])];
  const projectId = await importFromFile(page, app, csvFile('crm.csv', rows));
  await runToReview(page, projectId);

  // Everyone is where the sheet says.
  const still = page.getByTestId('job-chip-no_change');
  await expect(still).toHaveAttribute('data-count', String(ROWS));
  await expect(page.getByTestId('job-chip-moved')).toHaveAttribute('data-count', '0');
  await expect(page.getByTestId('job-chip-changed')).toHaveCount(0);

  const moved = simulator.moveOn({ share: 0.4, seed: 3 });
  const changedPeople = new Set([...moved.moved, ...moved.left]);
  const changed = people.filter((p) => changedPeople.has(p.id)).length;
  expect(changed).toBeGreaterThan(20);
  simulator.resetCounters();

  await page.getByTestId('refresh-open').click();
  await expect(page.getByTestId('refresh-preview-people')).toContainText(String(ROWS));
  await expect(page.getByTestId('refresh-preview-calls')).toContainText('2');
  await checkScreen(page, 'refresh-preview', async () => {
    await expect(page.getByTestId('refresh-start')).toBeInViewport();
  });
  await page.getByTestId('refresh-start').click();
  await expect(page.getByTestId('refresh-status')).toHaveText('Done', { timeout: 60_000 });
  await expect(page.getByTestId('refresh-sentence')).toContainText(`${changed} rows with a job change since`);
  expect(simulator.counters().queries).toBe(ROWS);
  await checkScreen(page, 'refresh-done', async () => {
    await expect(page.getByTestId('row-panel')).toBeVisible();
  });

  await page.getByTestId('refresh-show-changed').click();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  const changedChip = page.getByTestId('job-chip-changed');
  await expect(changedChip).toHaveAttribute('data-count', String(changed));
  await expect(changedChip).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByTestId('review-total')).toHaveText(`${changed} rows`);
  // The chips count the view on show: of the rows that changed, none is still where the sheet says (the project's
  // own figure is the rest of them).
  await expect.poll(() => count(still)).toBe(0);
  expect((await app.value('review.page', { projectId, offset: 0, limit: 1 })).jobChanges.no_change).toBe(ROWS - changed);
  const movedRows = people.filter((p) => moved.moved.includes(p.id)).length;
  await expect(page.getByTestId('job-chip-moved')).toHaveAttribute('data-count', String(movedRows));
  await expect(page.getByTestId('job-chip-left')).toHaveAttribute('data-count', String(changed - movedRows));

  // A decision in the list of changed rows: the chips' counts follow it at once (the decision's answer gives them), and
  // its undo brings them back. The list keeps the decided row in its place until it is read again.
  const jobChips = async () => Number(await page.getByTestId('job-chip-moved').getAttribute('data-count')) + Number(await page.getByTestId('job-chip-left').getAttribute('data-count'));
  await page.locator('#review-row-0').click();
  await page.keyboard.press('n');
  await expect(page.locator('#review-row-0')).toHaveAttribute('data-state', 'rejected');
  await expect(changedChip).toHaveAttribute('data-count', String(changed - 1));
  await expect.poll(jobChips).toBe(changed - 1);
  // A rejected row holds no person, so it is no longer a changed one: the chip counts none in this view.
  await expect(page.getByTestId('filter-chip-rejected')).toHaveAttribute('data-count', '0');
  expect((await app.value('review.page', { projectId, offset: 0, limit: 1 })).counts.rejected).toBe(1);
  // The keys moved on to the next row: the panel shows it once read.
  const next = await page.locator('#review-row-1').getAttribute('data-row-index');
  await expect(page.getByTestId('row-panel')).toHaveAttribute('data-row-index', next!);
  await screenshot(page, 'refresh-review-decided');
  await page.keyboard.press('u');
  await expect(page.locator('#review-row-0')).not.toHaveAttribute('data-state', 'rejected');
  await expect(changedChip).toHaveAttribute('data-count', String(changed));
  await expect.poll(jobChips).toBe(changed);
  await expect(page.getByTestId('review-total')).toHaveText(`${changed} rows`);

  // A row whose person moved: where they were, where they are, the sheet's company marked in the job history.
  await page.getByTestId('job-chip-moved').click();
  await page.locator('#review-row-0').click();
  const panel = page.getByTestId('row-panel');
  await expect(panel.getByTestId('row-job-change')).toHaveAttribute('data-job-change', 'moved');
  await expect(panel.getByTestId('row-refresh-change')).toContainText('Changed at the refresh of');
  const chosenCard = panel.getByTestId('candidate-card').filter({ hasText: 'Chosen' });
  await expect(chosenCard.locator('[data-sheet-company]')).toContainText("sheet's company");
  await expect(chosenCard.locator('.job-history__item').first()).toContainText('now');
  // The card reads the refreshed record: the evidence says the sheet's company is a past job now.
  await expect(chosenCard).toContainText('worked at');
  await screenshot(page, 'refresh-review-moved');
  await checkScreen(page, 'refresh-review-moved', async () => {
    await expect(panel.getByTestId('row-job-change')).toBeVisible();
    // Two filters on: the count names them, and the filter row still keeps to one line.
    await expect(page.getByTestId('review-filter-words')).toBeAttached();
    await expectOneLine(page.getByTestId('review-filter-bar'));
  });

  // The projects list says it too.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Projects' }).click();
  await expect(page.getByTestId('project-job-changes')).toContainText(`${movedRows} moved`);
  await expect(page.getByTestId('project-job-changes')).toContainText(`${changed} changed at last refresh`);
  await checkScreen(page, 'refresh-projects');
});
