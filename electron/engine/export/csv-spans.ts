import type { ExportCell } from './export-target';
import { csvLineWriter } from './csv-export';

/** Room a span's bytes start with: a span of 2,000 rows of the bench's sheet takes about 650 KB. */
const FIRST_BYTES = 256 * 1024;

/**
 * A span of rows' CSV lines as UTF-8, made on either thread of a two-threaded export (runs/export-spans.ts) and
 * written as they are. Its bytes have an ArrayBuffer of their own (never Node's shared pool), so the worker can hand
 * them over rather than copy them.
 */
export class CsvSpanBytes {
  private readonly line: (row: readonly ExportCell[]) => string;
  private bytes = Buffer.allocUnsafeSlow(FIRST_BYTES);
  private used = 0;
  rows = 0;

  constructor(delimiter: string) {
    this.line = csvLineWriter(delimiter);
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
