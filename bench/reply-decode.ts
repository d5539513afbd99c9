// Decoding find replies by replyText (a fatal TextDecoder) and by the other ways that also refuse bytes that are not
// UTF-8, in microseconds a reply (the best of 15 rounds): a made-up reply of about 100 kB with a few Latin-1 letters,
// the same all ASCII, and replies the simulator renders for 100 queries of its own people, whose names hold letters
// beyond Latin-1 (ł, ř, ồ), so every way must build a two-byte string. Which is quickest depends on the Node that runs
// it: on Node 20 checking with isUtf8 and converting with transcode took a fraction of replyText's time. Run it with
// the Node in question (Electron's, say):
//
//   npx tsx bench/reply-decode.ts
//   node --import tsx bench/reply-decode.ts
import { isUtf8, transcode } from 'node:buffer';
import { replyText } from '../electron/engine/api/reply-text';
import { buildDataset, PeopleIndex } from '../electron/simulator';
import { renderFindReply } from '../electron/simulator/find';

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });
const people = Array.from({ length: 400 }, (_, i) => ({
  id: `p${i}`,
  name: i % 97 === 0 ? 'Zoë Müller' : 'John Smith',
  title: 'Senior Engineer',
  company: { name: 'Acme Widgets Ltd', domain: 'acme.example' },
  email: `john.smith${i}@example.com`,
  headline: 'x'.repeat(120),
}));
const accented = Buffer.from(JSON.stringify([people]));
const ascii = Buffer.from(accented.toString().replace(/[\u0080-\uffff]/g, 'e'));

/** 40 replies to 100 queries each, one or two of 20,000 people found for each, as the simulator sends them. */
function simulatorReplies(): Buffer[] {
  const index = new PeopleIndex(buildDataset(20_000, 1));
  let seed = 7;
  const random = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32;
  const hits = () => Array.from({ length: 1 + Math.floor(random() * 2) }, () => ({ person: Math.floor(random() * 20_000), score: 1 }));
  return Array.from({ length: 40 }, () => Buffer.from(renderFindReply(index, Array.from({ length: 100 }, hits), 'array', false)));
}

const checked = (bytes: Buffer): Buffer => {
  if (!isUtf8(bytes)) throw new Error('not UTF-8');
  return bytes;
};
const ways: [string, (bytes: Buffer) => string][] = [
  ['replyText', (bytes) => replyText(bytes, 'find reply')],
  ['isUtf8 + toString', (bytes) => checked(bytes).toString('utf8')],
  ['isUtf8 + transcode', (bytes) => transcode(checked(bytes), 'utf8', 'utf16le').toString('utf16le')],
  // A lenient decode is exact unless it made a U+FFFD; only then is the strict one asked whether the reply sent one.
  [
    'toString, strict on U+FFFD',
    (bytes) => {
      const text = bytes.toString('utf8');
      if (text.includes('\uFFFD')) strictUtf8.decode(bytes);
      return text;
    },
  ],
];
const sizeOf = (replies: Buffer[]) => Math.round(replies.reduce((n, b) => n + b.length, 0) / replies.length);
const beyondAscii = (replies: Buffer[]) => Math.round(replies.reduce((n, b) => n + b.length - b.toString().length, 0) / replies.length);
const sim = simulatorReplies();
for (const [label, replies] of [
  [`${sizeOf([accented]).toLocaleString('en-US')} bytes, ${beyondAscii([accented])} of them beyond ASCII`, [accented]],
  [`${sizeOf([ascii]).toLocaleString('en-US')} bytes, all ASCII`, [ascii]],
  [`simulator replies of ${sizeOf(sim).toLocaleString('en-US')} bytes, ${beyondAscii(sim)} beyond ASCII, on average`, sim],
] as const) {
  const best = ways.map(() => Infinity);
  const repeat = Math.ceil(200 / replies.length);
  for (let round = 0; round < 15; round++) {
    ways.forEach(([, decode], k) => {
      const started = process.hrtime.bigint();
      for (let i = 0; i < repeat; i++) for (const bytes of replies) decode(bytes);
      best[k] = Math.min(best[k]!, Number(process.hrtime.bigint() - started) / (repeat * replies.length) / 1000);
    });
  }
  process.stdout.write(`Node ${process.versions.node}, ${label}: ${ways.map(([name], k) => `${name} ${best[k]!.toFixed(0)} µs`).join(', ')}\n`);
}
