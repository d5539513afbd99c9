// A sheet with no column to look anyone up by, or columns with nothing in them to ask with: the mapping screen says
// what is missing and does not go on until there is, rather than "continuing" to a run of zero rows.
import { dropFile, expect, openApp, test, useHost } from './support/app';
import { checkScreen } from './support/screen-check';

const host = useHost('no-lookup-column');

test('the mapping screen explains what is missing and keeps Continue off until a column is chosen', async ({ page }) => {
  const app = host();
  await openApp(page, app, '#/projects');
  const sheet = ['Ref,Shelf,Size', 'Ada Lovelace,Analytical Engines,1', 'Alan Turing,Bletchley Park,2'].join('\n') + '\n';
  await dropFile(page, page.getByTestId('drop-zone'), { name: 'inventory.csv', mimeType: 'text/csv', buffer: Buffer.from(sheet) });
  await expect(page).toHaveURL(/#\/projects\/\d+\/mapping$/);

  const shortfall = page.getByTestId('mapping-shortfall');
  const carryOn = page.getByTestId('mapping-continue');
  await expect(shortfall).toHaveText(
    'Matchdesk needs at least an e-mail, a profile link, or a name with a company column to look anyone up, and none is mapped. Choose the column that holds one under “Columns for each field”.',
  );
  await expect(carryOn).toBeDisabled();
  await checkScreen(page, 'mapping-nothing-to-look-up', () => expect(shortfall).toBeVisible());

  // A column whose cells are no e-mails gives no row anything to ask with.
  await page.getByTestId('mapping-select-email').selectOption({ label: 'C · Size' });
  await expect(shortfall).toHaveText('None of the 2 rows has anything to look up with these columns: their samples show what each cell becomes.');
  await expect(carryOn).toBeDisabled();
  await page.getByTestId('mapping-select-email').selectOption({ label: 'Not in this sheet' });

  // A name alone is not enough for the ways switched on: the name with a company is.
  await page.getByTestId('mapping-select-fullName').selectOption({ label: 'A · Ref' });
  await expect(shortfall).toBeVisible();
  await expect(carryOn).toBeDisabled();
  await page.getByTestId('mapping-select-company').selectOption({ label: 'B · Shelf' });
  await expect(shortfall).toHaveCount(0);
  await expect(carryOn).toBeEnabled();
  await expect(page.getByRole('status').filter({ hasText: 'to look up' })).toHaveText('2 rows to look up');
});
