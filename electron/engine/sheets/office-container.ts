import { open } from 'node:fs/promises';
import { SheetError, fileLabel } from './sheet-error';
import { unsupportedFormat } from './sniff-file';
import { unreadable } from './file-access';

const STREAM_NAMES = {
  encrypted: 'EncryptedPackage',
  excel: 'Workbook',
  excel95: 'Book',
  word: 'WordDocument',
  powerPoint: 'PowerPoint Document',
  outlook: '__substg1.0_',
} as const;
type Found = keyof typeof STREAM_NAMES;

/**
 * An OLE2/CFB container is either a password-protected Office file (the encrypted OOXML package sits inside)
 * or a legacy binary Office file. Stream names are stored in UTF-16LE in the container's directory, so a scan
 * for them tells which without parsing the sector chains. Returns the SheetError to raise.
 */
export async function explainOfficeContainer(path: string): Promise<SheetError> {
  const found = await findStreamNames(path);
  if (found.has('encrypted')) return encrypted(path);
  if (found.has('excel') || found.has('excel95')) {
    return unsupportedFormat(path, 'in the old Excel 97–2003 format (.xls)');
  }
  if (found.has('word')) return unsupportedFormat(path, 'a Word document', 'Choose a CSV or Excel (.xlsx) file.');
  if (found.has('powerPoint')) return unsupportedFormat(path, 'a PowerPoint presentation', 'Choose a CSV or Excel (.xlsx) file.');
  if (found.has('outlook')) return unsupportedFormat(path, 'an Outlook message', 'Choose a CSV or Excel (.xlsx) file.');
  return new SheetError(
    'encrypted',
    path,
    `${fileLabel(path)} is password-protected or saved in an old Office format: ` +
      'open it in Excel and save it as .xlsx without a password (or as CSV), then try again.',
  );
}

function encrypted(path: string): SheetError {
  return new SheetError('encrypted', path, `${fileLabel(path)} is password-protected: save it without a password and try again.`);
}

const CHUNK = 4 * 1024 * 1024;

async function findStreamNames(path: string): Promise<Set<Found>> {
  const patterns = (Object.entries(STREAM_NAMES) as [Found, string][]).map(([key, name]) => ({
    key,
    // The `Book` name must be a whole directory entry name (followed by its NUL terminator), not a prefix.
    bytes: Buffer.from(key === 'excel95' ? `${name}\0` : name, 'utf16le'),
  }));
  const overlap = Math.max(...patterns.map((p) => p.bytes.length));
  const found = new Set<Found>();
  let handle;
  try {
    handle = await open(path, 'r');
    const buffer = Buffer.alloc(CHUNK + overlap);
    let carried = 0;
    for (let position = 0; ; ) {
      const { bytesRead } = await handle.read(buffer, carried, CHUNK, position);
      if (bytesRead === 0) break;
      const window = buffer.subarray(0, carried + bytesRead);
      for (const p of patterns) if (window.includes(p.bytes)) found.add(p.key);
      if (found.has('encrypted')) break;
      position += bytesRead;
      carried = Math.min(overlap, window.length);
      window.copy(buffer, 0, window.length - carried);
    }
  } catch (err) {
    throw unreadable(path, err);
  } finally {
    await handle?.close();
  }
  return found;
}
