import { excelString } from './cell-text';

/**
 * An xlsx's shared-strings table, which Excel writes for every sheet it saves: each string's UTF-8 bytes end to end
 * in one buffer, and where each ends, instead of a JavaScript string (or rich-text object) per entry. A cell's
 * text is decoded when its row is read. Measured, a 1M-row sheet saved with its strings shared: exceljs' own table
 * took the import to a 670 MB heap and 848 MB resident before the first row was stored.
 */
export class SharedStrings {
  private bytes = Buffer.allocUnsafe(1 << 20);
  private used = 0;
  private ends = new Uint32Array(1 << 14);
  private count = 0;
  /** The entry over the cell limit that ended the table (its text cut short), or null: the table is whole. */
  end: number | null = null;

  /** The next entry's text: rich text flattened to its runs' text, as a cell shows it. */
  add(text: string): void {
    const room = this.used + text.length * 3;
    if (room > this.bytes.length) {
      const grown = Buffer.allocUnsafe(Math.max(this.bytes.length * 2, room));
      this.bytes.copy(grown, 0, 0, this.used);
      this.bytes = grown;
    }
    this.used += this.bytes.write(text, this.used, 'utf8');
    if (this.count === this.ends.length) {
      const grown = new Uint32Array(this.ends.length * 2);
      grown.set(this.ends);
      this.ends = grown;
    }
    this.ends[this.count++] = this.used;
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
    return this.bytes.toString('utf8', index === 0 ? 0 : this.ends[index - 1], this.ends[index]);
  }
}

/** A shared-strings entry as exceljs' parser emits it: plain text, rich text runs, or nothing (`<si><t/></si>`). */
export function sharedStringText(entry: unknown): string {
  if (typeof entry === 'string') return excelString(entry);
  const runs = (entry as { richText?: unknown } | null)?.richText;
  if (Array.isArray(runs)) return excelString(runs.map((run: { text?: unknown }) => (typeof run?.text === 'string' ? run.text : '')).join(''));
  return '';
}
