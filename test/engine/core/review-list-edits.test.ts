import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { withRowAt, withoutRowAt } from '../../../electron/engine/review/row-list-edits';
import { lowerBound } from '../../../electron/engine/lower-bound';

describe('a kept list changed by decisions', () => {
  it('holds the same rows as a list made again, whatever rows go and come back, in the memory it had while there is room', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.integer({ min: 0, max: 300 }), { maxLength: 60 }), fc.array(fc.integer({ min: 0, max: 300 }), { maxLength: 80 }), (start, toggles) => {
        const expected = new Set(start);
        let rows: Uint32Array = Uint32Array.from([...expected].sort((a, b) => a - b));
        for (const rowIndex of toggles) {
          const buffer = rows.buffer;
          const at = lowerBound(rows, rowIndex);
          if (rows[at] === rowIndex) {
            rows = withoutRowAt(rows, at);
            expected.delete(rowIndex);
            expect(rows.buffer).toBe(buffer);
          } else {
            const roomy = rows.byteOffset + (rows.length + 1) * 4 <= buffer.byteLength;
            rows = withRowAt(rows, at, rowIndex);
            expected.add(rowIndex);
            expect(rows.buffer === buffer).toBe(roomy);
          }
          expect(Array.from(rows)).toEqual([...expected].sort((a, b) => a - b));
        }
      }),
    );
  });

  it('leaves room behind a list copied to take a row, so the next rows go in place', () => {
    const first = withRowAt(Uint32Array.of(1, 5, 9), 1, 3);
    expect(Array.from(first)).toEqual([1, 3, 5, 9]);
    const second = withRowAt(first, 4, 12);
    expect(second.buffer).toBe(first.buffer);
    expect(Array.from(second)).toEqual([1, 3, 5, 9, 12]);
  });
});
