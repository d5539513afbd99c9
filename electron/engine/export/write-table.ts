import type { ExportResult, ExportRows, ExportTarget } from './export-target';
import { ExportError, exportLabel, writeFailed } from './export-error';
import { isFileError, writeCsv } from './csv-export';
import { writeXlsx } from './xlsx-export';

/**
 * Writes a header row and rows to a CSV or XLSX file, streaming: rows may be an async iterable read straight
 * from the database. The file appears under its name only when complete.
 */
export async function writeTable(target: ExportTarget, headers: string[], rows: ExportRows): Promise<ExportResult> {
  if (target.format !== 'csv' && target.format !== 'xlsx') {
    throw new ExportError('invalid_target', target.path, `Can't save ${exportLabel(target.path)}: choose CSV or Excel (.xlsx) as the format.`);
  }
  try {
    return target.format === 'csv' ? await writeCsv(target, headers, rows) : await writeXlsx(target, headers, rows);
  } catch (err) {
    // The final rename can fail too (say, a folder with the file's name): that is a write failure as well.
    if (isFileError(err)) throw writeFailed(target.path, err);
    throw err;
  }
}
