import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MalformedReplyError, ReplyNotJson, replyJson } from '../../../electron/engine/api';
import { replyBytesJson } from '../../../electron/engine/api/reply-ascii';
import { replyText } from '../../../electron/engine/api/reply-text';

// What replyBytesJson must stay: the reading it replaced for speed, the fatal decoder's text parsed.
function readOrRefused(read: () => unknown): { json: unknown } | { refused: string } {
  try {
    return { json: read() };
  } catch (error) {
    return { refused: error instanceof MalformedReplyError ? 'not UTF-8' : error instanceof ReplyNotJson ? 'not JSON' : String(error) };
  }
}

const reference = (bytes: Uint8Array) => readOrRefused(() => replyJson(replyText(bytes, 'find reply')));
const read = (bytes: Uint8Array) => readOrRefused(() => replyBytesJson(bytes, 'find reply'));

describe('replyBytesJson', () => {
  it('reads ASCII, accented, CJK and 4-byte text exactly, a leading byte order mark dropped once', () => {
    const reply = [[{ name: 'Zoë Müller', city: 'Łódź' }, { name: '東京 😀', title: 'Señor \\ "quoted"' }], [], [{ name: 'plain', n: 1.5 }]];
    const utf8 = Buffer.from(JSON.stringify(reply));
    expect(replyBytesJson(utf8, 'find reply')).toEqual(reply);
    expect(replyBytesJson(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), utf8]), 'find reply')).toEqual(reply);
    expect(read(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf, 0xef, 0xbb, 0xbf]), utf8]))).toEqual({ refused: 'not JSON' });
    // A view into a larger buffer, as a reply's body may be.
    const framed = Buffer.concat([Buffer.from('xx'), utf8, Buffer.from('yy')]);
    expect(replyBytesJson(framed.subarray(2, 2 + utf8.length), 'find reply')).toEqual(reply);
    // Larger than the buffer kept for escaping: grown as it is written.
    const long = [[{ name: `${'ü'.repeat(300_000)}x${'😀'.repeat(100_000)}` }]];
    expect(replyBytesJson(Buffer.from(JSON.stringify(long)), 'find reply')).toEqual(long);
  });

  it.each([
    ['bytes that are not UTF-8', [0x5b, 0x22, 0x4d, 0xfc, 0x22, 0x5d], 'not UTF-8'],
    ['a letter escaped by a backslash', [...Buffer.from('["\\'), 0xc3, 0xbc, ...Buffer.from('"]')], 'not JSON'],
    ['a letter after an escaped backslash', [...Buffer.from('["\\\\'), 0xc3, 0xbc, ...Buffer.from('"]')], 'read'],
    ['a letter inside a \\u escape', [...Buffer.from('["\\u00'), 0xc3, 0xbc, ...Buffer.from('"]')], 'not JSON'],
    ['a letter outside a string', [0x5b, 0xc2, 0xa0, 0x31, 0x5d], 'not JSON'],
    ['a reply cut off in a letter', [0x5b, 0x22, 0xe6, 0x9d], 'not UTF-8'],
  ])('reads or refuses %s as the decoded text is', (_what, bytes, outcome) => {
    const result = read(Uint8Array.from(bytes));
    expect(result).toEqual(reference(Uint8Array.from(bytes)));
    expect('refused' in result ? result.refused : 'read').toBe(outcome);
  });

  it('reads or refuses any bytes exactly as the decoded text is parsed', () => {
    const pieces = fc.oneof(
      fc.constantFrom('[', ']', '{', '}', '"', '\\', ',', ':', ' ', '1', 'u', '0', 'a', 'null', '\\u00', '\\\\', '"a":', 'é', 'ü', 'ł', '東', '😀', '\u2028'),
      fc.string({ unit: 'grapheme', maxLength: 4 }),
    );
    const texts = fc.array(pieces, { maxLength: 24 }).map((parts) => parts.join(''));
    const bytes = fc.oneof(
      texts.map((text) => new Uint8Array(Buffer.from(text))),
      fc.record({ value: fc.jsonValue(), bom: fc.boolean() }).map(({ value, bom }) => new Uint8Array(Buffer.from(`${bom ? '\ufeff' : ''}${JSON.stringify(value)}`))),
      fc.array(fc.integer({ min: 0, max: 0xff }), { maxLength: 32 }).map((values) => Uint8Array.from(values)),
    );
    fc.assert(
      fc.property(bytes, (reply) => {
        expect(read(reply)).toEqual(reference(reply));
      }),
      { numRuns: 5000 },
    );
  });
});

describe('a reply of more values than a reply of people holds', () => {
  it('is refused before it is parsed, however few bytes its values take', () => {
    // 2.5 million empty objects in 7.5 MB (a find reply of 100 answers is ~110 kB): parsed, hundreds of MB.
    const many = Buffer.from(`[[${'{},'.repeat(2_500_000)}{}]]`);
    expect(() => replyBytesJson(many, 'find reply')).toThrow(MalformedReplyError);
    expect(() => replyBytesJson(many, 'find reply')).toThrow(/the find reply holds 5,000,003 values and keys, more than the 2,000,000 a reply of people may hold/);
  });

  it('reads a large reply of large records whole', () => {
    // 3 MB of one answer's long strings: few separators for their bytes.
    const record = JSON.stringify({ id: 'p1', full_name: 'Zoë Ångström', headline: 'x'.repeat(3_000_000) });
    expect(replyBytesJson(Buffer.from(`[[${record}]]`), 'find reply')).toEqual([[JSON.parse(record)]]);
  });
});
