import { isUtf8 } from 'node:buffer';
import { neutralizeFormula } from '../electron/engine/export/neutralize-formula';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OPEN = 0x5b;
const CLOSE = 0x5d;
const SPACE = 0x20;

/**
 * A stored row's cells (rows/row-cells.ts: the UTF-8 bytes of a JSON array of strings) written as CSV fields straight
 * from those bytes, for a delimiter of one ASCII character, as bench/csv-export-floor.ts --bytes measures it: the bytes
 * are neither decoded into strings nor encoded again. A cell with nothing to quote, escape or guard is copied byte for
 * byte; any other is read from its JSON and written as the export's string path writes it
 * (`escape(neutralizeFormula(cell))`); a row whose bytes are not a plain JSON array of strings in valid UTF-8 is left
 * to the string path whole. The bytes are the same either way (checked by `--bytes --check`).
 */
export class CsvStoredCells {
  /** Rows written from their bytes, and rows left to the string path. */
  copied = 0;
  declined = 0;
  private readonly delimiter: number;

  constructor(
    delimiter: string,
    private readonly escape: (cell: string) => string,
  ) {
    if (delimiter.length !== 1 || delimiter.charCodeAt(0) >= 0x80) throw new Error('The cells are copied for a delimiter of one ASCII character only.');
    this.delimiter = delimiter.charCodeAt(0);
  }

  /** Bytes `write` may take for a row's cells: a field never takes more than its JSON element and a separator. */
  static room(start: number, end: number, width: number): number {
    return 2 * (end - start) + width;
  }

  /**
   * Writes the cells stored in `bytes` from `start` to `end`, cut or padded to `width`, at `at` in `out` (which has
   * `room` bytes there), separated by the delimiter; where they end, or -1 when the row takes the string path (`out`
   * may then hold anything past `at`).
   */
  write(bytes: Buffer, start: number, end: number, width: number, out: Buffer, at: number): number {
    const written = this.fields(bytes, start, end, width, out, at);
    if (written === -1) this.declined++;
    else this.copied++;
    return written;
  }

  private fields(json: Buffer, from: number, end: number, width: number, out: Buffer, at: number): number {
    const delimiter = this.delimiter;
    if (end - from < 2 || json[from] !== OPEN) return -1;
    let pos = at;
    let n = 0;
    let ascii = true;
    let i = from + 1;
    if (json[i] === CLOSE) {
      if (end - from !== 2) return -1;
    } else {
      for (;;) {
        // Never past `end`: the next row's bytes follow in the same buffer.
        if (i >= end || json[i] !== QUOTE) return -1;
        const start = ++i;
        if (n > 0 && n < width) out[pos++] = delimiter;
        const field = pos;
        let plain = true;
        let escaped = false;
        for (;;) {
          if (i >= end) return -1;
          const b = json[i]!;
          if (b === QUOTE) break;
          // Raw control characters are not JSON: the string path reads such a row as no cells.
          if (b < 0x20) return -1;
          if (b === BACKSLASH) {
            // The escaped character is skipped, so that \" does not end the string; JSON.parse checks the escape.
            escaped = true;
            i += 2;
            continue;
          }
          if (b >= 0x80) ascii = false;
          else if (b === delimiter) plain = false;
          out[pos++] = b;
          i++;
        }
        if (escaped) {
          // Read as the string path reads it: a cell past the width too, since a bad escape there spoils the row.
          let cell: unknown;
          try {
            cell = JSON.parse(json.toString('utf8', start - 1, i + 1));
          } catch {
            return -1;
          }
          if (typeof cell !== 'string') return -1;
          pos = field;
          if (n < width) pos += out.write(this.escape(neutralizeFormula(cell)), pos);
        } else if (!plain || (start < i && !plainEnds(json, start, i))) {
          pos = field;
          if (n < width) pos += out.write(this.escape(neutralizeFormula(json.toString('utf8', start, i))), pos);
        }
        if (n >= width) pos = field;
        n++;
        i++;
        if (i < end - 1 && json[i] === COMMA) i++;
        else if (i === end - 1 && json[i] === CLOSE) break;
        else return -1;
      }
    }
    if (!ascii && !isUtf8(json.subarray(from, end))) return -1;
    for (let k = Math.max(n, 1); k < width; k++) out[pos++] = delimiter;
    return pos;
  }
}

/**
 * Whether a cell's text, the bytes from `start` to `end` (at least one), needs nothing at its ends: it starts with
 * none of the formula guard's characters (the guard's others, TAB and CR, are escaped in JSON) and neither starts nor
 * ends with whitespace as export/csv-escape.ts looks for it.
 */
function plainEnds(json: Buffer, start: number, end: number): boolean {
  const first = json[start]!;
  if (first === 0x3d || first === 0x2b || first === 0x2d || first === 0x40 || first === SPACE) return false;
  if (first >= 0x80 && spaceAt(json, start)) return false;
  let last = end - 1;
  if (json[last]! < 0x80) return json[last] !== SPACE;
  // The last character's first byte: continuation bytes are 10xxxxxx.
  while (last > start && (json[last]! & 0xc0) === 0x80) last--;
  return !spaceAt(json, last);
}

/** Whether the UTF-8 character at `i` is whitespace beyond ASCII as `\s` means it (export/csv-escape.ts isSpace). */
function spaceAt(json: Buffer, i: number): boolean {
  const a = json[i];
  const b = json[i + 1];
  const c = json[i + 2];
  switch (a) {
    case 0xc2: // U+00A0
      return b === 0xa0;
    case 0xe1: // U+1680
      return b === 0x9a && c === 0x80;
    case 0xe2: // U+2000-U+200A, U+2028, U+2029, U+202F; U+205F
      return (b === 0x80 && c !== undefined && (c <= 0x8a || c === 0xa8 || c === 0xa9 || c === 0xaf)) || (b === 0x81 && c === 0x9f);
    case 0xe3: // U+3000
      return b === 0x80 && c === 0x80;
    case 0xef: // U+FEFF
      return b === 0xbb && c === 0xbf;
    default:
      return false;
  }
}
