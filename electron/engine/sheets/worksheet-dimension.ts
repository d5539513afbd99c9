import type { WorkbookOutline, WorkbookSheet } from './xlsx-workbook';
import { streamPart } from './zip-directory';
import { INFLATE_CAPS } from './inflate-limits';

/** The <dimension> element comes before <sheetData>, within the first kilobytes of a worksheet part. */
const HEAD_CHARS = 16 * 1024;
const DIMENSION = /<(?:\w+:)?dimension\b[^>]*\bref="([^"]*)"/;
const SHEET_DATA = /<(?:\w+:)?sheetData\b/;

/**
 * The last row a worksheet says it uses (`<dimension ref="A1:F1000001"/>`), read from the start of its part
 * without parsing a row; null when it says nothing (the element is optional, and streaming writers leave it out).
 */
export async function worksheetLastRow(path: string, outline: WorkbookOutline, sheet: WorkbookSheet): Promise<number | null> {
  const part = outline.parts.get(sheet.part);
  if (!part) return null;
  const stream = streamPart(path, part, undefined, { cap: INFLATE_CAPS.worksheet });
  let head = '';
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      head += chunk.toString('latin1');
      if (head.length >= HEAD_CHARS || SHEET_DATA.test(head)) break;
    }
  } catch {
    // A damaged part is the row reader's to report, in its own words.
    return null;
  } finally {
    stream.destroy();
  }
  const ref = DIMENSION.exec(head)?.[1];
  const last = ref ? /(\d+)$/.exec(ref.split(':').pop()!)?.[1] : undefined;
  return last === undefined ? null : Number(last);
}
