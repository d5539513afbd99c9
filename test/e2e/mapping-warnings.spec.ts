// The mapping's warnings open the rows they count (issue 44): "12 invalid e-mails" and "N rows have nothing usable to
// look up" each show their rows by their number in the sheet, and the second says how many "Name alone" would cover.
import { expect, openApp, test, useHost } from './support/app';
import { checkScreen } from './support/screen-check';
import { csvFile } from './support/sheets';

const host = useHost('mapping-warnings');
test.use({ colorScheme: 'light' });

test('a warning of the mapping opens the rows it counts, and the unusable rows say what "Name alone" would look up', async ({ page }) => {
  const rows = [
    ['Name', 'Email', 'Company'],
    // Rows 2-11: a name, an e-mail that is not one, no company.
    ...Array.from({ length: 10 }, (_, i) => [`Wrong Mail${i}`, `wrong.mail${i}-at-example.com`, '']),
    // Rows 12-21: good e-mails.
    ...Array.from({ length: 10 }, (_, i) => [`Good Mail${i}`, `good.mail${i}@example.com`, 'Acme']),
    // Rows 22-27: a name alone.
    ...Array.from({ length: 6 }, (_, i) => [`Name Only${i}`, '', '']),
  ];
  await openApp(page, host(), '#/projects');
  const choosing = page.waitForEvent('filechooser');
  await page.getByTestId('new-from-file').click();
  await (await choosing).setFiles(csvFile('warned.csv', rows));
  await expect(page).toHaveURL(/#\/projects\/\d+\/mapping$/);

  const warnings = page.getByTestId('sheet-warnings');
  await expect(warnings.getByTestId('warning-problem-rows')).toHaveText('show 10 rows');
  await expect(warnings.getByTestId('warning-unusable-rows')).toHaveText('16 rows have');
  await expect(warnings.getByTestId('warning-unusable-by-name')).toContainText('Ticking “Name alone” would look up all 16');

  // The invalid e-mails: rows 2 to 11 of the sheet, with their cells.
  await warnings.getByTestId('warning-problem-rows').click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toBeVisible();
  const listed = dialog.getByTestId('warning-rows').locator('tbody tr');
  await expect(listed).toHaveCount(10);
  await expect(listed.first()).toContainText('wrong.mail0-at-example.com');
  expect(await listed.locator('th').allTextContents()).toEqual(Array.from({ length: 10 }, (_, i) => String(i + 2)));
  await checkScreen(page, 'mapping-warning-rows', async () => {
    await expect(dialog.getByRole('button', { name: 'Close' })).toBeInViewport();
  });
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toHaveCount(0);

  // The unusable rows: the wrong e-mails' rows (no company for "name and company") and the names alone.
  await warnings.getByTestId('warning-unusable-rows').click();
  await expect(listed).toHaveCount(16);
  expect((await listed.locator('th').allTextContents()).slice(-6)).toEqual(['22', '23', '24', '25', '26', '27']);
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await checkScreen(page, 'mapping-warnings');
});
