import { OversizedCell } from './oversized-cell';

/** Excel writes tags of a few dozen bytes; a longer one is damage or an attack on the parser's memory. */
export const MAX_TAG_BYTES = 64 * 1024;
/** `&#x10FFFF;` is the longest entity a cell's text needs. */
const MAX_ENTITY_BYTES = 12;

const LT = 0x3c;
const GT = 0x3e;
const AMP = 0x26;
const SEMI = 0x3b;
const QUOTE = 0x22;
const APOS = 0x27;
const CDATA_OPEN = Buffer.from('![CDATA[');
const CDATA_CLOSE = Buffer.from(']]>');

const TEXT = 0;
const TAG = 1;
const ENTITY = 2;
const CDATA = 3;

/** Local names the guard looks for, compared as bytes. */
const OTHER = 0;
const C = 1;
const V = 2;
const T = 3;
const SI = 4;
const ROW = 5;

export interface SharedStringsCut {
  /** The first entry (0-based) over the limit; the table ends with it, its text cut short. */
  index: number | null;
}

/**
 * Passes a worksheet's or shared-strings part's XML through while counting each cell's text (what `<v>` and `<t>`
 * hold, entities decoded), so that no cell ever reaches the XML parser much beyond the limit: the parser would
 * otherwise gather a 1 GiB text into one string before anyone could look at it. A worksheet cell over the limit
 * stops the read with OversizedCell at its row and column (once the XML before it is passed on); a shared string
 * over it ends the table there, closed as well-formed XML, and `cut.index` says which entry it was (the cell using it
 * is named when the sheet is read). Chunks are passed on ending at a whole UTF-8 character, since exceljs decodes
 * each chunk on its own.
 */
export async function* guardXmlText(
  source: AsyncIterable<Buffer>,
  kind: 'worksheet' | 'sharedStrings',
  maxCellBytes: number,
  cut: SharedStringsCut = { index: null },
): AsyncGenerator<Buffer> {
  const guard = new XmlTextGuard(kind === 'worksheet', maxCellBytes);
  for await (const input of source) {
    const end = guard.scan(input);
    if (end === null) {
      const out = guard.passable(input);
      if (out.length > 0) yield out;
      continue;
    }
    // The XML before the cell goes on first, so that the rows above it are read and the header can name its column.
    yield Buffer.concat([guard.passable(input.subarray(0, end.at)), Buffer.from(end.close)]);
    if (guard.failure) throw guard.failure;
    cut.index = guard.entry;
    return;
  }
  const rest = guard.held;
  if (rest) yield rest;
}

/** The scanner's state between chunks; a class, so the byte loop runs on plain fields. */
class XmlTextGuard {
  private state = TEXT;
  /** A tag cut by the end of a chunk. */
  private tagParts: Buffer[] = [];
  private tagLength = 0;
  private quote = 0;
  private entity = '';
  private cdataClose = 0;
  /** Open elements, kept for the shared strings only: they are closed when the table is ended early. */
  private readonly open: string[] = [];
  private inCell = false;
  private counting = false;
  private cellBytes = 0;
  /** How far into an Excel escape (`_x000D_`, 7 bytes for one character) the cell's text is: 0 when not in one. */
  private escape = 0;
  /** Bytes of the text run not counted as a cell's text (a formula, stray text): bounded as well. */
  private runBytes = 0;
  /** The latest `<row>` and `<c>` tags, where they are, and how many were seen: for naming a cell over the limit. */
  private rowTag: Buffer | null = null;
  private rowTagStart = 0;
  private rowTagEnd = 0;
  private rowsSeen = 0;
  private cellTag: Buffer | null = null;
  private cellTagStart = 0;
  private cellTagEnd = 0;
  private cellsInRow = 0;
  entry = -1;
  /** Set when a worksheet cell is over the limit: thrown once the XML before it is passed on. */
  failure: OversizedCell | null = null;
  /** The end of the last chunk when it cut a UTF-8 character: passed on with the next one. */
  held: Buffer | null = null;

  constructor(
    private readonly worksheet: boolean,
    private readonly maxCellBytes: number,
  ) {}

  /** What may be passed on of `bytes`: whole characters, the rest held for the next chunk. */
  passable(bytes: Buffer): Buffer {
    const joined = this.held ? Buffer.concat([this.held, bytes]) : bytes;
    const whole = wholeCharacters(joined);
    this.held = whole < joined.length ? Buffer.from(joined.subarray(whole)) : null;
    return joined.subarray(0, whole);
  }

  /**
   * Reads one chunk. Null when all of it may be passed on; for a shared string over the limit, where to cut the
   * chunk and the XML that closes what is open there.
   */
  scan(input: Buffer): { at: number; close: string } | null {
    let i = 0;
    const length = input.length;
    while (i < length) {
      if (this.state === TEXT) {
        // A byte loop: the runs between tags are short, and Buffer.indexOf costs more per call than it saves.
        let stop = i;
        if (!this.counting) {
          while (stop < length && input[stop] !== LT) stop++;
          this.runBytes += stop - i;
          if (this.runBytes > this.maxCellBytes) throw this.longRun();
        } else {
          for (; stop < length; stop++) {
            const b = input[stop];
            if (b === LT) break;
            if (b === AMP) {
              this.state = ENTITY;
              this.entity = '&';
              this.escape = 0;
              break;
            }
            this.cellBytes++;
            const undecided = this.excelEscape(b);
            if (this.cellBytes - undecided > this.maxCellBytes) return this.overLimit(stop, '');
          }
          if (this.state === ENTITY) {
            i = stop + 1;
            continue;
          }
        }
        if (stop === length) break;
        i = stop + 1;
        this.quote = 0;
        if (input[i] === 0x21 && input.subarray(i, i + CDATA_OPEN.length).equals(CDATA_OPEN)) {
          i += CDATA_OPEN.length;
          this.state = CDATA;
          this.cdataClose = 0;
          this.runBytes = 0;
        } else {
          this.state = TAG;
        }
      } else if (this.state === TAG) {
        // Up to the tag's `>`, which may also stand inside a quoted attribute value.
        let j = i;
        let quote = this.quote;
        for (; j < length; j++) {
          const b = input[j];
          if (quote !== 0) {
            if (b === quote) quote = 0;
          } else if (b === QUOTE || b === APOS) quote = b;
          else if (b === GT) break;
        }
        this.quote = quote;
        if (j === length) {
          this.tagParts.push(Buffer.from(input.subarray(i)));
          this.tagLength += j - i;
          if (this.tagLength > MAX_TAG_BYTES) throw new Error(`an XML tag is over ${MAX_TAG_BYTES} bytes`);
          break;
        }
        if (this.tagParts.length > 0) {
          const whole = Buffer.concat([...this.tagParts, input.subarray(i, j)]);
          this.tagParts = [];
          this.tagLength = 0;
          this.onTag(whole, 0, whole.length);
        } else {
          if (j - i > MAX_TAG_BYTES) throw new Error(`an XML tag is over ${MAX_TAG_BYTES} bytes`);
          this.onTag(input, i, j);
        }
        i = j + 1;
        this.state = TEXT;
        this.runBytes = 0;
      } else if (this.state === ENTITY) {
        const b = input[i++];
        this.entity += String.fromCharCode(b);
        if (b === SEMI || this.entity.length > MAX_ENTITY_BYTES) {
          this.state = TEXT;
          // A well-formed entity counts as the bytes it stands for; anything else as it is written.
          this.cellBytes += b === SEMI ? entityBytes(this.entity) : this.entity.length;
          if (this.cellBytes > this.maxCellBytes) return this.overLimit(i, '');
        }
      } else {
        // CDATA, which Excel does not write but XML allows in a cell's text.
        const b = input[i++];
        this.cdataClose = b === CDATA_CLOSE[this.cdataClose] ? this.cdataClose + 1 : b === CDATA_CLOSE[0] ? 1 : 0;
        if (this.cdataClose === CDATA_CLOSE.length) {
          this.state = TEXT;
          this.runBytes = 0;
        } else if (!this.counting) {
          if (++this.runBytes > this.maxCellBytes) throw this.longRun();
        } else if (++this.cellBytes > this.maxCellBytes) {
          return this.overLimit(i, ']]>');
        }
      }
    }
    return null;
  }

  /**
   * Follows Excel's `_xHHHH_` escapes (a carriage return in a cell is written `_x000D_`) through byte `b`, already
   * counted: returns how many of the counted bytes the escape under way will not take once decoded (one character).
   */
  private excelEscape(b: number): number {
    const at = this.escape;
    if (b === 0x5f && at === 6) {
      this.escape = 0;
      this.cellBytes -= 6;
      return 0;
    }
    this.escape = b === 0x5f ? 1 : at === 1 ? (b === 0x78 ? 2 : 0) : at >= 2 && at <= 5 && isHex(b) ? at + 1 : 0;
    return this.escape > 1 ? this.escape - 1 : 0;
  }

  /** One tag's bytes, `<` and `>` left out. */
  private onTag(buf: Buffer, start: number, end: number): void {
    const first = buf[start];
    if (first === 0x3f || first === 0x21) return; // <?xml ...?>, <!-- ... -->
    const closing = first === 0x2f;
    const qualifiedStart = closing ? start + 1 : start;
    let nameStart = qualifiedStart;
    let nameEnd = nameStart;
    while (nameEnd < end && !isNameEnd(buf[nameEnd])) {
      if (buf[nameEnd] === 0x3a) nameStart = nameEnd + 1; // a prefix (x:c) is left out
      nameEnd++;
    }
    const local = localName(buf, nameStart, nameEnd);
    const selfClosing = buf[end - 1] === 0x2f;
    this.escape = 0;
    if (closing) {
      if (!this.worksheet) this.open.pop();
      this.counting = false;
      if (local === C) this.inCell = false;
      return;
    }
    if (!this.worksheet) {
      if (!selfClosing) this.open.push(buf.toString('latin1', qualifiedStart, nameEnd));
      if (local === SI) {
        this.entry++;
        this.cellBytes = 0;
      }
      this.counting = !selfClosing && local === T;
      return;
    }
    // Only remembered here, and read only for a cell over the limit: a big sheet has tens of millions of tags.
    if (local === ROW) {
      this.rowTag = buf;
      this.rowTagStart = start;
      this.rowTagEnd = end;
      this.rowsSeen++;
      this.cellsInRow = 0;
    } else if (local === C) {
      this.cellTag = buf;
      this.cellTagStart = start;
      this.cellTagEnd = end;
      this.cellsInRow++;
      this.cellBytes = 0;
      this.inCell = !selfClosing;
    }
    this.counting = this.inCell && !selfClosing && (local === V || local === T);
  }

  /** The cell being read, as its `r` attributes say (a writer may leave them out: then counted). */
  private oversizedCell(): OversizedCell {
    const cell = this.cellTag ? cellReference(this.cellTag, this.cellTagStart, this.cellTagEnd) : null;
    const row = this.rowTag ? cellReference(this.rowTag, this.rowTagStart, this.rowTagEnd) : null;
    const line = cell && cell.row > 0 ? cell.row : row && row.row > 0 ? row.row : this.rowsSeen;
    const column = cell && cell.column > 0 ? cell.column : this.cellsInRow;
    return new OversizedCell(line, column, this.maxCellBytes, false, true);
  }

  /** The cell being read is over the limit: the worksheet stops at `at`; the shared strings end there, closed. */
  private overLimit(at: number, reopen: string): { at: number; close: string } {
    if (this.worksheet) {
      this.failure = this.oversizedCell();
      return { at, close: '' };
    }
    return { at, close: reopen + [...this.open].reverse().map((name) => `</${name}>`).join('') };
  }

  /** A text run outside any cell's counted text has passed the limit. */
  private longRun(): Error {
    if (this.worksheet && this.inCell) return this.oversizedCell();
    return new Error(`an XML text is over ${this.maxCellBytes} bytes outside any cell`);
  }
}

function isHex(b: number): boolean {
  return (b >= 0x30 && b <= 0x39) || ((b | 0x20) >= 0x61 && (b | 0x20) <= 0x66);
}

function isNameEnd(b: number): boolean {
  return b === 0x20 || b === 0x2f || b === 0x09 || b === 0x0a || b === 0x0d;
}

function localName(buf: Buffer, start: number, end: number): number {
  const n = end - start;
  if (n === 1) return buf[start] === 0x63 ? C : buf[start] === 0x76 ? V : buf[start] === 0x74 ? T : OTHER;
  if (n === 2) return buf[start] === 0x73 && buf[start + 1] === 0x69 ? SI : OTHER;
  if (n === 3) return buf[start] === 0x72 && buf[start + 1] === 0x6f && buf[start + 2] === 0x77 ? ROW : OTHER;
  return OTHER;
}

/** The `r` attribute of a `<row>` or `<c>` tag: its column letters as a number (0 for none) and its row number. */
function cellReference(buf: Buffer, start: number, end: number): { column: number; row: number } | null {
  for (let k = start + 1; k + 3 < end; k++) {
    if (buf[k] !== 0x72 || !isNameEnd(buf[k - 1]) || buf[k + 1] !== 0x3d) continue; // ` r=`
    const q = buf[k + 2];
    if (q !== QUOTE && q !== APOS) return null;
    let column = 0;
    let row = 0;
    for (let m = k + 3; m < end && buf[m] !== q; m++) {
      const b = buf[m];
      if (b >= 0x30 && b <= 0x39) row = row * 10 + (b - 0x30);
      else if (row === 0 && (b | 0x20) >= 0x61 && (b | 0x20) <= 0x7a) column = column * 26 + ((b | 0x20) - 0x60);
      else return null;
    }
    return { column, row };
  }
  return null;
}

/** The UTF-8 bytes an entity (`&amp;`, `&#233;`, `&#x1F600;`) stands for. */
function entityBytes(entity: string): number {
  const numeric = /^&#(x[0-9a-f]+|\d+);$/i.exec(entity);
  if (!numeric) return /^&(amp|lt|gt|quot|apos);$/.test(entity) ? 1 : entity.length;
  const code = numeric[1][0].toLowerCase() === 'x' ? parseInt(numeric[1].slice(1), 16) : parseInt(numeric[1], 10);
  return code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
}

/** How many of `bytes` end at a whole UTF-8 character (a cut multi-byte character is left for the next chunk). */
function wholeCharacters(bytes: Buffer): number {
  let start = bytes.length - 1;
  while (start >= 0 && start > bytes.length - 4 && (bytes[start] & 0xc0) === 0x80) start--;
  if (start < 0) return bytes.length;
  const lead = bytes[start];
  const length = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
  return start + length <= bytes.length ? bytes.length : start;
}
