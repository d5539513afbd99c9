import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MalformedReplyError } from '../../../electron/engine/api';
import { replyText } from '../../../electron/engine/api/reply-text';

// What replyText must stay: the WHATWG decoder, fatal, that it replaced for speed.
const reference = new TextDecoder('utf-8', { fatal: true });

function decodedOrRefused(decode: () => string): { text: string } | { refused: true } {
  try {
    return { text: decode() };
  } catch {
    return { refused: true };
  }
}

describe('replyText', () => {
  it('decodes ASCII, accented and 4-byte text exactly, a leading byte order mark dropped once', () => {
    const text = JSON.stringify({ results: [{ name: 'Zoë Müller' }, { name: '東京 😀' }, { name: 'plain' }] });
    const utf8 = Buffer.from(text);
    expect(replyText(utf8, 'find reply')).toBe(text);
    expect(replyText(Buffer.from('{"a":1}'), 'find reply')).toBe('{"a":1}');
    expect(replyText(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), utf8]), 'find reply')).toBe(text);
    const twice = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf, 0xef, 0xbb, 0xbf]), utf8]);
    expect(replyText(twice, 'find reply')).toBe(reference.decode(twice));
    expect(replyText(new Uint8Array(0), 'find reply')).toBe('');
    // A view into a larger buffer, as a reply's body may be.
    const framed = Buffer.concat([Buffer.from('xx'), utf8, Buffer.from('yy')]);
    expect(replyText(framed.subarray(2, 2 + utf8.length), 'find reply')).toBe(text);
  });

  it.each([
    ['a lone continuation byte', [0x7b, 0x80, 0x7d]],
    ['a sequence cut short', [0x22, 0xc3]],
    ['an overlong slash', [0xc0, 0xaf]],
    ['an encoded surrogate', [0xed, 0xa0, 0x80]],
    ['a code point past U+10FFFF', [0xf4, 0x90, 0x80, 0x80]],
    ['Latin-1 text', [0x4d, 0xfc, 0x6c, 0x6c, 0x65, 0x72]],
  ])('refuses %s, naming the reply', (_what, bytes) => {
    expect(() => replyText(Uint8Array.from(bytes), 'find reply')).toThrow(MalformedReplyError);
    expect(() => replyText(Uint8Array.from(bytes), 'find reply')).toThrow('the find reply is not valid UTF-8 text, so no name in it can be trusted');
  });

  it('decodes or refuses any bytes exactly as the fatal decoder does', () => {
    const utf8ish = fc.array(fc.oneof(fc.integer({ min: 0, max: 0x7f }), fc.integer({ min: 0x80, max: 0xff }), fc.constantFrom(0xef, 0xbb, 0xbf, 0xed, 0xf0, 0xf4)), { maxLength: 64 });
    const mixed = fc.oneof(
      utf8ish.map((bytes) => Uint8Array.from(bytes)),
      fc.string({ unit: 'binary', maxLength: 64 }).map((text) => new Uint8Array(Buffer.from(text))),
    );
    fc.assert(
      fc.property(mixed, (bytes) => {
        expect(decodedOrRefused(() => replyText(bytes, 'reply'))).toEqual(decodedOrRefused(() => reference.decode(bytes)));
      }),
      { numRuns: 3000 },
    );
  });
});
