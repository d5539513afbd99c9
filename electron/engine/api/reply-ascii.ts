import { isAscii, isUtf8 } from 'node:buffer';
import { checkReplyValues } from './reply-limits';
import { replyJson } from './reply-json';
import { replyText } from './reply-text';

// A reply's JSON read from its bytes without decoding them into a two-byte string. Nearly every find reply holds a
// letter beyond Latin-1, so its text was a two-byte string twice the reply's size: past V8's largest ordinary object
// (128 kB), each was a large object of its own, mapped and cleared for the one parse. Written instead as ASCII, each
// such letter as its JSON escape (`\u00fc`), the text is a one-byte string the size of the reply, and JSON.parse makes
// of the escapes the very strings it would have read.

/**
 * The JSON of a reply body, read as replyJson(replyText(bytes, what)) reads it, and refused alike:
 * MalformedReplyError naming `what` for bytes that are not UTF-8 or hold too many values to parse
 * (reply-limits.ts checkReplyValues), ReplyNotJson for text that is not JSON.
 */
export function replyBytesJson(bytes: Uint8Array, what: string): unknown {
  const body = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  checkReplyValues(body, what);
  if (isAscii(body)) return replyJson(body.toString('latin1'));
  // Checked whole first (as the fatal decoder does), so the escaping below meets only well-formed sequences.
  const text = isUtf8(body) ? escapedText(body) : null;
  return replyJson(text ?? replyText(bytes, what));
}

/**
 * The UTF-8 text as ASCII, each character beyond it as its JSON escape (two for one beyond U+FFFF, as JSON writes
 * it); a leading byte order mark dropped, as the decoder drops it. Null for a character right after a backslash that
 * escapes it: not JSON, whose own fault the decoded text then meets (escaped, it would read as a backslash and text).
 */
function escapedText(utf8: Buffer): string | null {
  const end = utf8.length;
  let from = end >= 3 && utf8[0] === 0xef && utf8[1] === 0xbb && utf8[2] === 0xbf ? 3 : 0;
  let out = escapeBuffer(end + ESCAPED_MAX);
  let at = 0;
  while (from < end) {
    const next = asciiRunEnd(utf8, from, end);
    if (out.length < at + (next - from) + ESCAPED_MAX) out = grownEscapeBuffer(out, at, at + (end - from) + ESCAPED_MAX);
    at += utf8.copy(out, at, from, next);
    if (next === end) break;
    let backslashes = 0;
    while (backslashes < at && out[at - 1 - backslashes] === BACKSLASH) backslashes++;
    if (backslashes % 2 === 1) return null;
    const lead = utf8[next]!;
    let code: number;
    if (lead < 0xe0) {
      code = ((lead & 0x1f) << 6) | (utf8[next + 1]! & 0x3f);
      from = next + 2;
    } else if (lead < 0xf0) {
      code = ((lead & 0x0f) << 12) | ((utf8[next + 1]! & 0x3f) << 6) | (utf8[next + 2]! & 0x3f);
      from = next + 3;
    } else {
      code = ((lead & 0x07) << 18) | ((utf8[next + 1]! & 0x3f) << 12) | ((utf8[next + 2]! & 0x3f) << 6) | (utf8[next + 3]! & 0x3f);
      from = next + 4;
    }
    if (code < 0x10000) at = writeEscape(out, at, code);
    else {
      at = writeEscape(out, at, 0xd800 + ((code - 0x10000) >> 10));
      at = writeEscape(out, at, 0xdc00 + ((code - 0x10000) & 0x3ff));
    }
  }
  return out.toString('latin1', 0, at);
}

/**
 * Where the run of ASCII bytes from `from` ends: a function of its own, so V8 optimizes it whole. Written inline in
 * escapedText's outer loop, the scan was compiled on stack replacement for that inner loop alone and thrown away each
 * time the loop ended (`--trace-deopt`: "exit from OSR'd inner loop"; docs/performance.md has the count).
 */
function asciiRunEnd(utf8: Buffer, from: number, end: number): number {
  let next = from;
  while (next < end && utf8[next]! < 0x80) next++;
  return next;
}

const BACKSLASH = 0x5c;
/** The most one character's escapes take: two `\uXXXX`. */
const ESCAPED_MAX = 12;
const HEX_DIGITS = Buffer.from('0123456789abcdef', 'latin1');

function writeEscape(out: Buffer, at: number, unit: number): number {
  out[at] = BACKSLASH;
  out[at + 1] = 0x75;
  out[at + 2] = HEX_DIGITS[unit >> 12]!;
  out[at + 3] = HEX_DIGITS[(unit >> 8) & 15]!;
  out[at + 4] = HEX_DIGITS[(unit >> 4) & 15]!;
  out[at + 5] = HEX_DIGITS[unit & 15]!;
  return at + 6;
}

/** One buffer the escaped text is written into, kept for the next reply: a reply's size, unless one was far larger. */
let kept = Buffer.allocUnsafe(0);
const KEPT_MAX = 1024 * 1024;

function escapeBuffer(size: number): Buffer {
  if (kept.length >= size) return kept;
  const made = Buffer.allocUnsafeSlow(Math.max(size + (size >> 3), 64 * 1024));
  if (made.length <= KEPT_MAX) kept = made;
  return made;
}

/** A buffer of at least `size` bytes holding the first `used` bytes of `out`. */
function grownEscapeBuffer(out: Buffer, used: number, size: number): Buffer {
  const grown = escapeBuffer(Math.max(size, out.length * 2));
  if (grown !== out) out.copy(grown, 0, 0, used);
  return grown;
}
