import { openSheet } from '../engine/sheets';

/**
 * The header row a sheet would be imported with, read without importing it, so a `--map` naming a column the
 * sheet does not have stops the command before any project exists.
 */
export async function sheetHeaders(path: string, sheet: string | undefined): Promise<string[]> {
  const opened = await openSheet(path, sheet === undefined ? {} : { sheet });
  try {
    return opened.headers;
  } finally {
    await opened.close();
  }
}
