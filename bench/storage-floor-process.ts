import { z } from 'zod';
import { runBenchScript } from './child-process';

/** One layout's figures, as `storage-floor.ts --json` prints them. */
const FLOOR_LINE = z.object({
  layout: z.string(),
  /** Whether each settled row's verdict was worked out too (storage-floor.ts --verdicts). */
  verdicts: z.boolean(),
  /** Whether new people's JSON went into zstd blocks, as the engine's records do (storage-floor.ts --blocks). */
  blocks: z.boolean(),
  /** Whether the rows were settled as the run settles them, in row order (storage-floor.ts --in-row-order). */
  inRowOrder: z.boolean(),
  calls: z.number(),
  cpuMsPerCall: z.number(),
  /** Bytes handed to write() (`wchar`); null where /proc/self/io is not there (not Linux). */
  writtenBytes: z.number().nullable(),
  replyBytes: z.number(),
  fileBytes: z.number(),
});
export type FloorResult = z.infer<typeof FLOOR_LINE>;

/**
 * The floor of a first run's storage on this machine (storage-floor.ts, the layout the app stores: each person once,
 * their digests in memory, a call's new people compressed in a block): the project's stored answers replayed as their
 * calls into a file of its own, in a process of its own while the engine is idle, so its CPU a call is its own. With
 * `inRowOrder`, the rows are settled as the run settles them, each with its verdict: walked in row order, a repeat
 * from its stored answer read back, written in row order; the whole of a first run's essential work within its memory.
 */
export async function measureStorageFloor(dbPath: string, projectId: number, { inRowOrder }: { inRowOrder: boolean }): Promise<FloorResult> {
  const args = ['--db', dbPath, '--project', String(projectId), '--layout', 'new-unindexed', '--blocks', '--json', ...(inRowOrder ? ['--in-row-order'] : [])];
  const out = await runBenchScript('./storage-floor.ts', args, inRowOrder ? 'The first run floor' : 'The storage floor');
  return FLOOR_LINE.parse(JSON.parse(out.trim().split('\n').pop() ?? ''));
}
