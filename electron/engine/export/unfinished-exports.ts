import { randomBytes } from 'node:crypto';
import { chmod, mkdir, open, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { z } from 'zod';

/** Part files this process is writing now, whichever engine began them: a second engine's start leaves them be. */
const writingHere = new Set<string>();

const record = z.object({ pid: z.number().int().positive(), part: z.string().refine(isAbsolute) });
type PartRecord = z.infer<typeof record>;

/**
 * The part files being written (part-file.ts), each recorded in the data folder before its first byte and forgotten
 * once renamed or removed. A kill part-way (SIGKILL, a power cut) runs no cleanup: the next engine start removes the
 * part file it left beside its target, unless the process that began it is still running (the desktop app, the
 * browser host and the CLI may share the folder).
 */
export class UnfinishedExports {
  private readonly dir: string;

  constructor(readonly dataDir: string) {
    this.dir = join(dataDir, 'unfinished-exports');
  }

  /**
   * Records `partPath` and creates it empty: owner-only inside the data folder (the browser host's exports), else as
   * the user's umask makes it, like any file they save. Returns what to call once it is renamed or removed.
   */
  async begin(partPath: string): Promise<() => Promise<void>> {
    const part = resolve(partPath);
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    const entry = join(this.dir, `${process.pid}-${randomBytes(6).toString('hex')}.json`);
    await writeFile(entry, JSON.stringify({ pid: process.pid, part } satisfies PartRecord), { mode: 0o600 });
    writingHere.add(part);
    const finished = async () => {
      writingHere.delete(part);
      await rm(entry, { force: true });
    };
    const inside = this.holds(part);
    try {
      const file = await open(part, 'w', inside ? 0o600 : 0o666);
      try {
        // A part file an earlier export left keeps its mode through open: set it.
        if (inside) await chmod(part, 0o600);
      } finally {
        await file.close();
      }
    } catch (error) {
      await finished();
      throw error;
    }
    return finished;
  }

  /** Removes the part files that exports cut off by a kill left behind, and their records; returns how many. */
  async removeLeftovers(): Promise<number> {
    const names = await readdir(this.dir).catch(() => [] as string[]);
    let removed = 0;
    for (const name of names) {
      const path = join(this.dir, name);
      const left = parseRecord(await readFile(path, 'utf8').catch(() => ''));
      if (left && (writingHere.has(left.part) || (left.pid !== process.pid && isRunning(left.pid)))) continue;
      // Only ever a part file: a record that names anything else removes nothing but itself.
      if (left?.part.endsWith('.part') && (await stat(left.part).catch(() => null))?.isFile()) {
        await rm(left.part, { force: true });
        removed++;
      }
      await rm(path, { force: true });
    }
    return removed;
  }

  private holds(file: string): boolean {
    const rel = relative(resolve(this.dataDir), file);
    return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel);
  }
}

function parseRecord(text: string): PartRecord | null {
  try {
    return record.safeParse(JSON.parse(text)).data ?? null;
  } catch {
    return null;
  }
}

/** Signal 0 only asks whether the process exists; EPERM means it does, as another user's. */
function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
