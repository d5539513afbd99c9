import { rename, rm } from 'node:fs/promises';

/**
 * Writes through `<path>.part` and renames it over `path` only once the write finished, so a failed or
 * interrupted export never leaves a half file where the user expects a whole one.
 */
export async function writeViaPartFile<T>(path: string, write: (partPath: string) => Promise<T>): Promise<T> {
  const partPath = `${path}.part`;
  try {
    const result = await write(partPath);
    await rename(partPath, path);
    return result;
  } catch (err) {
    await rm(partPath, { force: true }).catch(() => undefined);
    throw err;
  }
}
