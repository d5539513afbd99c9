// A worksheet's rows as an XLSX export writes them: each cell's value as the sheet holds it, each row's XML written
// into chunks of UTF-8. The export's own thread hands its chunks to the zip writer's compressor; the export's worker
// (runs/export-halves.ts) compresses its half's chunks itself into a file the zip writer then takes as they are.
import { open } from 'node:fs/promises';
import { constants, crc32, deflateRawSync } from 'node:zlib';
import type { DeflatedRows, ExportCell, ExportRows } from './export-target';
import { pagesOf } from './row-pages';
import { columnLetters, rowXml } from './xlsx-parts';

export const XLSX_MAX_CELL_CHARS = 32_767;
/**
 * Bytes of sheet XML handed to the compressor at a time. Each row's XML is written into the chunk as UTF-8 at once:
 * joined into long strings first, their conversion to bytes was a large share of a big export's time.
 */
const CHUNK_BYTES = 1 << 20;
/**
 * zlib's level: 1 writes a large export markedly faster than the default 6, in a file about a fifth larger
 * (docs/performance.md, "Export").
 */
export const DEFLATE_LEVEL = 1;

/** Cells as the sheet holds them, counting those cut to Excel's limit. */
export class XlsxCells {
  /** Cells cut to XLSX_MAX_CELL_CHARS so far. */
  truncated = 0;

  readonly value = (cell: ExportCell): string | number | null => {
    // An empty text is no cell at all, as Excel writes it: a cell holding "" counts as filled (COUNTA, ISBLANK).
    if (cell === null || cell === undefined || cell === '') return null;
    if (typeof cell === 'number') return Number.isFinite(cell) ? cell : null;
    // XML reads CR LF (and a lone CR) back as LF, which is also how Excel breaks lines inside a cell.
    const text = typeof cell === 'string' && !cell.includes('\r') ? cell : String(cell).replace(/\r\n?/g, '\n');
    if (text.length <= XLSX_MAX_CELL_CHARS) return text;
    this.truncated++;
    return text.slice(0, XLSX_MAX_CELL_CHARS);
  };
}

/** XML written as UTF-8 into chunks of CHUNK_BYTES, each handed to `write` once full (and not changed after). */
export class XmlChunks {
  private chunk = Buffer.allocUnsafe(CHUNK_BYTES);
  private used = 0;

  constructor(private readonly write: (chunk: Buffer) => Promise<void>) {}

  async put(xml: string): Promise<void> {
    // A UTF-16 code unit takes at most 3 bytes of UTF-8.
    if (this.used + xml.length * 3 > this.chunk.length) {
      await this.flush();
      if (xml.length * 3 > this.chunk.length) this.chunk = Buffer.allocUnsafe(xml.length * 3);
    }
    this.used += this.chunk.write(xml, this.used);
  }

  /** Hands over what the chunk holds, if anything. */
  async flush(): Promise<void> {
    if (this.used === 0) return;
    const full = this.chunk.subarray(0, this.used);
    this.chunk = Buffer.allocUnsafe(CHUNK_BYTES);
    this.used = 0;
    await this.write(full);
  }
}

/**
 * The rows' XML, the first numbered `firstRow` (the sheet's row number: the header is 1), each chunk deflated on this
 * thread and ended on a full flush, into the file at `path` (made anew): a part for the sheet's entry
 * (ZipWriter.stream's append) to take after the rows before them.
 */
export async function writeDeflatedRows(path: string, rows: ExportRows, firstRow: number, columns: number): Promise<DeflatedRows> {
  const file = await open(path, 'w');
  const cells = new XlsxCells();
  const letters = columnLetters(columns);
  const part: DeflatedRows = { path, crc: 0, size: 0, compressed: 0, rows: 0, truncatedCells: 0 };
  try {
    const chunks = new XmlChunks(async (chunk) => {
      part.crc = crc32(chunk, part.crc);
      part.size += chunk.length;
      const deflated = deflateRawSync(chunk, { level: DEFLATE_LEVEL, finishFlush: constants.Z_FULL_FLUSH });
      part.compressed += deflated.length;
      for (let at = 0; at < deflated.length; ) at += (await file.write(deflated, at)).bytesWritten;
    });
    for await (const page of pagesOf(rows)) {
      for (const row of page) await chunks.put(rowXml(firstRow + part.rows++, row.map(cells.value), letters));
    }
    await chunks.flush();
  } finally {
    await file.close();
  }
  part.truncatedCells = cells.truncated;
  return part;
}
