import { StringDecoder } from 'node:string_decoder';
import { excelString } from './cell-text';
import { decodeXml } from './xml-elements';
import { NeedsGuard, RPH, SI, T, XmlTags, type XmlHandler } from './xml-tags';

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

/**
 * Reads a shared-strings part's entries into `table` as they stream in: each `<si>`'s text, rich text flattened to
 * its runs' text as a cell shows it, phonetic guides (`<rPh>`) left out, Excel's escapes decoded. With `maxChars`,
 * an entry or text run longer than that throws NeedsGuard (xml-tags.ts).
 */
export async function readSharedStrings(source: AsyncIterable<Buffer> | Iterable<Buffer>, table: SharedStrings, maxChars = Infinity): Promise<void> {
  const reader = new EntryReader(table, maxChars);
  const tags = new XmlTags(reader, maxChars);
  const decoder = new StringDecoder('utf8');
  for await (const chunk of source) tags.feed(decoder.write(chunk));
  tags.feed(decoder.end());
  tags.end();
}

class EntryReader implements XmlHandler {
  collecting = false;
  done = false;
  private inEntry = false;
  private phonetic = 0;
  private entry = '';
  private raw = '';

  constructor(
    private readonly table: SharedStrings,
    private readonly maxChars: number,
  ) {}

  open(tag: number, _xml: string, _from: number, _to: number, empty: boolean): void {
    if (tag === SI) {
      if (empty) this.table.add('');
      else {
        this.inEntry = true;
        this.entry = '';
      }
    } else if (tag === RPH && !empty) this.phonetic++;
    else if (tag === T && !empty && this.inEntry && this.phonetic === 0) {
      this.collecting = true;
      this.raw = '';
    }
  }

  text(raw: string): void {
    this.raw += raw;
  }

  close(tag: number): void {
    if (tag === T && this.collecting) {
      this.entry += decodeXml(this.raw);
      this.collecting = false;
      if (this.entry.length > this.maxChars) throw new NeedsGuard();
    } else if (tag === RPH) this.phonetic = Math.max(0, this.phonetic - 1);
    else if (tag === SI && this.inEntry) {
      this.table.add(excelString(this.entry));
      this.inEntry = false;
    }
  }
}
