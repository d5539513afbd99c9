import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DigestMap } from '../../../electron/engine/store/digest-map';

describe('DigestMap', () => {
  it('holds what a Map holds, across growth, digests alike in their low bits, and a clear', () => {
    const digest = fc.oneof(fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }), fc.integer({ min: 0, max: 40 }).map((n) => (BigInt(n) << 32n) | 7n));
    fc.assert(
      fc.property(fc.array(fc.tuple(digest, fc.integer({ min: 1, max: 2 ** 31 - 1 })), { maxLength: 3000 }), fc.integer({ min: 0, max: 3000 }), (pairs, clearAt) => {
        const map = new DigestMap(4);
        let model = new Map<bigint, number>();
        pairs.forEach(([d, id], i) => {
          if (i === clearAt) {
            map.clear();
            model = new Map();
          }
          map.set(d, id);
          model.set(d, id);
        });
        expect(map.size).toBe(model.size);
        for (const [d, id] of model) expect(map.get(d)).toBe(id);
        for (const [d] of pairs) if (!model.has(d)) expect(map.get(d)).toBeUndefined();
        expect(map.get(123456789n * 3n + 1n)).toBe(model.get(123456789n * 3n + 1n));
      }),
      { numRuns: 60 },
    );
  });

  it('fills its slots up to three quarters before it doubles them', () => {
    const map = new DigestMap(1024);
    // Digests spread like hashes; the ids are the insertion order.
    const digest = (i: number) => BigInt.asIntN(64, BigInt(i + 1) * 0x9e3779b97f4a7c15n);
    for (let i = 0; i < 768; i++) map.set(digest(i), i + 1);
    expect(map.slots).toBe(1024);
    map.set(digest(768), 769);
    expect(map.slots).toBe(2048);
    expect(map.size).toBe(769);
    for (let i = 0; i <= 768; i++) expect(map.get(digest(i))).toBe(i + 1);
  });
});
