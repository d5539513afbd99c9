// The criteria search a user builds from a sheet: import a column of company pages, fill "left these companies
// since" from it, run it against the demo service, read the people in the table, and export them. The export must
// hold exactly the people of the seeded dataset whose job at one of those companies ended on or after the date.
import { readFileSync } from 'node:fs';
import Papa from 'papaparse';
import type { Person } from '../../electron/simulator';
import type { Page } from '@playwright/test';
import { dropFile, expect, openApp, projectIdFromUrl, setTheme, test, useHost } from './support/app';
import { checkScreen, expectVisibleKeyboardFocus } from './support/screen-check';
import { csvFile, peopleOfTheDemo } from './support/sheets';

const host = useHost('search');
test.use({ colorScheme: 'light' });

const SINCE = '2023-01-01';

/** Toasts come and go on their own; a picture of the screen should not depend on when it was taken. */
async function withoutToasts(page: Page): Promise<void> {
  for (const close of await page.getByRole('button', { name: 'Dismiss notification' }).all()) await close.click();
  await expect(page.locator('.toast')).toHaveCount(0);
}

/** The job that puts a person in the answer: at one of the companies, ended on or after the date. */
function leftJob(person: Person, slugs: ReadonlySet<string>, since: string) {
  return person.jobs.find((job) => slugs.has(job.company.social) && job.ended_at !== null && job.ended_at.slice(0, 10) >= since);
}

/**
 * A few companies (stable pick: by slug, each with a handful of leavers) and everyone who left one of them since
 * the date, straight from the seeded dataset the demo service serves.
 */
function companiesWithLeavers(since: string, count: number) {
  const leavers = new Map<string, Set<string>>();
  for (const person of peopleOfTheDemo()) {
    for (const job of person.jobs) {
      if (job.ended_at === null || job.ended_at.slice(0, 10) < since) continue;
      const ids = leavers.get(job.company.social) ?? new Set<string>();
      ids.add(person.id);
      leavers.set(job.company.social, ids);
    }
  }
  const slugs = [...leavers.entries()]
    .filter(([, ids]) => ids.size >= 8 && ids.size <= 30)
    .map(([slug]) => slug)
    .sort()
    .slice(0, count);
  const chosen = new Set(slugs);
  const expected = new Map(peopleOfTheDemo().flatMap((person) => (leftJob(person, chosen, since) ? [[person.id, person] as const] : [])));
  return { slugs, chosen, expected };
}

test('"left these companies since" from a sheet\'s column: built, run, read and exported', async ({ page }) => {
  const app = host();
  const { slugs, chosen, expected } = companiesWithLeavers(SINCE, 6);
  expect(slugs).toHaveLength(6);
  // More than one page of 100, so the run pages to its end.
  expect(expected.size).toBeGreaterThan(100);

  await openApp(page, app);
  await page.getByTestId('demo-start').click();
  await expect(page).toHaveURL(/#\/projects\/\d+\/mapping$/);
  const demoProjectId = projectIdFromUrl(page);

  // The user's sheet: company pages as people paste them (a link, a slug, a repeat, a blank).
  const rows = [
    ['Account', 'Company page'],
    ['First', `https://www.linkedin.com/company/${slugs[0]}/`],
    ...slugs.slice(1).map((slug, index) => [`Account ${index + 2}`, slug]),
    ['Repeat', slugs[1]!],
    ['No page yet', ''],
  ];
  await dropFile(page, page.getByTestId('drop-zone'), csvFile('target-accounts.csv', rows));
  await expect(page).not.toHaveURL(new RegExp(`#/projects/${demoProjectId}/`));
  await expect(page).toHaveURL(/#\/projects\/\d+\/mapping$/);
  const sheetProjectId = projectIdFromUrl(page);

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Search' }).click();
  await expect(page).toHaveURL(/#\/search$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Search by criteria' })).toBeVisible();

  // Nothing to send yet: the run is refused with the reason, and nothing is asked of the service.
  await page.getByTestId('search-run').click();
  await expect(page.getByTestId('search-problems')).toBeVisible();
  await expect(page.getByText('Add at least one filter.')).toBeVisible();
  expect(await app.value('search.list', {})).toEqual([]);

  // The template, its companies read from the sheet's column.
  await page.getByTestId('template-left-companies').click();
  await page.getByTestId('template-param-companies-from-column').click();
  const dialog = page.getByRole('dialog', { name: "Values from a sheet's column" });
  await expect(dialog).toBeVisible();
  await dialog.getByTestId('column-project').selectOption(String(sheetProjectId));
  // "Company page" is the column a company slug filter wants: picked without being asked.
  await expect(dialog.getByTestId('column-pick')).toHaveValue('1');
  await expect(dialog.getByTestId('column-values-preview')).toContainText('6 distinct values');
  await expect(dialog.getByTestId('column-values-preview')).toContainText('1 repeat left out');
  await expect(dialog.getByTestId('column-values-preview')).toContainText(slugs[0]!);
  await checkScreen(page, 'search-column-dialog-light');
  await dialog.getByTestId('column-values-use').click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByTestId('template-param-companies-count')).toHaveText('6 values');
  expect((await page.getByTestId('template-param-companies').inputValue()).split('\n')).toEqual(slugs);

  // Without the date the template says what is missing.
  await page.getByTestId('template-apply').click();
  await expect(page.getByTestId('template-problems')).toContainText('Left on or after: give a date.');
  await page.getByTestId('template-param-since').fill(SINCE);
  await page.getByTestId('template-apply').click();

  // One same-job box: the company and the end date must hold for the same job.
  const box = page.getByTestId('job-box');
  await expect(box).toHaveCount(1);
  await expect(box.getByTestId('filter-row')).toHaveCount(2);
  await expect(box.getByTestId('filter-field').first()).toHaveValue('jobs.company.social');
  await expect(box.getByTestId('filter-date-from')).toHaveValue(SINCE);
  await expect(page.getByTestId('filter-problems')).toHaveCount(0);
  await expect(page.getByTestId('search-name')).toHaveAttribute('placeholder', `Left 6 companies since ${SINCE}`);
  const json = JSON.parse((await page.getByTestId('request-json-text').textContent())!) as { filters: unknown[] };
  expect(json).toEqual({
    filters: [
      { field: 'jobs.company.social', type: 'must', match_type: 'exact', string_values: slugs, job_group: 1 },
      { field: 'jobs.ended_at', type: 'must', match_type: 'exact', date_from: SINCE, job_group: 1 },
    ],
  });

  // Live validation beside the row: a last day before the first day.
  await box.getByTestId('filter-date-to').fill('2022-06-30');
  await expect(box.getByTestId('filter-problems')).toContainText(`The date from (${SINCE}) is after the date to (2022-06-30).`);
  await withoutToasts(page);
  await checkScreen(page, 'search-validation-light');
  await box.getByTestId('filter-date-to').fill('');
  await expect(page.getByTestId('filter-problems')).toHaveCount(0);
  await withoutToasts(page);
  await checkScreen(page, 'search-builder-light', () => page.locator('.search-filters').evaluate((card) => card.scrollIntoView({ block: 'start' })));

  // Run, with the keyboard.
  await page.getByTestId('search-name').focus();
  await page.keyboard.press('Control+Enter');
  await expect(page).toHaveURL(/#\/search\/\d+$/);
  const searchId = Number(/#\/search\/(\d+)$/.exec(page.url())![1]);
  await expect(page.getByTestId('search-status')).toHaveText('Done', { timeout: 60_000 });
  await expect(page.getByTestId('search-results-total')).toHaveText(`${expected.size} people`);
  const progress = await app.value('search.status', { searchId });
  expect(progress).toMatchObject({ status: 'done', people: expected.size, fromCache: false });
  expect(progress!.pages).toBeGreaterThanOrEqual(2);

  // The table shows the job that matched; the details mark it in the person's jobs.
  const first = page.getByTestId('search-result').first();
  await expect(first).toBeVisible();
  const firstId = (await first.getAttribute('data-person-id'))!;
  const firstJob = leftJob(expected.get(firstId)!, chosen, SINCE)!;
  await expect(first.getByTestId('result-job-ended')).toHaveText(firstJob.ended_at!.slice(0, 10));
  await first.click();
  await expect(page.getByTestId('result-details')).toContainText(expected.get(firstId)!.name);
  await expect(page.getByTestId('result-details').locator('.is-matched')).toContainText(firstJob.company.name);
  // Keys move through the table.
  await page.getByTestId('search-results').press('ArrowDown');
  await expect(page.getByTestId('search-result').nth(1)).toHaveAttribute('aria-selected', 'true');
  await page.getByTestId('search-results').press('End');
  await expect(page.locator('[data-testid="search-result"][aria-selected="true"]')).toBeVisible();
  await page.getByTestId('search-results').press('Home');
  // The list of people found shows where the keyboard is.
  await page.getByTestId('search-name').focus();
  await expectVisibleKeyboardFocus(page, page.getByTestId('search-results'));

  await withoutToasts(page);
  const showResults = () => page.getByTestId('search-results-card').scrollIntoViewIfNeeded();
  await checkScreen(page, 'search-results-light', showResults);
  await setTheme(page, 'dark');
  await checkScreen(page, 'search-results-dark', showResults);
  await checkScreen(page, 'search-builder-dark', () => page.locator('.main').evaluate((main) => main.scrollTo({ top: 0 })));
  await page.getByText('The request as JSON').click();
  await checkScreen(page, 'search-json-dark', () => page.getByTestId('request-json-text').scrollIntoViewIfNeeded());
  await page.getByText('The request as JSON').click();
  await setTheme(page, 'light');

  // Export: the browser host hands it over as a download.
  const downloading = page.waitForEvent('download');
  await page.getByTestId('search-export-button').click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe(`Left 6 companies since ${SINCE}.csv`);
  await expect(page.getByTestId('search-export-result')).toContainText(`Exported ${expected.size} people`);

  const text = readFileSync((await download.path())!, 'utf8');
  expect(text.charCodeAt(0), 'a byte order mark for Excel').toBe(0xfeff);
  const parsed = Papa.parse<Record<string, string>>(text.slice(1), { header: true, skipEmptyLines: true });
  expect(parsed.errors).toEqual([]);
  expect(parsed.meta.fields).toEqual(expect.arrayContaining(['Person id', 'Name', 'Job company', 'Job title', 'Job started', 'Job ended']));
  const exportedIds = parsed.data.map((line) => line['Person id']!);
  expect(new Set(exportedIds).size, 'one row per person').toBe(exportedIds.length);
  expect(new Set(exportedIds)).toEqual(new Set(expected.keys()));
  for (const line of parsed.data) {
    const person = expected.get(line['Person id']!)!;
    const job = leftJob(person, chosen, SINCE);
    expect(job, `${person.id} has a job at one of the companies that ended on or after ${SINCE}`).toBeDefined();
    // The job columns are the job that satisfied both filters, not just any job of the person.
    expect(slugs.includes(person.jobs.find((j) => j.company.name === line['Job company'] && j.ended_at?.slice(0, 10) === line['Job ended'])?.company.social ?? '')).toBe(true);
    expect(line['Job ended']! >= SINCE).toBe(true);
  }

  // The search is saved in the projects list; opening it again costs no call.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Projects' }).click();
  const saved = page.locator(`[data-testid="saved-search-row"][data-search-id="${searchId}"]`);
  await expect(saved).toContainText(`Left 6 companies since ${SINCE}`);
  await expect(saved).toContainText(String(expected.size));
  await withoutToasts(page);
  await checkScreen(page, 'search-in-projects-light');
  await saved.getByRole('link', { name: `Open Left 6 companies since ${SINCE}` }).click();
  await expect(page).toHaveURL(new RegExp(`#/search/${searchId}$`));
  await expect(page.getByTestId('search-results-total')).toHaveText(`${expected.size} people`);
  await expect(page.getByTestId('job-box').getByTestId('filter-row')).toHaveCount(2);
  // The same filters again within the cache's lifetime: answered from the stored results.
  const calls = (await app.value('search.status', { searchId }))!.calls;
  await page.getByTestId('search-run').click();
  await expect(page.getByTestId('search-progress')).toContainText('no call was made');
  expect((await app.value('search.status', { searchId }))!.calls).toBe(calls);
  expect(await app.value('search.list', {})).toHaveLength(1);
});
