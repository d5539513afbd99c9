import { rename, rm } from 'node:fs/promises';
import { writeFailed } from './export-error';

/**
 * Writes through `<path>.part` and renames it over `path` only once the write finished, so a failed or
 * interrupted export never leaves a half file where the user expects a whole one. With `together`, the rename
 * waits for the other files of the same export (see PartFiles).
 */
export async function writeViaPartFile<T>(path: string, write: (partPath: string) => Promise<T>, together?: PartFiles): Promise<T> {
  if (together) return together.write(path, write);
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

/**
 * Files that appear together or not at all (the matches and their candidates): each is written through its own
 * part file beside its target, and none replaces its target until every one of them is whole. A script reading
 * the matches never finds them new beside old candidates, or replaced by an export that then failed.
 */
export class PartFiles {
  private readonly parts = new Map<string, string>();

  async write<T>(path: string, write: (partPath: string) => Promise<T>): Promise<T> {
    const partPath = `${path}.part`;
    this.parts.set(partPath, path);
    return write(partPath);
  }

  /** Renames every part file over its target. */
  async commit(): Promise<void> {
    for (const [partPath, path] of this.parts) {
      try {
        await rename(partPath, path);
      } catch (err) {
        throw writeFailed(path, err);
      } finally {
        this.parts.delete(partPath);
      }
    }
  }

  /** Removes the part files not renamed yet: the targets stay as they were. */
  async discard(): Promise<void> {
    await Promise.all([...this.parts.keys()].map((partPath) => rm(partPath, { force: true }).catch(() => undefined)));
    this.parts.clear();
  }
}
