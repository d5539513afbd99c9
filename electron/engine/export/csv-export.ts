import { createWriteStream } from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ExportCell, ExportResult, ExportRows, ExportTarget } from './export-target';
import { csvEscape } from './csv-escape';
import { neutralizeFormula } from './neutralize-formula';
import { ExportError, exportLabel, writeFailed } from './export-error';
import { writeViaPartFile } from './part-file';

const FLUSH_CHARS = 64 * 1024;

/** UTF-8 CSV with CRLF line ends, streamed with backpressure: rows are pulled only as fast as the disk takes them. */
export async function writeCsv(target: ExportTarget, headers: string[], rows: ExportRows): Promise<ExportResult> {
  const delimiter = target.delimiter ?? ',';
  if (delimiter.length === 0 || /["\r\n]/.test(delimiter)) {
    throw new ExportError('invalid_target', target.path, `Can't save ${exportLabel(target.path)} with ${JSON.stringify(delimiter)} as the delimiter; choose a comma, semicolon, tab or pipe.`);
  }
  return writeViaPartFile(target.path, async (partPath) => {
    let count = 0;
    async function* chunks(): AsyncGenerator<string> {
      let buffer = (target.bom ?? true ? '\uFEFF' : '') + csvLine(headers, delimiter);
      for await (const row of rows) {
        buffer += csvLine(row, delimiter);
        count++;
        if (buffer.length >= FLUSH_CHARS) {
          yield buffer;
          buffer = '';
        }
      }
      if (buffer) yield buffer;
    }
    try {
      await pipeline(Readable.from(chunks()), createWriteStream(partPath, { flush: true }));
    } catch (err) {
      if (isFileError(err)) throw writeFailed(target.path, err);
      throw err;
    }
    return { rows: count };
  }, target.together, target.unfinished);
}

function csvLine(row: readonly ExportCell[], delimiter: string): string {
  let line = '';
  for (let i = 0; i < row.length; i++) {
    if (i > 0) line += delimiter;
    const cell = row[i];
    if (cell === null || cell === undefined) continue;
    // Numbers typed as numbers are data the engine made, never formulas: only strings are neutralized.
    line += typeof cell === 'number' ? csvEscape(numberText(cell), delimiter) : csvEscape(neutralizeFormula(String(cell)), delimiter);
  }
  return `${line}\r\n`;
}

function numberText(value: number): string {
  if (!Number.isFinite(value)) return '';
  return Object.is(value, -0) ? '0' : String(value);
}

export function isFileError(err: unknown): boolean {
  const e = err as NodeJS.ErrnoException | null;
  return typeof e?.code === 'string' && typeof e.syscall === 'string';
}
