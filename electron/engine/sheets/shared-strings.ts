import { excelString } from './cell-text';

const CHUNK_BYTES = 16 * 1024 * 1024;
const ENDS_BLOCK = 1 << 16;

/**
 * An xlsx's shared-strings table, which Excel writes for every sheet it saves: each string's UTF-8 bytes end to end
 * in buffers, and where each ends, instead of a JavaScript string (or rich-text object) per entry. A cell's
 * text is decoded when its row is read. For a large sheet saved with its strings shared, exceljs' own table took
 * hundreds of MB before the first row was stored.
 * The bytes go in fixed-size chunks and the ends in fixed-size blocks, never copied to grow, so the table takes about
 * what it holds, which the shared-strings part's inflate cap bounds (a string takes no more than its XML).
 */
export class SharedStrings {
  private readonly chunks: Buffer[] = [];
  /** The first entry of each chunk. */
  private readonly firstEntries: number[] = [];
  private used = 0;
  /** Each entry's end, as an offset in its chunk. */
  private readonly ends: Uint32Array[] = [];
  private count = 0;
  /** The entry over the cell limit that ended the table (its text cut short), or null: the table is whole. */
  end: number | null = null;

  constructor(private readonly chunkBytes = CHUNK_BYTES) {}

  /** The next entry's text: rich text flattened to its runs' text, as a cell shows it. */
  add(text: string): void {
    const most = text.length * 3;
    let chunk = this.chunks[this.chunks.length - 1];
    if (!chunk || this.used + most > chunk.length) {
      // A string never spans two chunks; one longer than a chunk (only in tests: cells are 1 MiB at most) gets its own.
      chunk = Buffer.allocUnsafe(Math.max(this.chunkBytes, most));
      this.chunks.push(chunk);
      this.firstEntries.push(this.count);
      this.used = 0;
    }
    this.used += chunk.write(text, this.used, 'utf8');
    if ((this.count & (ENDS_BLOCK - 1)) === 0) this.ends.push(new Uint32Array(ENDS_BLOCK));
    this.ends[this.count >>> 16]![this.count & (ENDS_BLOCK - 1)] = this.used;
    this.count++;
  }

  /** The table was ended at entry `index`, which is over the cell limit: it and any entry after it have no text. */
  endAt(index: number): void {
    this.end = index;
  }

  /** True for the entry that ended the table and any after it. */
  isPastEnd(index: number): boolean {
    return this.end !== null && index >= this.end;
  }

  /** The text of entry `index`; undefined for an index the table does not have. */
  get(index: number): string | undefined {
    if (!Number.isInteger(index) || index < 0 || index >= this.count) return undefined;
    let low = 0;
    let high = this.firstEntries.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >>> 1;
      if (this.firstEntries[mid]! <= index) low = mid;
      else high = mid - 1;
    }
    const start = index === this.firstEntries[low] ? 0 : this.endOf(index - 1);
    return this.chunks[low]!.toString('utf8', start, this.endOf(index));
  }

  private endOf(index: number): number {
    return this.ends[index >>> 16]![index & (ENDS_BLOCK - 1)]!;
  }
}

/** A shared-strings entry as exceljs' parser emits it: plain text, rich text runs, or nothing (`<si><t/></si>`). */
export function sharedStringText(entry: unknown): string {
  if (typeof entry === 'string') return excelString(entry);
  const runs = (entry as { richText?: unknown } | null)?.richText;
  if (Array.isArray(runs)) return excelString(runs.map((run: { text?: unknown }) => (typeof run?.text === 'string' ? run.text : '')).join(''));
  return '';
}
