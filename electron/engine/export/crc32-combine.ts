// zlib's crc32_combine, which Node's zlib does not expose: the CRC-32 of two byte runs one after the other from the
// CRC of each and the second's length, without their bytes. An export's sheet written in two halves, each on its own
// thread, is one zip entry, whose CRC covers both.

const GF2_DIM = 32;
/** The CRC-32 polynomial (reflected), as zlib's tables use it. */
const POLYNOMIAL = 0xedb8_8320;

/** The 32x32 bit matrix `mat` (a column a number) times the vector `vec`, over GF(2). */
function times(mat: Uint32Array, vec: number): number {
  let sum = 0;
  for (let v = vec >>> 0, i = 0; v !== 0; v >>>= 1, i++) if (v & 1) sum ^= mat[i]!;
  return sum >>> 0;
}

/** `square` = `mat` x `mat`. */
function squared(square: Uint32Array, mat: Uint32Array): void {
  for (let n = 0; n < GF2_DIM; n++) square[n] = times(mat, mat[n]!);
}

/**
 * The CRC-32 of A followed by B, given crc32(A), crc32(B) and B's length in bytes (any length up to 2^53): the
 * operator that runs zero bytes through the CRC, applied to crc32(A) once per byte of B by repeated squaring, as zlib.
 */
export function crc32Combine(crcA: number, crcB: number, lengthB: number): number {
  if (lengthB <= 0) return crcA >>> 0;
  const even = new Uint32Array(GF2_DIM);
  const odd = new Uint32Array(GF2_DIM);
  // The operator for one zero bit.
  odd[0] = POLYNOMIAL;
  for (let n = 1, row = 1; n < GF2_DIM; n++, row <<= 1) odd[n] = row;
  squared(even, odd); // two zero bits
  squared(odd, even); // four zero bits
  let crc = crcA >>> 0;
  // A zero byte first (eight bits), then each bit of the length: the operator squared at each step.
  let length = lengthB;
  for (;;) {
    squared(even, odd);
    if (length % 2 === 1) crc = times(even, crc);
    length = Math.floor(length / 2);
    if (length === 0) break;
    squared(odd, even);
    if (length % 2 === 1) crc = times(odd, crc);
    length = Math.floor(length / 2);
    if (length === 0) break;
  }
  return (crc ^ crcB) >>> 0;
}
