// A data folder an earlier version made, opened by this one: the window says how far bringing it up to this version
// is (the move goes on where an earlier start stopped), then shows the app on it.
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { ALL_MIGRATIONS, MigrationStopped, migrateInSlices } from '../../electron/engine/store';
import { writeVersion27Folder } from '../engine/store/migrations/version-27-folder';
import { expect, openApp, screenshot, test } from './support/app';
import { startHost, type RunningHost } from './support/web-host';

let host: RunningHost | null = null;
let lock: Database.Database | null = null;
test.afterAll(async () => {
  lock?.close();
  await host?.stop();
});

test('an older data folder: the window shows it being brought up to this version, then the app', async ({ page }) => {
  host = await startHost('older-folder', async (dataDir) => {
    const file = join(dataDir, 'matchdesk.sqlite');
    writeVersion27Folder(file);
    // Stopped after two slices, as closing the app part-way stops it.
    const db = new Database(file);
    const stop = new AbortController();
    let slices = 0;
    await migrateInSlices(db, ALL_MIGRATIONS, { sliceSize: 30, signal: stop.signal, onProgress: () => void (++slices === 2 && stop.abort()) }).catch((error: unknown) => {
      if (!(error instanceof MigrationStopped)) throw error;
    });
    db.close();
    // Another process holds the write lock: the host's next slice waits for it, and the window shows where it is.
    lock = new Database(file);
    lock.exec('BEGIN IMMEDIATE');
  });
  await page.goto(host.url);
  await expect(page.getByRole('heading', { level: 1, name: 'Updating the data folder to this version' })).toBeVisible();
  await expect(page.getByRole('status')).toHaveText('Moving the rows and their plans: 34% (60 of 175 rows and answers)');
  await expect(page.getByRole('progressbar', { name: 'Data folder update' })).toHaveAttribute('aria-valuenow', '34');
  await screenshot(page, 'older-folder-updating');

  // The lock let go: the move goes on to the end, and the app opens on the folder.
  lock!.exec('COMMIT');
  lock!.close();
  lock = null;
  await openApp(page, host, '#/projects');
  await expect(page.getByRole('heading', { level: 1, name: 'Projects' })).toBeVisible();
  expect((await host.value('projects.list', {})).map((p) => p.name).sort()).toEqual(['first', 'second']);
  await screenshot(page, 'older-folder-updated');
});
