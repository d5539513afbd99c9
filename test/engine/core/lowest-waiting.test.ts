import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LowestWaiting } from '../../../electron/engine/runs/lowest-waiting';

interface Query {
  key: number;
  low: number;
}

describe("the lowest row waiting on a run's asked queries", () => {
  it('is the lowest row of the queries still asked, as queries are asked, joined by lower rows and answered', () => {
    const step = fc.oneof(
      fc.record({ ask: fc.integer({ min: 0, max: 1000 }) }),
      fc.record({ join: fc.nat(), row: fc.integer({ min: 0, max: 1000 }) }),
      fc.record({ answer: fc.nat() }),
      fc.constant({ clear: true }),
    );
    fc.assert(
      fc.property(fc.array(step, { maxLength: 200 }), (steps) => {
        const asked = new Map<number, Query>();
        const lows = new LowestWaiting<Query>((q) => asked.get(q.key) === q);
        let nextKey = 0;
        for (const s of steps) {
          const keys = [...asked.keys()];
          if ('ask' in s) {
            const q = { key: nextKey++, low: s.ask };
            asked.set(q.key, q);
            lows.push(q);
          } else if ('join' in s && keys.length > 0) {
            const q = asked.get(keys[s.join % keys.length]!)!;
            if (s.row < q.low) {
              q.low = s.row;
              lows.push(q);
            }
          } else if ('answer' in s && keys.length > 0) {
            asked.delete(keys[s.answer % keys.length]!);
          } else if ('clear' in s) {
            asked.clear();
            lows.clear();
          }
          const expected = Math.min(Number.POSITIVE_INFINITY, ...[...asked.values()].map((q) => q.low));
          expect(lows.lowest()).toBe(expected);
        }
      }),
    );
  });
});
