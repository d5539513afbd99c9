// A kept list's rows changed in place by a decision. A list of a large project is megabytes (a state holding 800,000
// rows: 3.2 MB); copied at each decision, a reviewer's every key allocated and dropped that much.

/** Room left behind the rows when a list has to be copied to take one more, so the next rows added go in place. */
const SPARE_ROWS = 1024;

/**
 * `rows` without the row at `at`, in the same memory: the rows after it moved down one, the freed place kept as room
 * behind the view. The caller gives up `rows` (the kept list is replaced by what this returns).
 */
export function withoutRowAt(rows: Uint32Array, at: number): Uint32Array {
  rows.copyWithin(at, at + 1);
  return rows.subarray(0, rows.length - 1);
}

/** `rows` with `rowIndex` at `at`, in the same memory when its buffer has room behind the view, else in a new one. */
export function withRowAt(rows: Uint32Array, at: number, rowIndex: number): Uint32Array {
  const roomy = rows.byteOffset + (rows.length + 1) * rows.BYTES_PER_ELEMENT <= rows.buffer.byteLength;
  const out = roomy ? new Uint32Array(rows.buffer, rows.byteOffset, rows.length + 1) : new Uint32Array(rows.length + 1 + SPARE_ROWS).subarray(0, rows.length + 1);
  if (roomy) out.copyWithin(at + 1, at, rows.length);
  else {
    out.set(rows.subarray(0, at));
    out.set(rows.subarray(at), at + 1);
  }
  out[at] = rowIndex;
  return out;
}
