import iconv from 'iconv-lite';
import { SheetError, fileLabel } from './sheet-error';

export type TextEncoding = 'utf-8' | 'utf-16le' | 'utf-16be' | 'windows-1252';

export type FileKind = { kind: 'zip' } | { kind: 'cfb' } | { kind: 'text'; encoding: TextEncoding };

/** How far the UTF-8 validity check looks: far enough to meet the first accented name in nearly any file. */
export const SAMPLE_BYTES = 1024 * 1024;
const BINARY_CHECK_BYTES = 8 * 1024;

const SIGNATURES: { bytes: number[]; offset?: number; what: string }[] = [
  { bytes: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], what: 'a PNG image' },
  { bytes: [0xff, 0xd8, 0xff], what: 'a JPEG image' },
  { bytes: [0x47, 0x49, 0x46, 0x38], what: 'a GIF image' },
  { bytes: [0x25, 0x50, 0x44, 0x46, 0x2d], what: 'a PDF document' },
  { bytes: [0x1f, 0x8b], what: 'a gzip archive' },
  { bytes: [0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c], what: 'a 7-Zip archive' },
  { bytes: [0x52, 0x61, 0x72, 0x21, 0x1a, 0x07], what: 'a RAR archive' },
  { bytes: [0x57, 0x45, 0x42, 0x50], offset: 8, what: 'a WebP image' },
  { bytes: [0x66, 0x74, 0x79, 0x70], offset: 4, what: 'a video or audio file' },
  { bytes: [0x49, 0x49, 0x2a, 0x00], what: 'a TIFF image' },
  { bytes: [0x4d, 0x4d, 0x00, 0x2a], what: 'a TIFF image' },
  { bytes: [0x7f, 0x45, 0x4c, 0x46], what: 'a program' },
];

const ZIP_SIGNATURES = [
  [0x50, 0x4b, 0x03, 0x04],
  [0x50, 0x4b, 0x05, 0x06],
  [0x50, 0x4b, 0x07, 0x08],
];
const CFB_SIGNATURE = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];

function startsWith(buf: Buffer, bytes: number[], offset = 0): boolean {
  if (buf.length < offset + bytes.length) return false;
  return bytes.every((b, i) => buf[offset + i] === b);
}

/** Decides what a file is from its first bytes, whatever its name says. */
export function sniffFile(path: string, start: Buffer, size: number): FileKind {
  if (ZIP_SIGNATURES.some((sig) => startsWith(start, sig))) return { kind: 'zip' };
  if (startsWith(start, CFB_SIGNATURE)) return { kind: 'cfb' };
  for (const sig of SIGNATURES) {
    if (startsWith(start, sig.bytes, sig.offset)) throw notASpreadsheet(path, sig.what);
  }
  const encoding = textEncoding(path, start, size);
  const head = decodeHead(start, encoding);
  const looksLike = markupKind(head);
  if (looksLike?.readableFormat === false) throw unsupportedFormat(path, looksLike.what, looksLike.advice);
  if (looksLike) throw notASpreadsheet(path, looksLike.what, looksLike.advice);
  return { kind: 'text', encoding };
}

function textEncoding(path: string, start: Buffer, size: number): TextEncoding {
  if (startsWith(start, [0xef, 0xbb, 0xbf])) return 'utf-8';
  if (startsWith(start, [0xff, 0xfe, 0x00, 0x00])) throw unsupportedFormat(path, 'UTF-32 text', 'Save it as UTF-8 CSV and try again.');
  if (startsWith(start, [0xff, 0xfe])) return 'utf-16le';
  if (startsWith(start, [0xfe, 0xff])) return 'utf-16be';
  const head = start.subarray(0, BINARY_CHECK_BYTES);
  const withoutBom = utf16WithoutBom(head);
  if (withoutBom) return withoutBom;
  if (head.includes(0)) throw notASpreadsheet(path, 'a binary file');
  return isValidUtf8(start, start.length < size) ? 'utf-8' : 'windows-1252';
}

/** Some tools write UTF-16 without a BOM: ASCII text then has a NUL in every other byte. */
function utf16WithoutBom(head: Buffer): TextEncoding | null {
  const pairs = Math.floor(head.length / 2);
  if (pairs < 2) return null;
  let evenZeros = 0;
  let oddZeros = 0;
  for (let i = 0; i < pairs * 2; i += 2) {
    if (head[i] === 0) evenZeros++;
    if (head[i + 1] === 0) oddZeros++;
  }
  if (oddZeros > pairs * 0.3 && evenZeros < pairs * 0.02) return 'utf-16le';
  if (evenZeros > pairs * 0.3 && oddZeros < pairs * 0.02) return 'utf-16be';
  return null;
}

/** `stream: true` leaves a multi-byte character cut by the end of the sample undecided instead of invalid. */
function isValidUtf8(sample: Buffer, truncated: boolean): boolean {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(sample, { stream: truncated });
    return true;
  } catch {
    return false;
  }
}

function decodeHead(start: Buffer, encoding: TextEncoding): string {
  return iconv.decode(start.subarray(0, 4096), encoding);
}

function markupKind(head: string): { what: string; advice?: string; readableFormat?: false } | null {
  const text = head.trimStart().slice(0, 2048).toLowerCase();
  if (text.startsWith('<?xml')) {
    if (text.includes('urn:schemas-microsoft-com:office:spreadsheet')) {
      return { what: 'an Excel 2003 XML spreadsheet', advice: SAVE_AS_ADVICE, readableFormat: false };
    }
    return { what: 'an XML file' };
  }
  if (text.startsWith('<!doctype html') || text.startsWith('<html') || text.startsWith('<table')) {
    return {
      what: 'a web page (HTML)',
      advice: `Some systems save web pages under an Excel name. ${SAVE_AS_ADVICE}`,
    };
  }
  if (text.startsWith('{\\rtf')) return { what: 'a Rich Text document' };
  return null;
}

export const SAVE_AS_ADVICE = 'Open it in Excel and save it as .xlsx or CSV, then try again.';

/** A spreadsheet in a format this app does not read (old .xls, .ods, ...): `not_a_spreadsheet` is the closest code. */
export function unsupportedFormat(path: string, what: string, advice = SAVE_AS_ADVICE): SheetError {
  return new SheetError('not_a_spreadsheet', path, `${fileLabel(path)} is ${what}, which Matchdesk can't read. ${advice}`);
}

export function notASpreadsheet(path: string, what: string, advice = 'Choose a CSV or Excel (.xlsx) file.'): SheetError {
  return new SheetError('not_a_spreadsheet', path, `${fileLabel(path)} is ${what}, not a spreadsheet. ${advice}`);
}
