import type { ExportCell } from './export-target';
import { csvLineWriter } from './csv-export';

/** Room a span's bytes start with when given none: a span of 2,000 rows of the bench's sheet takes about 650 KB. */
const FIRST_BYTES = 1024 * 1024;

/**
 * A span of rows' CSV lines as UTF-8, made on either thread of a two-threaded export (runs/export-spans.ts) and
 * written as they are. Its bytes have an ArrayBuffer of their own (never Node's shared pool), so the worker can hand
 * them over rather than copy them; given one (a span's written already), it makes them there. A new ArrayBuffer a
 * span was memory V8 counts against its heap, and a large export's gave its collector much work.
 */
export class CsvSpanBytes {
  private readonly line: (row: readonly ExportCell[]) => string;
  private bytes: Buffer;
  private used = 0;
  rows = 0;

  constructor(delimiter: string, into: ArrayBuffer | null = null) {
    this.line = csvLineWriter(delimiter);
    this.bytes = into ? Buffer.from(into) : Buffer.allocUnsafeSlow(FIRST_BYTES);
  }

  add(row: readonly ExportCell[]): void {
    const text = this.line(row);
    // A UTF-16 code unit takes at most 3 bytes of UTF-8.
    if (this.used + text.length * 3 > this.bytes.length) {
      const larger = Buffer.allocUnsafeSlow(Math.max(this.bytes.length * 2, this.used + text.length * 3));
      this.bytes.copy(larger, 0, 0, this.used);
      this.bytes = larger;
    }
    this.used += this.bytes.write(text, this.used);
    this.rows++;
  }

  /** The lines so far. */
  get span(): { bytes: Uint8Array; rows: number } {
    return { bytes: this.bytes.subarray(0, this.used), rows: this.rows };
  }
}
