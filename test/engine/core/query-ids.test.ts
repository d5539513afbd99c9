import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { QueryIds } from '../../../electron/engine/runs/query-ids';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

describe('query ids', () => {
  it('give each distinct key the next id, in the order they are met, and the same id again after', () => {
    // Keys as planning makes them (64 lowercase hex digits) and any other text, mixed; enough to grow the tables.
    const keyArb = fc.oneof(fc.string({ unit: 'binary', maxLength: 20 }), fc.string({ maxLength: 8 }).map(sha256));
    fc.assert(
      fc.property(fc.array(keyArb, { maxLength: 3000 }), (keys) => {
        const ids = new QueryIds();
        const model = new Map<string, number>();
        for (const key of keys) {
          // A key and its own digest are one query: the digest is what is kept.
          const digest = /^[0-9a-f]{64}$/.test(key) ? key : sha256(key);
          if (!model.has(digest)) model.set(digest, model.size);
          expect(ids.idOf(key)).toBe(model.get(digest));
        }
        expect(ids.size).toBe(model.size);
        expect(ids.nextId).toBe(model.size);
        for (const [digest, id] of model) expect(ids.get(digest)).toBe(id);
      }),
      { numRuns: 30 },
    );
  });

  it('read a key that only looks like a digest (upper case, one digit short or long, one stray letter) as text', () => {
    const key = sha256('Jane Doe');
    const ids = new QueryIds();
    expect(ids.idOf(key)).toBe(0);
    for (const lookalike of [key.toUpperCase(), key.slice(1), `${key}0`, `g${key.slice(1)}`, `${key.slice(0, 63)}/`, `${key.slice(0, 10)}\`${key.slice(11)}`, `${key.slice(0, 32)}:${key.slice(33)}`]) {
      expect(ids.get(lookalike)).toBeUndefined();
      expect(ids.idOf(lookalike)).toBe(ids.get(sha256(lookalike)));
    }
    expect(ids.size).toBe(8);
  });

  it('keep ids recorded from a plan on file, and give a new key the id after the largest', () => {
    const ids = new QueryIds();
    ids.set(sha256('a'), 5);
    ids.set(sha256('b'), 2);
    ids.set(sha256('a'), 9);
    expect(ids.get(sha256('a'))).toBe(5);
    expect(ids.get(sha256('never'))).toBeUndefined();
    expect(ids.idOf('c')).toBe(6);
    expect(ids.idOf(sha256('b'))).toBe(2);
  });
});
