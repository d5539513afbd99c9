// The whole flow a first-time user takes: "Try with demo data", drop a sheet, confirm the columns, read the cost,
// run, decide with the keyboard, export, and find exactly those decisions in the downloaded file. Then the demo sheet
// itself, which shows rows with several candidates, the accept of confident rows at 90%, a refresh that finds who
// moved, credits in the cost preview, and the export warning about rows still to review.
import { readFileSync } from 'node:fs';
import Papa from 'papaparse';
import type { RowState } from '../../shared/model';
import { dropFile, expect, openApp, projectIdFromUrl, screenshot, test, useHost } from './support/app';
import { csvFile, currentCompany, misspellablePeople, misspelledName, peopleOfTheDemo } from './support/sheets';

const host = useHost('flow');

test('from "Try with demo data" to an export holding exactly the decisions made with the keyboard', async ({ page }) => {
  const app = host();
  await openApp(page, app);

  // A first-time user lands on Account, where the demo button is.
  await expect(page.getByRole('heading', { level: 1, name: 'Account' })).toBeVisible();
  await page.getByTestId('demo-start').click();
  await expect(page).toHaveURL(/#\/projects\/\d+\/mapping$/);
  const demoProjectId = projectIdFromUrl(page);
  await expect(page.getByTestId('active-profile')).toContainText('Demo (local simulator)');

  // Our own sheet: four people by a misspelled name and their company (found, but a near name waits for review),
  // one by exact e-mail (accepted automatically), and one the service has never heard of.
  const byName = misspellablePeople(4);
  const byEmail = peopleOfTheDemo()[4321]!;
  const rows = [
    ['Name', 'Company', 'Email'],
    ...byName.map((person) => [misspelledName(person), currentCompany(person)!, '']),
    [byEmail.name, '', byEmail.email_address],
    ['Rosalind Featherstone', 'Nowhere Corp Ltd', ''],
  ];
  await dropFile(page, page.getByTestId('drop-zone'), csvFile('prospects.csv', rows));

  await expect(page).not.toHaveURL(new RegExp(`#/projects/${demoProjectId}/`));
  await expect(page).toHaveURL(/#\/projects\/\d+\/mapping$/);
  const projectId = projectIdFromUrl(page);
  await expect(page.getByRole('heading', { level: 1, name: 'Which columns hold what' })).toBeVisible();
  await expect(page.locator('.project-header__project')).toContainText('prospects');
  await expect(page.getByTestId('mapping-select-fullName')).toHaveValue('0');
  await expect(page.getByTestId('mapping-select-company')).toHaveValue('1');
  // One e-mail in six cells is too few to detect with confidence: the user points at the column.
  await page.getByTestId('mapping-select-email').selectOption('2');
  await expect(page.getByTestId('mapping-field-email')).toContainText(byEmail.email_address);
  await page.getByTestId('mapping-continue').click();

  // The cost preview, before anything is sent.
  await expect(page).toHaveURL(new RegExp(`#/projects/${projectId}/run$`));
  const preview = await app.value('run.preview', { projectId });
  expect(preview).toMatchObject({ rows: 6, rowsWithoutQuery: 0, distinctQueries: 6, cachedFresh: 0, toFetch: 6, offline: false });
  await expect(page.getByTestId('preview-rows')).toContainText('6');
  await expect(page.getByTestId('preview-rows-without-query')).toContainText('0');
  await expect(page.getByTestId('preview-distinct-queries')).toContainText('6');
  await expect(page.getByTestId('preview-cached')).toContainText('0');
  await expect(page.getByTestId('preview-to-fetch')).toContainText('6');
  await expect(page.getByTestId('preview-calls')).toContainText(String(preview.calls));

  // Run: a clean run opens the review by itself.
  await page.getByTestId('run-start').click();
  await expect(page).toHaveURL(new RegExp(`#/projects/${projectId}/review$`), { timeout: 30_000 });

  const before = await app.value('review.page', { projectId, offset: 0, limit: 10 });
  expect(
    before.rows.map((row) => row.state),
    'what the run should find: four to review (near names), one exact e-mail, one unknown',
  ).toEqual(['to_review', 'to_review', 'to_review', 'to_review', 'auto', 'no_candidates'] satisfies RowState[]);

  const row = (index: number) => page.locator(`[data-testid="review-row"][data-row-index="${index}"]`);
  await expect(row(0)).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByTestId('row-panel')).toHaveAttribute('data-row-index', '0');
  // Candidates come most likely first, each with its confidence and the reason.
  const firstCandidate = page.getByTestId('candidate-card').and(page.locator('[data-position="1"]'));
  const chosenName = (await firstCandidate.locator('.candidate__name').textContent())!;
  const chosenPersonId = (await app.value('review.row', { projectId, rowIndex: 0 })).candidates[0]!.personId;
  expect(chosenPersonId).toBe(byName[0]!.id);
  await expect(firstCandidate.getByTestId('candidate-confidence')).toHaveText(/\d+%/);
  await expect(page.getByTestId('row-reason')).toHaveText('Check: the name only nearly matches (a nickname, typo or initial)');
  await expect(firstCandidate.locator('.evidence')).toContainText('name nearly the same');

  // 1 chooses the first candidate and moves on; n says none fits; s skips.
  await page.keyboard.press('1');
  await expect(row(0)).toHaveAttribute('data-state', 'accepted');
  await expect(row(1)).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('n');
  await expect(row(1)).toHaveAttribute('data-state', 'rejected');
  await expect(row(2)).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('s');
  await expect(row(2)).toHaveAttribute('data-state', 'skipped');
  await expect(row(3)).toHaveAttribute('aria-selected', 'true');
  // u takes back the skip and goes back to its row.
  await page.keyboard.press('u');
  await expect(row(2)).toHaveAttribute('data-state', 'to_review');
  await expect(row(2)).toHaveAttribute('aria-selected', 'true');
  // Named as the sheet numbers it: the header is row 1, so the third data row is row 4.
  await expect(page.getByText('Undid the decision on row 4.')).toBeVisible();
  // Then on to the next row, and skip that one.
  await page.keyboard.press('j');
  await expect(row(3)).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('s');
  await expect(row(3)).toHaveAttribute('data-state', 'skipped');

  const chip = (state: string) => page.getByTestId(`filter-chip-${state}`);
  await expect(chip('all')).toHaveAttribute('data-count', '6');
  await expect(chip('accepted')).toHaveAttribute('data-count', '1');
  await expect(chip('rejected')).toHaveAttribute('data-count', '1');
  await expect(chip('skipped')).toHaveAttribute('data-count', '1');
  await expect(chip('to_review')).toHaveAttribute('data-count', '1');
  await expect(chip('auto')).toHaveAttribute('data-count', '1');

  // The row found by its e-mail shows that as agreement, not as a missing e-mail (the service sends none).
  await page.locator('[data-testid="review-row"][data-row-index="4"]').click();
  await expect(page.getByTestId('row-panel')).toHaveAttribute('data-row-index', '4');
  const emailEvidence = page.getByTestId('candidate-card').first().locator('.evidence');
  await expect(emailEvidence).toContainText('found by this e-mail');
  await expect(emailEvidence).not.toContainText('missing');
  await expect(chip('no_candidates')).toHaveAttribute('data-count', '1');

  // Export: the browser host hands the file over as a download.
  await page.getByRole('navigation', { name: 'Project steps' }).getByRole('link', { name: 'Export' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Export' })).toBeVisible();
  const downloading = page.waitForEvent('download');
  await page.getByTestId('export-button').click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/\.csv$/);
  await expect(page.getByTestId('export-result')).toContainText('Exported 6 rows');

  const text = readFileSync((await download.path())!, 'utf8');
  expect(text.charCodeAt(0), 'a byte order mark for Excel').toBe(0xfeff);
  const parsed = Papa.parse<Record<string, string>>(text.slice(1), { header: true, skipEmptyLines: true });
  expect(parsed.errors).toEqual([]);
  expect(parsed.meta.fields?.slice(0, 3)).toEqual(['Name', 'Company', 'Email']);
  const exported = parsed.data;
  expect(exported.map((line) => [line.Name, line.Company, line.Email])).toEqual(rows.slice(1));
  const outcome = exported.map((line) => ({ status: line.match_status, personId: line.match_person_id, name: line.match_name, source: line.match_source }));
  expect(outcome).toEqual([
    { status: 'accepted', personId: chosenPersonId, name: chosenName, source: 'manual' },
    { status: 'rejected', personId: '', name: '', source: 'manual' },
    { status: 'to_review', personId: '', name: '', source: '' },
    { status: 'skipped', personId: '', name: '', source: 'manual' },
    { status: 'auto', personId: byEmail.id, name: byEmail.name, source: 'auto' },
    { status: 'no_candidates', personId: '', name: '', source: '' },
  ]);
});

test('the demo shows several candidates, the accept of confident rows at 90%, a refresh that finds who moved, credits and the export warning', async ({ page }) => {
  const app = host();
  await openApp(page, app, '#/account');
  await page.getByTestId('demo-start').click();
  await expect(page).toHaveURL(/#\/projects\/\d+\/mapping$/);
  const projectId = projectIdFromUrl(page);
  await page.getByTestId('mapping-continue').click();
  await expect(page).toHaveURL(new RegExp(`#/projects/${projectId}/run$`));
  await page.getByTestId('run-start').click();
  await expect(page).toHaveURL(new RegExp(`#/projects/${projectId}/review$`), { timeout: 60_000 });

  // Namesakes and near names at one employer: rows to review with 2 to 5 candidates, the most confident first.
  const toReview = (await app.value('review.page', { projectId, states: ['to_review'], offset: 0, limit: 500 })).rows;
  const candidateCounts = new Set(toReview.map((row) => row.candidateCount));
  for (const n of [2, 3, 4, 5]) expect(candidateCounts.has(n), `a row to review with ${n} candidates`).toBe(true);
  await page.getByTestId('filter-chip-to_review').click();
  await page.getByTestId('review-order').selectOption('confidence_desc');
  // The most confident rows to review are near names with one candidate: open the first with several.
  const byConfidence = (await app.value('review.page', { projectId, states: ['to_review'], order: 'confidence_desc', offset: 0, limit: 500 })).rows;
  const several = byConfidence.findIndex((row) => row.candidateCount >= 2);
  await page.locator('#review-row-0').click();
  for (let i = 0; i < several; i++) await page.keyboard.press('j');
  await expect(page.getByTestId('row-panel')).toHaveAttribute('data-row-index', String(byConfidence[several]!.rowIndex));
  await expect.poll(() => page.getByTestId('candidate-card').count()).toBeGreaterThanOrEqual(2);
  await screenshot(page, 'demo-several-candidates');

  // Rows with the company written short wait for review; once ten of them are accepted and learned from, the accept of
  // confident rows offers the rest at 90%, and fewer at 95%. (Decided and learned over the contract here; the review
  // learning on its own after ten hand decisions is review-learning.spec.ts.)
  const pattern = 'not_at_company|exact|current_close|none|alone';
  const shortCompany = (await app.value('review.page', { projectId, pattern, offset: 0, limit: 500 })).rows;
  for (const row of shortCompany.slice(0, 10)) await app.value('decisions.choose', { projectId, rowIndex: row.rowIndex, rank: row.bestRank! });
  await app.value('learning.learn', { projectId });
  const offered = (await app.value('decisions.acceptPreview', { projectId })).thresholds;
  const at90 = offered.find((t) => t.minConfidence === 0.9)!.rows;
  const at95 = offered.find((t) => t.minConfidence === 0.95)!.rows;
  expect(at90).toBeGreaterThanOrEqual(10);
  expect(at95).toBeLessThan(at90);
  await openApp(page, app, `#/projects/${projectId}/review`);
  await page.getByTestId('accept-all-auto').click();
  await page.getByTestId('threshold-0.9').check();
  await expect(page.locator('.accept-dialog__choice', { has: page.getByTestId('threshold-0.9') })).toContainText(`${at90} rows`);
  await expect(page.getByTestId('accept-confident-confirm')).toHaveText(`Accept ${at90} rows`);
  await screenshot(page, 'demo-accept-confident');
  await page.getByTestId('threshold-0.95').check();
  await expect(page.getByTestId('accept-confident-confirm')).toHaveText(at95 === 0 ? 'Nothing to accept' : `Accept ${at95} rows`);
  await page.getByTestId('threshold-0.9').check();
  await page.getByTestId('accept-confident-confirm').click();
  await expect(page.getByText(`Accepted ${at90} rows. Undo takes them all back.`)).toBeVisible();

  // The demo's world has moved on by the first refresh: some people moved, some left.
  await page.getByTestId('refresh-open').click();
  await page.getByTestId('refresh-start').click();
  await expect(page.getByTestId('refresh-status')).toHaveText('Done', { timeout: 60_000 });
  await expect(page.getByTestId('refresh-sentence')).toContainText('rows with a job change since');
  await page.getByTestId('refresh-show-changed').click();
  const changed = (await app.value('review.page', { projectId, changedAtLastRefresh: true, offset: 0, limit: 500 })).rows;
  expect(changed.filter((row) => row.jobChange?.status === 'moved').length).toBeGreaterThan(0);
  expect(changed.filter((row) => row.jobChange?.status === 'left').length).toBeGreaterThan(0);
  await expect(page.getByTestId('job-chip-changed')).toHaveAttribute('data-count', String(changed.length));
  // The selected row's panel has caught up with the filter (it shows the row before it faded while it loads).
  await expect(page.getByRole('complementary', { name: 'Selected row' })).not.toHaveAttribute('aria-busy', 'true');
  await screenshot(page, 'demo-refresh-changed');

  // The demo service keeps credits: the cost preview sets a run against them.
  await openApp(page, app, `#/projects/${projectId}/run`);
  await expect(page.getByTestId('preview-credits')).toContainText(/^Credits: up to \d[\d,]* of \d[\d,]* remaining\. A bound/);
  await screenshot(page, 'demo-run-preview-credits');

  // Exporting every row says how many are still to review, and offers the matched rows only.
  const stillToReview = (await app.value('review.page', { projectId, offset: 0, limit: 1 })).counts.to_review;
  await openApp(page, app, `#/projects/${projectId}/export`);
  await expect(page.getByTestId('export-to-review')).toContainText(`${stillToReview} rows are still to review`);
  await screenshot(page, 'demo-export-to-review');
  await page.getByTestId('export-matched-only').click();
  await expect(page.getByRole('radio', { name: /Matched rows only/ })).toBeChecked();
  await expect(page.getByTestId('export-to-review')).toHaveCount(0);
});
