// ZIPs whose parts inflate far beyond their stored size, built without ever holding the inflated bytes: a part is a
// head, a block repeated many times and a tail. Each piece is deflated on its own and ended with a full flush, which
// leaves no reference to earlier bytes, so the repeated block's deflated bytes can simply be written again and again.
import { constants, crc32, deflateRawSync } from 'node:zlib';
import { zipParts } from './zip-file';

export interface InflatingPart {
  name: string;
  head: string;
  /** Repeated `times` times between head and tail. */
  block?: string;
  times?: number;
  tail?: string;
  /** The inflated size the ZIP directory states, when it should lie (a bomb may, to get past a check of it). */
  statedSize?: number;
}

function flushed(text: string): Buffer {
  return deflateRawSync(Buffer.from(text, 'utf8'), { flush: constants.Z_FULL_FLUSH, finishFlush: constants.Z_FULL_FLUSH, level: 9 });
}

/** The CRC-32 of the whole inflated part, the repeated block's by zlib's crc32_combine: no pass over the gigabytes. */
function partCrc(part: InflatingPart): number {
  const block = Buffer.from(part.block ?? '', 'utf8');
  let repeated = { crc: 0, length: 0 };
  let power = { crc: crc32(block), length: block.length };
  for (let n = part.times ?? 0; n > 0; n = Math.floor(n / 2)) {
    if (n % 2 === 1) repeated = { crc: crc32Combine(repeated.crc, power.crc, power.length), length: repeated.length + power.length };
    power = { crc: crc32Combine(power.crc, power.crc, power.length), length: power.length * 2 };
  }
  const head = crc32(part.head);
  const tail = Buffer.from(part.tail ?? '', 'utf8');
  return crc32Combine(crc32Combine(head, repeated.crc, repeated.length), crc32(tail), tail.length);
}

function gf2Times(matrix: number[], vector: number): number {
  let sum = 0;
  for (let i = 0, v = vector >>> 0; v !== 0; i++, v >>>= 1) if (v & 1) sum ^= matrix[i]!;
  return sum >>> 0;
}

function gf2Square(square: number[], matrix: number[]): void {
  for (let n = 0; n < 32; n++) square[n] = gf2Times(matrix, matrix[n]!);
}

/** The CRC-32 of A followed by B, from the CRCs of both and B's length (zlib's crc32_combine). */
function crc32Combine(crcA: number, crcB: number, lengthB: number): number {
  if (lengthB <= 0) return crcA >>> 0;
  const even: number[] = new Array(32).fill(0);
  const odd: number[] = [0xedb88320, ...Array.from({ length: 31 }, (_, n) => (1 << n) >>> 0)];
  gf2Square(even, odd);
  gf2Square(odd, even);
  let crc = crcA >>> 0;
  for (let length = lengthB; length > 0; ) {
    gf2Square(even, odd);
    if (length % 2 === 1) crc = gf2Times(even, crc);
    length = Math.floor(length / 2);
    if (length === 0) break;
    gf2Square(odd, even);
    if (length % 2 === 1) crc = gf2Times(odd, crc);
    length = Math.floor(length / 2);
  }
  return (crc ^ crcB) >>> 0;
}

export function inflatingZip(parts: InflatingPart[]): Buffer {
  return zipParts(
    parts.map((part) => {
      const block = part.block ? flushed(part.block) : Buffer.alloc(0);
      const pieces = [flushed(part.head), ...Array.from({ length: part.times ?? 0 }, () => block), deflateRawSync(Buffer.from(part.tail ?? '', 'utf8'))];
      const size = part.statedSize ?? Buffer.byteLength(part.head) + Buffer.byteLength(part.block ?? '') * (part.times ?? 0) + Buffer.byteLength(part.tail ?? '');
      return { name: part.name, packed: Buffer.concat(pieces), crc: partCrc(part), size };
    }),
  );
}

const CONTENT_TYPES =
  '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
  '<Default Extension="xml" ContentType="application/xml"/></Types>';
const WORKBOOK =
  '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" ' +
  'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="People" sheetId="1" r:id="rId1"/></sheets></workbook>';
const RELS =
  '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
  '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/>' +
  '<Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings" Target="sharedStrings.xml"/></Relationships>';
const MAIN = 'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"';

/** A one-sheet workbook ("People") whose worksheet and shared strings are given as inflating parts (names set here). */
export function inflatingWorkbook(worksheet: Omit<InflatingPart, 'name'>, sharedStrings?: Omit<InflatingPart, 'name'>): Buffer {
  return inflatingZip([
    { name: '[Content_Types].xml', head: CONTENT_TYPES },
    { name: 'xl/workbook.xml', head: WORKBOOK },
    { name: 'xl/_rels/workbook.xml.rels', head: RELS },
    ...(sharedStrings ? [{ name: 'xl/sharedStrings.xml', ...sharedStrings }] : []),
    { name: 'xl/worksheets/sheet1.xml', ...worksheet },
  ]);
}

/** A worksheet part: `rows` is the XML of the rows (the header row and any data rows). */
export function worksheetXml(rows: string): string {
  return `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><worksheet ${MAIN}><sheetData>${rows}</sheetData></worksheet>`;
}

export const SHARED_STRINGS_HEAD = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><sst ${MAIN}>`;
export const WORKSHEET_HEAD = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><worksheet ${MAIN}><sheetData>`;
export const WORKSHEET_TAIL = '</sheetData></worksheet>';
