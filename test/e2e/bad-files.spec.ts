// Files that are not sheets: the banner names the file and says what is wrong, and no project is left behind.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { dropFile, expect, openApp, pickFile, test, useHost } from './support/app';
import { checkScreen } from './support/screen-check';
import { REPO_ROOT } from './support/web-host';

const host = useHost('bad-files');

test('a PNG renamed .csv, an empty file and a PDF each show what is wrong with them', async ({ page }) => {
  const app = host();
  await openApp(page, app, '#/projects');
  const banner = page.getByRole('alert');

  // Dropped: the engine sniffs the bytes, not the name.
  const png = readFileSync(join(REPO_ROOT, 'test/fixtures/bad/png-renamed.csv'));
  expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
  await dropFile(page, page.getByTestId('drop-zone'), { name: 'holiday-photo.csv', mimeType: 'text/csv', buffer: png });
  await expect(banner).toContainText('Could not import holiday-photo.csv');
  await expect(banner).toContainText('“holiday-photo.csv” is a PNG image, not a spreadsheet. Choose a CSV or Excel (.xlsx) file.');
  await expect(page).toHaveURL(/#\/projects$/);
  await checkScreen(page, 'import-error');
  await banner.getByRole('button', { name: 'Dismiss this message' }).click();
  await expect(banner).toHaveCount(0);

  // Picked: zero bytes.
  await pickFile(page, { name: 'contacts.csv', mimeType: 'text/csv', buffer: Buffer.alloc(0) });
  await expect(banner).toContainText('Could not import contacts.csv');
  await expect(banner).toContainText('“contacts.csv” is empty: there is nothing to import.');
  await expect(page).toHaveURL(/#\/projects$/);

  // A kind of file the app does not take at all is refused before it is uploaded.
  await dropFile(page, page.getByTestId('drop-zone'), { name: 'report.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.7\n') });
  await expect(banner).toContainText('Could not import report.pdf');
  await expect(banner).toContainText('"report.pdf" is not a file Matchdesk can read.');

  expect(await app.value('projects.list', {})).toEqual([]);
});
