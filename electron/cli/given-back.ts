import { statSync } from 'node:fs';
import { formatBytes } from '../../shared/sizes';

/** The data file's size on disk (without its WAL), or null when it cannot be read. */
export function dataFileBytes(dbPath: string): number | null {
  return statSync(dbPath, { throwIfNoEntry: false })?.size ?? null;
}

/**
 * What deleting a project or clearing the cache says about the disk, once the engine has given the freed pages back
 * (projects/project-cleanup.ts): only when the data file got shorter by a megabyte or more. A data file made by an
 * older Matchdesk keeps its free pages for new projects, and nothing is said.
 */
export function givenBackLine(before: number | null, after: number | null): string | null {
  if (before === null || after === null || before - after < 1024 * 1024) return null;
  return `The data file gave ${formatBytes(before - after)} back to the disk (now ${formatBytes(after)}).`;
}
