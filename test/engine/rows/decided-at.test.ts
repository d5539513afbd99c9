import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decidedAtOf, storedDecidedAt } from '../../../electron/engine/rows/row-status';

describe('when a decision was taken, as row_status stores it', () => {
  it('reads back the very time, stored as nothing when it is when its answer was fetched', () => {
    const ms = fc.integer({ min: 0, max: 4_102_444_800_000 });
    fc.assert(
      fc.property(ms, fc.oneof(ms.map((t) => new Date(t).toISOString()), fc.constant(null)), fc.oneof(ms, fc.constant(null)), (fetchedAt, at, otherFetch) => {
        for (const fetched of [fetchedAt, otherFetch]) expect(decidedAtOf(storedDecidedAt(at, fetched), fetched)).toBe(at);
        expect(storedDecidedAt(new Date(fetchedAt).toISOString(), fetchedAt)).toBe('');
      }),
      { numRuns: 2000 },
    );
  });
});
