import { rename, rm } from 'node:fs/promises';
import { writeFailed } from './export-error';
import type { UnfinishedExports } from './unfinished-exports';

/**
 * Writes through `<path>.part` and renames it over `path` only once the write finished, so a failed or
 * interrupted export never leaves a half file where the user expects a whole one. With `together`, the rename
 * waits for the other files of the same export (see PartFiles). With `unfinished`, the part file is recorded
 * before it is made, so that one a kill cut off is removed at the next start, and is owner-only in the data folder.
 */
export async function writeViaPartFile<T>(path: string, write: (partPath: string) => Promise<T>, together?: PartFiles, unfinished?: UnfinishedExports): Promise<T> {
  if (together) return together.write(path, write);
  const partPath = `${path}.part`;
  const finished = await begin(path, partPath, unfinished);
  try {
    const result = await write(partPath);
    await rename(partPath, path);
    return result;
  } catch (err) {
    await rm(partPath, { force: true }).catch(() => undefined);
    throw err;
  } finally {
    await finished().catch(() => undefined);
  }
}

/**
 * Files that appear together or not at all (the matches and their candidates): each is written through its own
 * part file beside its target, and none replaces its target until every one of them is whole. A script reading
 * the matches never finds them new beside old candidates, or replaced by an export that then failed.
 */
export class PartFiles {
  private readonly parts = new Map<string, { path: string; finished: () => Promise<void> }>();
  private readonly scratches = new Map<string, () => Promise<void>>();

  constructor(private readonly unfinished?: UnfinishedExports) {}

  async write<T>(path: string, write: (partPath: string) => Promise<T>): Promise<T> {
    const partPath = `${path}.part`;
    this.parts.set(partPath, { path, finished: await begin(path, partPath, this.unfinished) });
    return write(partPath);
  }

  /**
   * Records `partPath` (made empty), a file of the export's own beside its targets that none of them becomes (the lines
   * another thread writes, whose bytes a target's part file takes): removed once the files are renamed or discarded.
   */
  async scratch(partPath: string): Promise<void> {
    this.scratches.set(partPath, await begin(partPath, partPath, this.unfinished));
  }

  /** Renames every part file over its target. */
  async commit(): Promise<void> {
    await this.removeScratches();
    for (const [partPath, { path, finished }] of this.parts) {
      try {
        await rename(partPath, path);
      } catch (err) {
        throw writeFailed(path, err);
      } finally {
        this.parts.delete(partPath);
        await finished().catch(() => undefined);
      }
    }
  }

  /** Removes the part files not renamed yet: the targets stay as they were. */
  async discard(): Promise<void> {
    await this.removeScratches();
    await Promise.all(
      [...this.parts].map(async ([partPath, { finished }]) => {
        await rm(partPath, { force: true }).catch(() => undefined);
        await finished().catch(() => undefined);
      }),
    );
    this.parts.clear();
  }

  private async removeScratches(): Promise<void> {
    for (const [partPath, finished] of this.scratches) {
      this.scratches.delete(partPath);
      await rm(partPath, { force: true }).catch(() => undefined);
      await finished().catch(() => undefined);
    }
  }
}

/** Records and makes the part file when there is a record to keep; what to call once it is renamed or removed. */
async function begin(path: string, partPath: string, unfinished: UnfinishedExports | undefined): Promise<() => Promise<void>> {
  if (!unfinished) return async () => undefined;
  try {
    return await unfinished.begin(partPath);
  } catch (err) {
    throw writeFailed(path, err);
  }
}
