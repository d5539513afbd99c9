// Watching from the app (issue 45): a watch set from the project's header, rows marked important in the review (one
// by hand, the rest by a column's value), the simulator's world moves on and a refresh finds who moved or left; people
// marked important are notified, the inbox counts what is new until it is marked seen, the Changes screen lists who
// moved or left since a day with from and to, and exports them as the CRM file. Checked at both window sizes with
// axe-core. Headless Chromium shows no notification: the page's Notification records them (as in work-title.spec.ts).
import { readFileSync } from 'node:fs';
import { expect, test } from './support/app';
import { checkScreen } from './support/screen-check';
import { findableByName, importFromFile, recordNotifications, runToReview, useSimulatorHost } from './support/simulator-host';
import { csvFile } from './support/sheets';

const { host, simulator: world } = useSimulatorHost('watch-changes', { people: 3000, seed: 12 }, 'World simulator');
const ROWS = 60;
/** The first rows are Tier A: marked important by the column's value. */
const TIER_A = 12;

test('a watched project: a refresh after the world moved on, important people notified, the changes since a day listed, seen and exported', async ({ page }) => {
  const notifications = await recordNotifications(page);
  const app = host();
  const simulator = world();
  const people = findableByName(simulator, ROWS);
  const rows = [['Name', 'Email', 'Company', 'Tier'], ...people.map((p, i) => [p.name, p.email_address, p.jobs[0]!.company.name, i < TIER_A ? 'A' : 'B'])];
  const projectId = await importFromFile(page, app, csvFile('champions.csv', rows));
  await runToReview(page, projectId);
  await expect(page.getByTestId('job-chip-no_change')).toHaveAttribute('data-count', String(ROWS));
  // Never refreshed: the header leads to Changes, which says how changes come.
  await expect(page.getByTestId('inbox-badge')).toHaveCount(0);

  // The last row marked important by hand, the Tier A rows by the column's value.
  await page.getByTestId('review-order').selectOption('file');
  await page.locator('#review-row-0').click();
  await page.keyboard.press('End');
  const panel = page.getByTestId('row-panel');
  await expect(panel).toHaveAttribute('data-row-index', String(ROWS - 1));
  await panel.getByTestId('important-row').check();
  await expect(panel.getByTestId('important-row')).toBeChecked();
  await page.keyboard.press('Home');
  await expect(panel).toHaveAttribute('data-row-index', '0');
  await panel.getByTestId('important-column').selectOption({ label: 'Tier' });
  await panel.getByTestId('important-column-mark').click();
  await expect(panel.getByTestId('important-by-value')).toContainText('Tier = A');
  expect(await app.value('watch.importantMarks', { projectId })).toEqual({ rows: [ROWS - 1], values: [{ columnIndex: 3, value: 'a' }] });
  await checkScreen(page, 'watch-review-important', async () => {
    await expect(panel.getByTestId('important-toggle')).toBeVisible();
  });

  // A watch from the header: every 7 days, at most 500 credits a refresh.
  await page.getByTestId('watch-open').click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText('Watch champions');
  await dialog.getByTestId('watch-days').fill('7');
  await dialog.getByTestId('watch-ceiling').fill('500');
  await checkScreen(page, 'watch-dialog', async () => {
    await expect(dialog.getByTestId('watch-save')).toBeInViewport();
  });
  await dialog.getByTestId('watch-save').click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByTestId('watch-open')).toContainText('Watched · next');
  const watch = (await app.value('watch.list', {}))[0]!;
  expect(watch).toMatchObject({ projectId, everyDays: 7, weekday: null, creditCeiling: 500, due: false });

  // The world moves on; the refresh finds who moved or left.
  const moved = simulator.moveOn({ share: 0.4, seed: 3 });
  const gone = new Set([...moved.moved, ...moved.left]);
  const changedPeople = people.filter((p) => gone.has(p.id));
  const movedRows = people.filter((p) => moved.moved.includes(p.id)).length;
  const leftRows = changedPeople.length - movedRows;
  const important = people.filter((p, i) => gone.has(p.id) && (i < TIER_A || i === ROWS - 1));
  expect(changedPeople.length).toBeGreaterThan(10);
  expect(important.length).toBeGreaterThan(0);
  await page.getByTestId('refresh-open').click();
  await page.getByTestId('refresh-start').click();
  await expect(page.getByTestId('refresh-status')).toHaveText('Done', { timeout: 60_000 });
  await page.getByRole('dialog').getByRole('button', { name: 'Close' }).click();

  // Important people who moved or left are notified, in front or not.
  await expect.poll(notifications).toContainEqual(expect.objectContaining({ title: expect.stringMatching(new RegExp(`^champions: ${important.length} important (person|people) (moved|left|moved or left)$`)) }));
  // The header counts what is new.
  await expect(page.getByTestId('inbox-badge')).toHaveAttribute('data-count', String(changedPeople.length));

  // The projects list: the watch's next refresh and what the last one found, and how many changes are new.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Projects' }).click();
  const line = page.getByTestId('project-watch');
  await expect(line).toContainText('Watched: next ');
  await expect(line).toContainText(`last: ${movedRows} moved, ${leftRows} left`);
  const inboxLink = page.getByTestId('project-inbox');
  await expect(inboxLink).toHaveAttribute('data-count', String(changedPeople.length));
  await checkScreen(page, 'watch-projects');

  // The Changes screen: what is new, then since a day.
  await inboxLink.click();
  await expect(page).toHaveURL(new RegExp(`#/projects/${projectId}/changes$`));
  await expect(page.getByTestId('inbox-summary')).toContainText(`${changedPeople.length} changes: ${movedRows} moved, ${leftRows} left · ${important.length} important`);
  await expect(page.getByTestId('inbox-table').getByTestId('change-row')).toHaveCount(changedPeople.length);
  const today = new Date().toISOString().slice(0, 10);
  await page.getByTestId('since-day').fill(today);
  await expect(page.getByTestId('changes-since-summary')).toHaveText(`Since ${today}: ${changedPeople.length} changes, ${movedRows} moved, ${leftRows} left.`);
  const table = page.getByTestId('changes-table');
  await expect(table.getByTestId('change-row')).toHaveCount(changedPeople.length);
  // The presets: since the last refresh (today's) lists the same, since the start of the quarter too (before any refresh).
  await page.getByTestId('since-lastRefresh').click();
  await expect(page.getByTestId('since-lastRefresh')).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByTestId('changes-since-summary')).toHaveText(`Since ${today}: ${changedPeople.length} changes, ${movedRows} moved, ${leftRows} left.`);
  await page.getByTestId('since-quarter').click();
  await expect(page.getByTestId('changes-since-summary')).toContainText(`: ${changedPeople.length} changes, ${movedRows} moved, ${leftRows} left.`);
  await page.getByTestId('since-day').fill(today);
  // A row whose person moved: from the sheet's company to where they are now.
  const mover = people.find((p) => moved.moved.includes(p.id))!;
  const moverRow = table.locator(`[data-row-index="${people.indexOf(mover)}"]`);
  await expect(moverRow).toHaveAttribute('data-kind', 'moved');
  // The sheet says where they were (the simulator's record has moved on in place).
  await expect(moverRow.getByTestId('change-from')).toContainText(rows[1 + people.indexOf(mover)]![2]!);
  const now = mover.jobs.find((j) => j.ended_at === null)!;
  await expect(moverRow.getByTestId('change-to')).toContainText(now.company.name);
  await expect(moverRow).toContainText(today);
  await checkScreen(page, 'watch-changes', async () => {
    await expect(table).toBeVisible();
  });
  await checkScreen(page, 'watch-changes-since', async () => {
    await page.getByTestId('changes-export').scrollIntoViewIfNeeded();
    await expect(page.getByTestId('changes-export')).toBeInViewport();
  });

  // Marked seen: the inbox is empty, and the header's count gone.
  await page.getByTestId('inbox-mark-seen').click();
  await expect(page.getByTestId('inbox-summary')).toHaveText('Nothing new: every change found so far has been seen.');
  await expect(page.getByTestId('inbox-badge')).toHaveCount(0);
  expect((await app.value('watch.inbox', { projectId })).unseen).toBe(0);

  // The CRM file: one row a change, the sheet's columns then the change's.
  const downloading = page.waitForEvent('download', { timeout: 60_000 });
  await page.getByTestId('changes-export').click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe(`champions-changes-since-${today}.csv`);
  await expect(page.getByTestId('changes-export-result')).toContainText(`Exported ${changedPeople.length} changes`);
  const lines = readFileSync((await download.path())!, 'utf8').replace(/^\uFEFF/, '').trim().split(/\r?\n/);
  expect(lines[0]).toBe('Name,Email,Company,Tier,change_person,change_person_id,change_kind,change_old_company,change_old_title,change_new_company,change_new_title,change_date,change_detected_date,change_important');
  expect(lines).toHaveLength(changedPeople.length + 1);
  expect(lines.filter((line) => line.includes(',moved,'))).toHaveLength(movedRows);

  // Nothing is left unseen in the projects list either.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Projects' }).click();
  await expect(line).toBeVisible();
  await expect(inboxLink).toHaveCount(0);

  // Stop watching, from the keyboard: the project is no longer watched anywhere.
  await page.getByRole('link', { name: 'Open champions' }).click();
  await page.getByTestId('watch-open').focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('dialog')).toContainText('Watching champions');
  await page.getByTestId('watch-clear').focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(page.getByTestId('watch-open')).toHaveText('Watch this project…');
  expect(await app.value('watch.list', {})).toEqual([]);
});
