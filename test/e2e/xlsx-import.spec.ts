// An Excel workbook whose people are on its second sheet: picked through "New from file…", then the sheet picker.
import ExcelJS from 'exceljs';
import { expect, openApp, projectIdFromUrl, test, useHost, type SheetFile } from './support/app';
import { currentCompany, employedPeople } from './support/sheets';

const host = useHost('xlsx');

async function workbook(people: { name: string; company: string; email: string }[]): Promise<SheetFile> {
  const book = new ExcelJS.Workbook();
  const about = book.addWorksheet('Read me');
  about.addRow(['About this workbook']);
  about.addRow(['Exported from the CRM; the people are on the next sheet.']);
  const sheet = book.addWorksheet('People');
  sheet.addRow(['Full name', 'Employer', 'Work e-mail']);
  for (const person of people) sheet.addRow([person.name, person.company, person.email]);
  return {
    name: 'crm-export.xlsx',
    mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    buffer: Buffer.from(await book.xlsx.writeBuffer()),
  };
}

test('an XLSX with two sheets imports the one picked in the sheet picker', async ({ page }) => {
  const app = host();
  const people = employedPeople(3, 2000).map((person) => ({ name: person.name, company: currentCompany(person)!, email: person.email_address }));
  const file = await workbook(people);

  await openApp(page, app, '#/projects');
  await expect(page.getByRole('heading', { level: 1, name: 'Projects' })).toBeVisible();
  const choosing = page.waitForEvent('filechooser');
  await page.getByTestId('new-from-file').click();
  await (await choosing).setFiles(file);

  // The first visible sheet comes in first; the picker offers both.
  await expect(page).toHaveURL(/#\/projects\/\d+\/mapping$/);
  const firstProjectId = projectIdFromUrl(page);
  const picker = page.getByTestId('sheet-picker');
  await expect(picker).toHaveValue('Read me');
  await expect(picker.locator('option')).toHaveText(['Read me', 'People']);
  await expect(page.locator('.project-header__project')).toContainText('1 row');

  await picker.selectOption('People');
  await expect(page).not.toHaveURL(new RegExp(`#/projects/${firstProjectId}/`));
  await expect(page).toHaveURL(/#\/projects\/\d+\/mapping$/);
  const projectId = projectIdFromUrl(page);
  await expect(page.getByTestId('sheet-picker')).toHaveValue('People');
  await expect(page.locator('.project-header__project')).toContainText('3 rows');
  const sample = page.getByRole('region', { name: 'First rows of the sheet' });
  await expect(sample).toContainText('Employer');
  for (const person of people) await expect(sample).toContainText(person.name);

  await expect(page.getByTestId('mapping-select-fullName')).toHaveValue('0');
  await expect(page.getByTestId('mapping-select-company')).toHaveValue('1');
  await expect(page.getByTestId('mapping-select-email')).toHaveValue('2');
  await expect(page.getByTestId('mapping-field-email')).toContainText(people[0]!.email);

  // The untouched first import was replaced, not left behind.
  const projects = await app.value('projects.list', {});
  expect(projects.map((project) => project.id)).toEqual([projectId]);
  const detail = await app.value('projects.get', { projectId });
  expect(detail).toMatchObject({ format: 'xlsx', sheetName: 'People', headers: ['Full name', 'Employer', 'Work e-mail'] });
  expect(detail.summary.rowCount).toBe(3);

  await page.getByTestId('mapping-continue').click();
  await expect(page).toHaveURL(new RegExp(`#/projects/${projectId}/run$`));
  await expect(page.getByTestId('preview-rows')).toContainText('3');
  await expect(page.getByTestId('preview-distinct-queries')).toContainText('3');
});
