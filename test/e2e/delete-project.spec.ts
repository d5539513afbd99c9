// Deleting a project from the projects screen: asked first, gone from the list at once with a note saying so, and
// everything it held (rows, decisions, runs) removed in the background while the app is idle.
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { expect, openApp, screenshot, test, useHost } from './support/app';
import { runDemoProject } from './support/demo';

const host = useHost('delete');

test('a run project is deleted from the projects screen, and what it held is removed while the app is idle', async ({ page }) => {
  const app = host();
  const projectId = await runDemoProject(app);
  const { name, rowCount } = (await app.value('projects.get', { projectId })).summary;
  await openApp(page, app, '#/projects');

  await page.getByRole('button', { name: `Delete ${name}` }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText(`Delete ${name}?`);
  await expect(dialog).toContainText(`${rowCount.toLocaleString('en-US')} rows`);
  await dialog.getByRole('button', { name: 'Delete project' }).click();

  await expect(page.locator('.toast')).toContainText(`Deleted ${name}.`);
  await expect(page.getByRole('region', { name: 'No projects yet' })).toBeVisible();
  await screenshot(page, 'projects-after-delete');
  expect(await app.value('projects.list', {})).toEqual([]);

  // Nothing is left of it once the engine has had a quiet moment (projects/project-cleanup.ts).
  const db = new Database(join(app.dataDir, 'matchdesk.sqlite'), { readonly: true });
  try {
    const left = () =>
      ['rows', 'row_queries', 'row_status', 'runs', 'project_cleanup'].reduce(
        (n, table) => n + (db.prepare(`SELECT count(*) FROM ${table} WHERE project_id = ?`).pluck().get(projectId) as number),
        0,
      );
    await expect.poll(left, { timeout: 15_000 }).toBe(0);
  } finally {
    db.close();
  }
});
