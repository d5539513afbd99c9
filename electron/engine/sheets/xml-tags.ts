import { MAX_TAG_BYTES } from './xml-text-guard';

/** Local names (namespace prefix left out) the xlsx readers act on, as numbers: no string is made for a tag's name. */
export const OTHER = 0;
export const C = 1;
export const V = 2;
export const T = 3;
export const IS = 4;
export const SI = 5;
export const ROW = 6;
export const RPH = 7;
export const SHEET_DATA = 8;

export interface XmlHandler {
  /** A start tag or an empty element (`empty`); its name and attributes are xml[from, to). */
  open(tag: number, xml: string, from: number, to: number, empty: boolean): void;
  close(tag: number): void;
  /** Character data as written (entities not decoded, a CDATA section's escaped): only while `collecting`. */
  text(raw: string): void;
  collecting: boolean;
  /** Set once nothing after this point matters: the rest is not scanned. */
  done: boolean;
  /**
   * For the commonest element, read whole in one step: called for a start tag whose name starts with the character
   * `quickCode`, it returns where the element ends, or -1 to have it scanned tag by tag (not whole in this chunk, or
   * not of the shape it reads).
   */
  quick?(xml: string, lt: number): number;
  quickCode?: number;
}

/**
 * The unguarded scan met a text or tag long enough that a limit may be at stake (a cell over the limit, a tag over
 * guardXmlText's): the part is read again through the guard, which settles it exactly and names what is too large.
 */
export class NeedsGuard extends Error {
  override readonly name = 'NeedsGuard';
}

/**
 * A scan of an xlsx part's XML as it streams in, tag by tag, for the readers of worksheets and shared strings: no DOM,
 * no object per node. Text reaches the handler only while it asks for it, and a tag cut by the end of a chunk waits
 * for the next. What the scan keeps between chunks is at most a tag, a comment or a CDATA section, which `maxChars`
 * or the guard in front bounds.
 */
export class XmlTags {
  private rest = '';
  /** Characters of the text run under way, for the unguarded scan's bound. */
  private run = 0;

  /**
   * `maxChars`: a text run or a kept tag (comment, CDATA section) longer than this throws NeedsGuard. Unbounded when
   * guardXmlText is in front; for the unguarded scan, a third of the cell limit (a character is at most 3 bytes).
   */
  constructor(
    private readonly handler: XmlHandler,
    private readonly maxChars = Infinity,
  ) {}

  feed(chunk: string): void {
    const h = this.handler;
    const xml = this.rest.length > 0 ? this.rest + chunk : chunk;
    this.rest = '';
    const length = xml.length;
    let i = 0;
    while (i < length && !h.done) {
      const lt = xml.indexOf('<', i);
      if (lt < 0) {
        this.run += length - i;
        if (this.run > this.maxChars) throw new NeedsGuard();
        // An entity cut here is decoded whole later: the handler decodes what it gathered once its element closes.
        if (h.collecting) h.text(xml.slice(i));
        return;
      }
      if (lt > i) {
        if (this.run + lt - i > this.maxChars) throw new NeedsGuard();
        if (h.collecting) h.text(xml.slice(i, lt));
      }
      this.run = 0;
      if (lt + 1 >= length) {
        this.keep(xml, lt);
        return;
      }
      const next = xml.charCodeAt(lt + 1);
      if (next === 0x21 || next === 0x3f) {
        const end = this.special(xml, lt);
        if (end < 0) {
          this.keep(xml, lt);
          return;
        }
        i = end;
        continue;
      }
      if (next === h.quickCode) {
        const end = h.quick!(xml, lt);
        if (end >= 0) {
          i = end;
          continue;
        }
      }
      const gt = tagEnd(xml, lt + 1);
      if (gt < 0) {
        this.keep(xml, lt);
        return;
      }
      if (next === 0x2f) h.close(localTag(xml, lt + 2, gt));
      else {
        const empty = xml.charCodeAt(gt - 1) === 0x2f;
        h.open(localTag(xml, lt + 1, gt), xml, lt + 1, empty ? gt - 1 : gt, empty);
      }
      i = gt + 1;
    }
  }

  /** Keeps the tag cut by the chunk's end, from `lt`, for the next chunk. */
  private keep(xml: string, lt: number): void {
    // guardXmlText refuses a tag over MAX_TAG_BYTES, which may be a third of that in characters; behind it, nothing to check.
    if (this.maxChars !== Infinity && xml.length - lt > Math.min(this.maxChars, MAX_TAG_BYTES / 3)) throw new NeedsGuard();
    this.rest = xml.slice(lt);
  }

  /** Throws when the part ended inside a tag, a comment or a CDATA section. */
  end(): void {
    if (this.rest.length > 0) throw new Error('the XML ends inside a tag');
  }

  /** A CDATA section, comment, declaration or processing instruction at `lt`: where it ends, or -1 when it is cut. */
  private special(xml: string, lt: number): number {
    if (xml.startsWith('![CDATA[', lt + 1)) {
      const end = xml.indexOf(']]>', lt + 9);
      if (end < 0) return -1;
      // Escaped, as the text around it is decoded as a whole.
      if (this.handler.collecting) this.handler.text(xml.slice(lt + 9, end).replaceAll('&', '&amp;'));
      return end + 3;
    }
    // A comment may be cut anywhere in `<!--`: wait for its start to say which it is.
    if (xml.length - lt < 4) return -1;
    if (xml.startsWith('!--', lt + 1)) {
      const end = xml.indexOf('-->', lt + 4);
      return end < 0 ? -1 : end + 3;
    }
    const end = tagEnd(xml, lt + 1);
    return end < 0 ? -1 : end + 1;
  }
}

/** The `>` that ends the tag starting at `from`, past any `>` in a quoted attribute value; -1 when the tag is cut. */
function tagEnd(xml: string, from: number): number {
  let gt = xml.indexOf('>', from);
  for (let k = from; k < gt; k++) {
    const code = xml.charCodeAt(k);
    if (code !== 0x22 && code !== 0x27) continue;
    k = xml.indexOf(code === 0x22 ? '"' : "'", k + 1);
    if (k < 0) return -1;
    if (k > gt) gt = xml.indexOf('>', k + 1);
    if (gt < 0) return -1;
  }
  return gt;
}

/** The tag's local name, from `from` to the first space, `/` or `to`, as one of the numbers above. */
function localTag(xml: string, from: number, to: number): number {
  let start = from;
  let end = from;
  for (; end < to; end++) {
    const code = xml.charCodeAt(end);
    if (code === 0x3a) start = end + 1;
    else if (code <= 0x20 || code === 0x2f) break;
  }
  const a = xml.charCodeAt(start);
  switch (end - start) {
    case 1:
      return a === 0x63 ? C : a === 0x76 ? V : a === 0x74 ? T : OTHER;
    case 2: {
      const b = xml.charCodeAt(start + 1);
      return a === 0x69 && b === 0x73 ? IS : a === 0x73 && b === 0x69 ? SI : OTHER;
    }
    case 3:
      return xml.startsWith('row', start) ? ROW : xml.startsWith('rPh', start) ? RPH : OTHER;
    case 9:
      return xml.startsWith('sheetData', start) ? SHEET_DATA : OTHER;
    default:
      return OTHER;
  }
}

/**
 * Calls `visit` with each attribute's local name and value (entities not decoded) of the tag xml[from, to); a
 * malformed rest (no `=`, no quote) ends the list.
 */
export function forEachAttribute(xml: string, from: number, to: number, visit: (name: string, value: string) => void): void {
  let i = from;
  while (i < to && xml.charCodeAt(i) > 0x20 && xml.charCodeAt(i) !== 0x2f) i++; // the tag's name
  for (;;) {
    const eq = xml.indexOf('=', i);
    if (eq < 0 || eq >= to) return;
    let nameEnd = eq;
    while (nameEnd > i && xml.charCodeAt(nameEnd - 1) <= 0x20) nameEnd--;
    let nameStart = nameEnd;
    while (nameStart > i && xml.charCodeAt(nameStart - 1) > 0x20 && xml.charCodeAt(nameStart - 1) !== 0x3a) nameStart--;
    let q = eq + 1;
    while (q < to && xml.charCodeAt(q) <= 0x20) q++;
    const quote = xml[q];
    if (quote !== '"' && quote !== "'") return;
    const close = xml.indexOf(quote, q + 1);
    if (close < 0 || close >= to) return;
    visit(xml.slice(nameStart, nameEnd), xml.slice(q + 1, close));
    i = close + 1;
  }
}
