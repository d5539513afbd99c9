import { z } from 'zod';
import { spawnBenchScript } from './child-process';
import type { FloorResult } from './storage-floor';

const FLOOR_LINE = z.object({
  layout: z.string(),
  calls: z.number(),
  cpuMsPerCall: z.number(),
  writtenBytes: z.number().nullable(),
  replyBytes: z.number(),
  fileBytes: z.number(),
}) satisfies z.ZodType<FloorResult>;

/**
 * The floor of a first run's storage on this machine (storage-floor.ts, the layout the app stores: each person once,
 * their digests in memory): the project's stored answers replayed as their calls into a file of its own, in a process
 * of its own while the engine is idle, so its CPU a call is its own.
 */
export async function measureStorageFloor(dbPath: string, projectId: number): Promise<FloorResult> {
  const child = spawnBenchScript('./storage-floor.ts', ['--db', dbPath, '--project', String(projectId), '--layout', 'new-unindexed', '--json'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let errors = '';
  child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (errors += chunk.toString()));
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (c) => resolve(c));
  });
  if (code !== 0) throw new Error(`The storage floor failed (exit ${code}): ${errors.trim()}`);
  return FLOOR_LINE.parse(JSON.parse(out.trim().split('\n').pop() ?? ''));
}
