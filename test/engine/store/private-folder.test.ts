// The data folder holds who the user looked up: owner-only from every host, and tightened (with a notice) when an
// earlier version or a hand left it open to the machine's other users.
import { chmodSync, lstatSync, mkdirSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DATABASE_FILE } from '../../../electron/engine/engine';
import { makeDataFolderPrivate } from '../../../electron/engine/store';
import { skipBecause } from '../../support/skips';
import { openEngine } from '../core/helpers';
import { tempFolder } from './temp-folder';

const posixSkipped = skipBecause('the owner-only file permission tests', process.platform === 'win32' ? 'Windows has no POSIX file modes' : null);
const mode = (p: string) => statSync(p).mode & 0o777;

/** A data folder as an earlier version left it: every folder 755, every file 644, beside files that are not Matchdesk's. */
function openFolder(): { root: string; dir: string; outside: string } {
  const root = tempFolder();
  const dir = join(root, 'Matchdesk');
  mkdirSync(join(dir, 'exports'), { recursive: true });
  mkdirSync(join(dir, 'uploads', 'abc'), { recursive: true });
  mkdirSync(join(dir, 'Cache'));
  const outside = join(root, 'elsewhere.csv');
  for (const file of [DATABASE_FILE, 'window-state.json', join('exports', 'people-matches.csv'), join('uploads', 'abc', 'people.csv'), join('Cache', 'data_0'), 'notes.txt', outside]) {
    writeFileSync(resolve(dir, file), 'x');
    chmodSync(resolve(dir, file), 0o644);
  }
  symlinkSync(outside, join(dir, 'exports', 'link.csv'));
  for (const folder of [dir, join(dir, 'exports'), join(dir, 'uploads'), join(dir, 'uploads', 'abc'), join(dir, 'Cache')]) chmodSync(folder, 0o755);
  return { root, dir, outside };
}

describe.skipIf(posixSkipped)('the data folder', () => {
  it('is made owner-only when missing, with its missing parents, and nothing is said', () => {
    const root = tempFolder();
    chmodSync(root, 0o755);
    const dir = join(root, 'config', 'Matchdesk');
    expect(makeDataFolderPrivate(dir)).toBeNull();
    expect(mode(dir)).toBe(0o700);
    expect(mode(join(root, 'config'))).toBe(0o700);
    expect(mode(root)).toBe(0o755);
  });

  it('is tightened when open to others, with what Matchdesk keeps in it, and says so once', () => {
    const { dir, outside } = openFolder();
    const notice = makeDataFolderPrivate(dir);
    expect(notice).toBe(`Matchdesk made its data folder ${dir} private (it was readable by other users, as were 7 items in it).`);
    expect(mode(dir)).toBe(0o700);
    for (const folder of ['exports', 'uploads', join('uploads', 'abc')]) expect(mode(join(dir, folder))).toBe(0o700);
    for (const file of [DATABASE_FILE, 'window-state.json', join('exports', 'people-matches.csv'), join('uploads', 'abc', 'people.csv')]) expect(mode(join(dir, file))).toBe(0o600);
    // Electron's own files and the user's keep their modes; a link is not followed out of the folder.
    expect(mode(join(dir, 'Cache'))).toBe(0o755);
    expect(mode(join(dir, 'Cache', 'data_0'))).toBe(0o644);
    expect(mode(join(dir, 'notes.txt'))).toBe(0o644);
    expect(mode(outside)).toBe(0o644);
    expect(lstatSync(join(dir, 'exports', 'link.csv')).isSymbolicLink()).toBe(true);
    expect(makeDataFolderPrivate(dir)).toBeNull();
  });

  it('names what it tightened when only files inside were open', () => {
    const { dir } = openFolder();
    chmodSync(dir, 0o700);
    expect(makeDataFolderPrivate(dir)).toBe(`Matchdesk made 7 items in its data folder ${dir} private (they were readable by other users).`);
  });

  it('is tightened by an engine start, which tells its host once', async () => {
    const dir = join(tempFolder(), 'Matchdesk');
    await (await openEngine(dir)).close();
    chmodSync(dir, 0o755);
    chmodSync(join(dir, DATABASE_FILE), 0o644);
    const loosened = await openEngine(dir);
    await loosened.close();
    expect(loosened.privacyNotice).toBe(`Matchdesk made its data folder ${dir} private (it was readable by other users, as was 1 item in it).`);
    expect(mode(dir)).toBe(0o700);
    expect(mode(join(dir, DATABASE_FILE))).toBe(0o600);
    const again = await openEngine(dir);
    await again.close();
    expect(again.privacyNotice).toBeNull();
  });
});
