// A new project of the same sheet starts from what another project learned, if the user chooses it (issue 43): the
// review's "What was learned" of a project that learned nothing offers the projects that did, and then says what the
// chosen one's learning gives this sheet.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, openApp, pickFile, projectIdFromUrl, test, useHost } from './support/app';
import { runDemoProject } from './support/demo';
import { checkScreen } from './support/screen-check';
import { REPO_ROOT } from './support/web-host';

const host = useHost('learn-from');
test.use({ colorScheme: 'light' });

const NEAR_NAME = 'near_name|typo|current_same|none|alone';

test('a second project of the demo sheet starts from what the first learned', async ({ page }) => {
  const app = host();
  const first = await runDemoProject(app);
  const firstName = (await app.value('projects.get', { projectId: first })).summary.name;
  // Ten near names accepted by hand in the first project, then learned from.
  const rows = (await app.value('review.page', { projectId: first, pattern: NEAR_NAME, offset: 0, limit: 10 })).rows;
  expect(rows).toHaveLength(10);
  for (const row of rows) await app.value('decisions.choose', { projectId: first, rowIndex: row.rowIndex, rank: row.bestRank!, applyToIdentical: false });
  const learned = await app.value('learning.learn', { projectId: first });
  expect(learned.rowsLifted).toBeGreaterThan(0);

  // The same sheet imported again, as a user does, and run (from the cache).
  await openApp(page, app, '#/projects');
  await pickFile(page, { name: 'sample-people.csv', mimeType: 'text/csv', buffer: readFileSync(join(REPO_ROOT, 'resources/demo/sample-people.csv')) });
  await expect(page).toHaveURL(/#\/projects\/\d+\/mapping$/);
  await page.getByTestId('mapping-continue').click();
  await expect(page).toHaveURL(/\/run$/);
  const second = projectIdFromUrl(page);
  await page.getByTestId('run-start').click();
  await expect(page).toHaveURL(new RegExp(`#/projects/${second}/review$`), { timeout: 60_000 });

  // What was learned: nothing yet, and the first project offered, reached from the keyboard.
  await page.getByTestId('review-learned').click();
  await expect(page.getByTestId('learned-nothing')).toBeVisible();
  const source = page.getByTestId('learned-source');
  await expect(source).toHaveValue(String(first));
  await expect(source.locator('option')).toHaveText([`${firstName} (10 decisions)`]);
  const start = page.getByTestId('learned-start-from');
  await expect(start).toHaveText(`Start from what ${firstName} learned`);
  await checkScreen(page, 'learn-from-offer', () => expect(start).toBeVisible());
  await source.focus();
  await page.keyboard.press('Tab');
  await expect(start).toBeFocused();
  await page.keyboard.press('Enter');

  // The summary it gives: the first project's sentences, and the rows of this sheet they lift.
  const sentences = page.getByTestId('learned-sentences');
  await expect(sentences).toContainText('You accepted 10 of 10 rows with a near name at the same company');
  await expect(page.getByTestId('learned-start')).toHaveCount(0);
  const summary = await app.value('learning.summary', { projectId: second });
  expect(summary.labels).toBe(0);
  expect(summary.rowsLifted).toBeGreaterThan(0);
  await expect(page.getByTestId('learned-figures')).toHaveText(
    `From what another project learned; ${summary.rowsLifted} rows waiting for review now look like the rows accepted there.`,
  );
  await checkScreen(page, 'learn-from-started', () => expect(sentences).toBeVisible());
});
