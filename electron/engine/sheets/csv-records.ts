const LF = 10;
const CR = 13;
const QUOTE = 34;

export interface ParsedText {
  records: string[][];
  /** Where the text not parsed yet begins (a record cut short by the end of the text); the text's length when final. */
  cursor: number;
  /** The last record has a quote that is never closed, so it runs to the end of the text (final only). */
  unclosed: boolean;
}

/**
 * Splits CSV text into records as a spreadsheet app reads them: CRLF, LF and CR each end a record, in any mix (files
 * joined from several exports), while inside quotes a line break is part of the cell. The quote rules are Papa Parse's,
 * which read Matchdesk's sheets before: a quote opens a cell only at its start, "" inside is one quote, spaces may
 * come between the closing quote and the delimiter or line break, and any other quote is text, but only on the line
 * of the first one followed by text: with no closing quote there, the cell ends as a spreadsheet app ends it (the
 * quoted part, then the text after it up to the delimiter or line break), not rows later. Not `final`, the text
 * after the last whole record is left for the next call (cursor), so a record cut in two by a chunk is read whole. A
 * line break that ends the text ends its last record: no empty record follows it.
 */
export function parseCsvText(input: string, delimiter: string, final: boolean): ParsedText {
  // A CR at the end of a chunk may be the first half of a CRLF: it waits for the text that follows.
  const end = !final && input.charCodeAt(input.length - 1) === CR ? input.length - 1 : input.length;
  if (input.indexOf('"') === -1) return plainRecords(input, end, delimiter, final);
  const records: string[][] = [];
  const delim = delimiter.charCodeAt(0);
  const incomplete = (recordStart: number): ParsedText => ({ records, cursor: recordStart, unclosed: false });
  let row: string[] = [];
  let recordStart = 0;
  let cursor = 0;
  let nextDelim = input.indexOf(delimiter);
  let nextQuote = input.indexOf('"');
  let nextLf = input.indexOf('\n');
  let nextCr = input.indexOf('\r');
  if (nextCr >= end) nextCr = -1;
  for (;;) {
    if (cursor >= end) {
      if (!final) return incomplete(recordStart);
      // A delimiter ended the text, so its last cell is empty; a line break ended it, so nothing more follows.
      if (row.length > 0) {
        row.push('');
        records.push(row);
      }
      return { records, cursor: input.length, unclosed: false };
    }
    if (nextLf !== -1 && nextLf < cursor) nextLf = input.indexOf('\n', cursor);
    if (nextCr !== -1 && nextCr < cursor) {
      nextCr = input.indexOf('\r', cursor);
      if (nextCr >= end) nextCr = -1;
    }
    const lineBreak = nextLf === -1 ? nextCr : nextCr === -1 ? nextLf : Math.min(nextLf, nextCr);
    if (row.length === 0) {
      // A record with no quote before its line break is split whole, as text without quotes is (most records of a
      // sheet with a few quoted cells).
      if (nextQuote !== -1 && nextQuote < cursor) nextQuote = input.indexOf('"', cursor);
      if (lineBreak !== -1 && (nextQuote === -1 || nextQuote > lineBreak)) {
        records.push(input.slice(cursor, lineBreak).split(delimiter));
        cursor = lineBreak + breakLength(input, lineBreak);
        recordStart = cursor;
        continue;
      }
    }
    if (input.charCodeAt(cursor) === QUOTE) {
      let q = cursor;
      let after = -1;
      // The first quote followed by text (`"Bob" Smith`), and the line break after it: the cell's closing quote is
      // looked for up to there only (`"He said "hi" to me"`), or the cell ends as a spreadsheet app ends it.
      let stray = -1;
      let strayLineEnd = -1;
      for (;;) {
        q = input.indexOf('"', q + 1);
        if (stray !== -1 && (q === -1 || q >= strayLineEnd)) {
          // No closing quote on the line of the first quote followed by text: as a spreadsheet app reads it, the
          // quoted part, then that text up to the next delimiter or line break (`"Bob" Smith Jr,` is `Bob Smith Jr`),
          // so one stray quote does not swallow the rows after it into one cell.
          q = stray;
          after = cellEnd(input, stray + 1, strayLineEnd, delim);
          break;
        }
        if (q === -1 || q >= end) {
          if (!final) return incomplete(recordStart);
          row.push(input.slice(cursor + 1));
          records.push(row);
          return { records, cursor: input.length, unclosed: true };
        }
        if (q + 1 < end && input.charCodeAt(q + 1) === QUOTE) {
          q++;
          continue;
        }
        let k = q + 1;
        while (k < end && isSpace(input.charCodeAt(k), delim)) k++;
        if (k >= end) {
          // The quote may yet be followed by another (an escaped quote) or by more text.
          if (!final) return incomplete(recordStart);
          after = k;
          break;
        }
        const c = input.charCodeAt(k);
        if (c === delim || c === LF || c === CR) {
          after = k;
          break;
        }
        // Any other character after it: the quote is text and the cell goes on, on this line.
        if (stray === -1) {
          // The next line break after it, from the positions kept for the whole text (each is searched for once).
          if (nextLf !== -1 && nextLf < q) nextLf = input.indexOf('\n', q);
          if (nextCr !== -1 && nextCr < q) {
            nextCr = input.indexOf('\r', q);
            if (nextCr >= end) nextCr = -1;
          }
          const at = nextLf === -1 ? nextCr : nextCr === -1 ? nextLf : Math.min(nextLf, nextCr);
          const lineEnd = at === -1 || at >= end ? -1 : at;
          if (lineEnd === -1 && !final) return incomplete(recordStart);
          stray = q;
          strayLineEnd = lineEnd === -1 ? end : lineEnd;
        }
      }
      // The quoted part, and after a stray quote the text that followed it on its line.
      row.push(q === stray ? `${unescaped(input.slice(cursor + 1, q))}${input.slice(q + 1, after)}` : unescaped(input.slice(cursor + 1, q)));
      if (after >= end) {
        records.push(row);
        return { records, cursor: input.length, unclosed: false };
      }
      if (input.charCodeAt(after) === delim) {
        cursor = after + 1;
        continue;
      }
      records.push(row);
      row = [];
      cursor = after + breakLength(input, after);
      recordStart = cursor;
      continue;
    }
    if (nextDelim !== -1 && nextDelim < cursor) nextDelim = input.indexOf(delimiter, cursor);
    if (nextDelim !== -1 && (lineBreak === -1 || nextDelim < lineBreak)) {
      row.push(input.slice(cursor, nextDelim));
      cursor = nextDelim + 1;
      continue;
    }
    if (lineBreak !== -1) {
      row.push(input.slice(cursor, lineBreak));
      records.push(row);
      row = [];
      cursor = lineBreak + breakLength(input, lineBreak);
      recordStart = cursor;
      continue;
    }
    if (!final) return incomplete(recordStart);
    row.push(input.slice(cursor));
    records.push(row);
    return { records, cursor: input.length, unclosed: false };
  }
}

/** Text without a quote: split at the line breaks, then at the delimiter (the common case, and the fast one). */
function plainRecords(input: string, end: number, delimiter: string, final: boolean): ParsedText {
  const text = end === input.length ? input : input.slice(0, end);
  const lines = splitLines(text);
  // Not final, the last line may be cut short; final, it is empty when a line break ended the text.
  const last = lines.length - 1;
  const whole = final && lines[last] !== '' ? lines.length : last;
  const records: string[][] = new Array(whole);
  for (let i = 0; i < whole; i++) records[i] = lines[i]!.split(delimiter);
  return { records, cursor: final ? input.length : text.length - lines[last]!.length, unclosed: false };
}

function splitLines(text: string): string[] {
  const cr = text.indexOf('\r');
  if (cr === -1) return text.split('\n');
  const lf = text.indexOf('\n');
  if (lf === -1) return text.split('\r');
  if (lf === cr + 1) {
    const lines = text.split('\r\n');
    if (lines.every((line) => line.indexOf('\n') === -1 && line.indexOf('\r') === -1)) return lines;
  }
  // A mix: split at LF, then at the CRs left in a piece (a string split each, quicker than one by a regular expression).
  const pieces = text.split('\n');
  const lines: string[] = [];
  for (let i = 0; i < pieces.length; i++) {
    const piece = pieces[i]!;
    if (piece.indexOf('\r') === -1) {
      lines.push(piece);
      continue;
    }
    const parts = piece.split('\r');
    // A CR right before the LF that ended this piece was one CRLF with it.
    if (i < pieces.length - 1 && piece.charCodeAt(piece.length - 1) === CR) parts.pop();
    for (const part of parts) lines.push(part);
  }
  return lines;
}

/** A quoted cell's text, each `""` one quote. */
function unescaped(raw: string): string {
  return raw.indexOf('"') === -1 ? raw : raw.replaceAll('""', '"');
}

/** Where an unquoted cell from `from` ends: its delimiter, else `lineEnd` (the line break after it, or the text's end). */
function cellEnd(input: string, from: number, lineEnd: number, delim: number): number {
  for (let i = from; i < lineEnd; i++) if (input.charCodeAt(i) === delim) return i;
  return lineEnd;
}

function breakLength(input: string, at: number): number {
  return input.charCodeAt(at) === CR && input.charCodeAt(at + 1) === LF ? 2 : 1;
}

/** Blank characters Papa allowed after a closing quote (String.trim's), other than a line break and the delimiter. */
function isSpace(c: number, delim: number): boolean {
  if (c === delim || c === LF || c === CR) return false;
  return c === 32 || c === 9 || (c > 127 && String.fromCharCode(c).trim() === '') || (c >= 11 && c <= 12);
}
