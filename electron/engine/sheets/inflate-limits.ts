/**
 * How far an xlsx's parts may inflate. The documented limits alone (1,048,575 rows x 1,000 columns x 1 MiB a cell)
 * would allow a petabyte, so each part gets a figure from what a legitimate workbook at the row limit holds:
 * - a worksheet: 4 GiB of XML, about 4 KiB a row at 1,048,576 rows (a cell's markup is ~40 bytes, so some 80
 *   short cells a row, or fewer longer ones). It is streamed, so this bounds time, not memory.
 * - the shared strings: 256 MiB of XML, since their table is held in memory while the sheet is read; about five
 *   text columns of distinct 25-character values at the row limit. A CSV of the same sheet has no such limit.
 * - any other part read (workbook, relationships, styles): 64 MiB; they are kilobytes in real workbooks.
 * - all the parts one read of a sheet inflates, together: 4 GiB.
 * Past the first 8 MiB a part must also stay under 200 times its stored size: XML sheets deflate 10-20 to 1, and
 * only a file made to exhaust memory (a ZIP bomb) goes past that, so it is refused before it costs much.
 */
export const INFLATE_CAPS = {
  worksheet: 4 * 1024 ** 3,
  sharedStrings: 256 * 1024 ** 2,
  other: 64 * 1024 ** 2,
  total: 4 * 1024 ** 3,
} as const;
export const MAX_INFLATE_RATIO = 200;
const RATIO_FROM = 8 * 1024 ** 2;

/** A part inflated past its cap, or past the ratio; `cap` is the figure passed. */
export class PartTooLarge extends Error {
  override readonly name = 'PartTooLarge';

  constructor(
    readonly part: string,
    readonly reason: 'cap' | 'total' | 'ratio',
    readonly cap: number,
  ) {
    super(reason === 'ratio' ? `${part} inflates to more than ${cap} times its stored size` : `${part} inflates to more than ${cap} bytes`);
  }
}

/** The inflated bytes one read of a sheet has used, across its parts. */
export class InflateBudget {
  private usedBytes = 0;

  constructor(private readonly total: number = INFLATE_CAPS.total) {}

  /** The bytes counted so far. */
  get used(): number {
    return this.usedBytes;
  }

  /** Counts `bytes` more of `part`; throws once the total is passed. */
  take(part: string, bytes: number): void {
    this.usedBytes += bytes;
    if (this.usedBytes > this.total) throw new PartTooLarge(part, 'total', this.total);
  }
}

export interface InflateLimit {
  /** Most bytes this part may inflate to. */
  cap: number;
  budget?: InflateBudget;
}

/** Throws when a part that has inflated to `inflated` bytes from `stored` bytes read is past its limits. */
export function checkInflated(part: string, limit: InflateLimit, inflated: number, stored: number, chunk: number): void {
  if (inflated > limit.cap) throw new PartTooLarge(part, 'cap', limit.cap);
  if (inflated > RATIO_FROM && inflated > MAX_INFLATE_RATIO * stored) throw new PartTooLarge(part, 'ratio', MAX_INFLATE_RATIO);
  limit.budget?.take(part, chunk);
}
