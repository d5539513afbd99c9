import fs from 'node:fs';
import path from 'node:path';

const posix = process.platform !== 'win32';
/** Bits that let anyone but the owner in. */
const OTHERS = 0o077;

/**
 * What Matchdesk writes in its data folder: the database and its sidecars (engine.ts DATABASE_FILE), the window's
 * state (main/window-state.ts), and folders it alone fills (exports and uploads of the browser host, part files'
 * records). Anything else there (Electron's own files, or the user's when MATCHDESK_HOME names a folder of theirs)
 * keeps its mode.
 */
const FILES = ['matchdesk.sqlite', 'matchdesk.sqlite-wal', 'matchdesk.sqlite-shm', 'matchdesk.sqlite-journal', 'window-state.json', 'window-state.json.tmp'];
const FOLDERS = ['exports', 'uploads', 'unfinished-exports'];

/**
 * Makes the data folder owner-only (0700) and what Matchdesk keeps in it too: folders 0700, files 0600. It holds who
 * the user looked up, and a folder made by an earlier version (or by hand) may be open to every user of the machine.
 * Creates it (and missing parents, owner-only) when it is not there; folders above it that exist are the user's and
 * keep their modes. Symbolic links are not followed. Returns the notice to show once when something was open to
 * others, else null.
 */
export function makeDataFolderPrivate(dir: string): string | null {
  if (createPrivateFolders(path.resolve(dir)) || !posix) return null;
  const folderWasOpen = tighten(dir, 0o700);
  let items = 0;
  const walk = (folder: string): void => {
    for (const entry of fs.readdirSync(folder, { withFileTypes: true })) {
      const inner = path.join(folder, entry.name);
      if (entry.isDirectory()) {
        if (tighten(inner, 0o700)) items++;
        walk(inner);
      } else if (entry.isFile() && tighten(inner, 0o600)) {
        items++;
      }
    }
  };
  for (const name of FILES) if (tighten(path.join(dir, name), 0o600)) items++;
  for (const name of FOLDERS) {
    const folder = path.join(dir, name);
    if (!fs.lstatSync(folder, { throwIfNoEntry: false })?.isDirectory()) continue;
    if (tighten(folder, 0o700)) items++;
    walk(folder);
  }
  if (!folderWasOpen && items === 0) return null;
  const count = `${items} ${items === 1 ? 'item' : 'items'}`;
  const what = folderWasOpen
    ? `its data folder ${dir} private (it was readable by other users${items ? `, as ${items === 1 ? 'was' : 'were'} ${count} in it` : ''})`
    : `${count} in its data folder ${dir} private (${items === 1 ? 'it was' : 'they were'} readable by other users)`;
  return `Matchdesk made ${what}.`;
}

/** Creates the missing folders of `dir` owner-only; true when `dir` itself was missing. */
export function createPrivateFolders(dir: string): boolean {
  const missing: string[] = [];
  for (let d = dir; !fs.existsSync(d); d = path.dirname(d)) {
    missing.unshift(d);
    if (path.dirname(d) === d) break;
  }
  for (const d of missing) {
    fs.mkdirSync(d, { mode: 0o700 });
    // mkdir's mode is filtered by the umask; set it outright.
    if (posix) fs.chmodSync(d, 0o700);
  }
  return missing.length > 0;
}

/** Sets `mode` on `file` when others had any access to it; true when they had. */
function tighten(file: string, mode: number): boolean {
  const info = fs.lstatSync(file, { throwIfNoEntry: false });
  if (!info || !(info.isFile() || info.isDirectory()) || (info.mode & OTHERS) === 0) return false;
  try {
    fs.chmodSync(file, mode);
    return true;
  } catch (error) {
    // Another user's file in the folder is not ours to change; what is ours still is.
    if ((error as NodeJS.ErrnoException).code === 'EPERM') return false;
    throw error;
  }
}
