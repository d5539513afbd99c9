import { extname, posix } from 'node:path';
import { SheetError, fileLabel } from './sheet-error';
import { notASpreadsheet, unsupportedFormat } from './sniff-file';
import { ZipDamaged, ZipDirectory, type PartLocation } from './zip-directory';
import { unreadable } from './file-access';
import { elements } from './xml-elements';

export interface WorkbookSheet {
  name: string;
  visible: boolean;
  /** The worksheet part inside the ZIP, e.g. `xl/worksheets/sheet2.xml`. */
  part: string;
}

export interface WorkbookOutline {
  /** Worksheets in tab order (chart sheets left out: they hold no rows). */
  sheets: WorkbookSheet[];
  date1904: boolean;
  sharedStrings: PartLocation | null;
  styles: PartLocation | null;
  /** Where each worksheet's bytes are, by part name. */
  parts: Map<string, PartLocation>;
}

const WORKBOOK_PART = 'xl/workbook.xml';
const WORKSHEET_REL = /\/worksheet$/;
const SHARED_STRINGS_REL = /\/sharedStrings$/;
const STYLES_REL = /\/styles$/;

/**
 * Reads the sheet list and where each part sits straight from the ZIP directory, so tab order, hidden state
 * and a truncated file are settled first, and one worksheet can then be streamed without reading the others.
 */
export async function readWorkbookOutline(path: string): Promise<WorkbookOutline> {
  let zip: ZipDirectory;
  try {
    zip = await ZipDirectory.open(path);
  } catch (err) {
    if (err instanceof ZipDamaged) throw corruptWorkbook(path, err);
    throw unreadable(path, err);
  }
  try {
    if (!zip.has(WORKBOOK_PART)) throw otherZip(path, zip);
    const workbookXml = (await zip.read(WORKBOOK_PART)).toString('utf8');
    const relsXml = zip.has('xl/_rels/workbook.xml.rels') ? (await zip.read('xl/_rels/workbook.xml.rels')).toString('utf8') : '';
    const targets = new Map<string, { target: string; type: string }>();
    for (const rel of elements(relsXml, 'Relationship')) {
      if (rel.Id && rel.Target) targets.set(rel.Id, { target: rel.Target, type: rel.Type ?? '' });
    }
    const sheets: WorkbookSheet[] = [];
    for (const sheet of elements(workbookXml, 'sheet')) {
      const relId = Object.entries(sheet).find(([key]) => key === 'id' || key.endsWith(':id'))?.[1];
      const rel = relId ? targets.get(relId) : undefined;
      if (!rel || !WORKSHEET_REL.test(rel.type) || sheet.name === undefined) continue;
      sheets.push({ name: sheet.name, visible: sheet.state !== 'hidden' && sheet.state !== 'veryHidden', part: partPath(rel.target) });
    }
    const workbookPr = elements(workbookXml, 'workbookPr')[0];
    const date1904 = workbookPr?.date1904 === '1' || workbookPr?.date1904 === 'true';
    const partOf = async (type: RegExp, fallback: string): Promise<PartLocation | null> => {
      const rel = [...targets.values()].find((r) => type.test(r.type));
      const name = rel ? partPath(rel.target) : fallback;
      return zip.has(name) ? zip.locate(name) : null;
    };
    const parts = new Map<string, PartLocation>();
    for (const sheet of sheets) if (zip.has(sheet.part)) parts.set(sheet.part, await zip.locate(sheet.part));
    return {
      sheets,
      date1904,
      sharedStrings: await partOf(SHARED_STRINGS_REL, 'xl/sharedStrings.xml'),
      styles: await partOf(STYLES_REL, 'xl/styles.xml'),
      parts,
    };
  } catch (err) {
    if (err instanceof ZipDamaged) throw corruptWorkbook(path, err);
    throw err;
  } finally {
    await zip.close();
  }
}

export function corruptWorkbook(path: string, cause?: unknown): SheetError {
  // Numbers keeps a document as a ZIP of its own kind: one that does not even read as a ZIP is still not a damaged workbook.
  if (extname(path).toLowerCase() === '.numbers') return appleNumbers(path);
  return new SheetError(
    'corrupt',
    path,
    `${fileLabel(path)} is damaged or incomplete and can't be read as an Excel workbook. ` +
      'If it was copied or downloaded, get it again; otherwise open it in Excel, save it again, and retry.',
    { cause },
  );
}

const NUMBERS_ADVICE = 'In Numbers, choose File > Export To > CSV (or Excel), then import that file.';

function appleNumbers(path: string): SheetError {
  return unsupportedFormat(path, 'an Apple Numbers document', NUMBERS_ADVICE);
}

function otherZip(path: string, zip: ZipDirectory): SheetError {
  if (zip.has('Index/Document.iwa') || zip.has('Index.zip') || extname(path).toLowerCase() === '.numbers') return appleNumbers(path);
  if (zip.has('xl/workbook.bin')) return unsupportedFormat(path, 'an Excel Binary Workbook (.xlsb)');
  if (zip.has('content.xml') && zip.has('mimetype')) return unsupportedFormat(path, 'an OpenDocument file (.ods)');
  if (zip.has('word/document.xml')) return notASpreadsheet(path, 'a Word document');
  if (zip.has('ppt/presentation.xml')) return notASpreadsheet(path, 'a PowerPoint presentation');
  return notASpreadsheet(path, 'a ZIP archive');
}

/** Relationship targets are relative to the workbook part's folder unless they start with `/`. */
function partPath(target: string): string {
  return target.startsWith('/') ? posix.normalize(target.slice(1)) : posix.normalize(posix.join('xl', target));
}
