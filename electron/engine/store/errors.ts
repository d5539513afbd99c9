/** The file's schema version is newer than any migration this build knows: opening it could lose data. */
export class DatabaseTooNew extends Error {
  override readonly name = 'DatabaseTooNew';

  constructor(
    readonly path: string,
    readonly fileVersion: number,
    readonly supportedVersion: number,
  ) {
    super(
      `The data file "${path}" was written by a newer Matchdesk (database version ${fileVersion}; ` +
        `this Matchdesk understands up to version ${supportedVersion}). ` +
        'Update Matchdesk to open it, or choose another data file. The file was left untouched.',
    );
  }
}

/** The file is not a SQLite database, is damaged, or cannot be opened at all. */
export class DatabaseUnreadable extends Error {
  override readonly name = 'DatabaseUnreadable';

  constructor(
    readonly path: string,
    readonly reason: 'not_a_database' | 'cannot_open',
    options?: { cause?: unknown },
  ) {
    super(
      reason === 'not_a_database'
        ? `The data file "${path}" is not a Matchdesk database or is damaged (${describe(options?.cause)}). ` +
            'Move it aside or restore it from a backup; Matchdesk will create a new one at that place.'
        : `The data file "${path}" could not be opened (${describe(options?.cause)}). ` +
            'Check that the folder exists and that you may read and write it.',
      options,
    );
  }
}

/** A read-only open found a file that still needs migrations, which only a writable open may run. */
export class DatabaseNeedsUpgrade extends Error {
  override readonly name = 'DatabaseNeedsUpgrade';

  constructor(
    readonly path: string,
    readonly fileVersion: number,
    readonly supportedVersion: number,
  ) {
    super(
      `The data file "${path}" is at database version ${fileVersion} and needs upgrading to version ` +
        `${supportedVersion}, which a read-only open cannot do. Open it once normally, then try again.`,
    );
  }
}

/** A migration threw; the transaction was rolled back, so the file is exactly as it was before. */
export class MigrationFailed extends Error {
  override readonly name = 'MigrationFailed';

  constructor(
    readonly path: string,
    readonly version: number,
    readonly migrationName: string,
    options: { cause: unknown },
  ) {
    super(
      `Upgrading the data file "${path}" failed at step ${version} (${migrationName}): ${describe(options.cause)}. ` +
        'Nothing of that step was kept; the file is still usable by the previous Matchdesk version.',
      options,
    );
  }
}

/**
 * Updating the file was stopped between two slices of a long move (the app closing): every slice done is kept in the
 * file, and the next start goes on from there. Until then the file is at the older version.
 */
export class MigrationStopped extends Error {
  override readonly name = 'MigrationStopped';

  constructor(
    readonly path: string,
    readonly version: number,
  ) {
    super(`Updating the data file "${path}" was stopped at database version ${version}; the next start goes on where it stopped.`);
  }
}

/** A settings value that could not be read back, refused before it reaches the file. */
export class InvalidSetting extends Error {
  override readonly name = 'InvalidSetting';

  constructor(readonly key: string, detail: string) {
    super(`The setting "${key}" was not saved: ${detail}.`);
  }
}

function describe(cause: unknown): string {
  return cause instanceof Error ? cause.message : String(cause);
}

/** SQLite refused a write because the disk holding the data file is full (it maps ENOSPC to SQLITE_FULL). */
export function isDiskFull(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === 'SQLITE_FULL';
}

/**
 * Why long work (a run, a refresh) stopped, in words the user can act on: a full disk says so and what to do first;
 * any other failure says what it said. The window adds that what the work stored is kept (each write is a transaction).
 */
export function stopReason(error: unknown): string {
  if (isDiskFull(error)) return "the disk holding Matchdesk's data is full; free some space on it first";
  return error instanceof Error ? error.message : String(error);
}
