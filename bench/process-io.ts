// What a process wrote, from Linux's /proc/PID/io, and what a folder holds on the disk: the bench holds a first run's
// writes against the replies' bytes (issue 41). Elsewhere than Linux the counters read as null.
import { readFileSync } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';

/** Bytes, since the process started. */
export interface ProcessIo {
  /** Sent towards the disk: each page counted when the process dirties it in the page cache. */
  writeBytes: number;
  /** Handed to write() and its kin, sockets and pipes included. */
  wchar: number;
  /** Dirtied, then dropped before they reached the disk (a file truncated or deleted). */
  cancelledWriteBytes: number;
}

export function readProcessIo(pid: number | 'self' = 'self'): ProcessIo | null {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/io`, 'utf8');
  } catch {
    return null;
  }
  const field = (name: string) => Number(new RegExp(`^${name}: (\\d+)$`, 'm').exec(text)?.[1] ?? Number.NaN);
  const io = { writeBytes: field('write_bytes'), wchar: field('wchar'), cancelledWriteBytes: field('cancelled_write_bytes') };
  return Object.values(io).every(Number.isFinite) ? io : null;
}

/** `after` - `before`, or null when either is unknown. */
export function ioSince(before: ProcessIo | null, after: ProcessIo | null): ProcessIo | null {
  if (!before || !after) return null;
  return { writeBytes: after.writeBytes - before.writeBytes, wchar: after.wchar - before.wchar, cancelledWriteBytes: after.cancelledWriteBytes - before.cancelledWriteBytes };
}

/** A folder's files, all levels down. */
export interface FolderSize {
  /** Bytes, the files' sizes summed. */
  bytes: number;
  /** Bytes of the disk's blocks they take, as `du` counts them. */
  allocatedBytes: number;
  /** Bytes of SQLite's write-ahead logs among them (`*-wal`). */
  walBytes: number;
}

export async function folderSize(dir: string): Promise<FolderSize> {
  const size: FolderSize = { bytes: 0, allocatedBytes: 0, walBytes: 0 };
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    // A file gone between the listing and its stat (a WAL the last connection removed) holds nothing.
    const s = await stat(join(entry.parentPath, entry.name)).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return null;
      throw error;
    });
    if (!s) continue;
    size.bytes += s.size;
    size.allocatedBytes += s.blocks * 512;
    if (entry.name.endsWith('-wal')) size.walBytes += s.size;
  }
  return size;
}
