// Decoding one reply of about 100 kB, all ASCII and with a few accented names, by replyText (a fatal TextDecoder)
// and by the other ways that also refuse bytes that are not UTF-8: the best of 25 rounds of 200 decodes each, in
// microseconds a reply. Which is quickest depends on the Node that runs it: on Node 24 replyText is as quick as any
// (a few accented letters cost it a few times an all-ASCII reply), on Node 20 checking with isUtf8 and converting with
// transcode took a fraction of its time. Run it with the Node in question (Electron's, say):
//
//   npx tsx bench/reply-decode.ts
//   node --import tsx bench/reply-decode.ts
import { isUtf8, transcode } from 'node:buffer';
import { replyText } from '../electron/engine/api/reply-text';

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
const checked = (bytes: Buffer): Buffer => {
  if (!isUtf8(bytes)) throw new Error('not UTF-8');
  return bytes;
};
const ways: [string, (bytes: Buffer) => string][] = [
  ['replyText', (bytes) => replyText(bytes, 'find reply')],
  ['isUtf8 + toString', (bytes) => checked(bytes).toString('utf8')],
  ['isUtf8 + transcode', (bytes) => transcode(checked(bytes), 'utf8', 'utf16le').toString('utf16le')],
];
for (const [label, bytes] of [
  [`${accented.length.toLocaleString('en-US')} bytes, ${accented.length - accented.toString().length} of them beyond ASCII`, accented],
  [`${ascii.length.toLocaleString('en-US')} bytes, all ASCII`, ascii],
] as const) {
  const best = ways.map(() => Infinity);
  for (let round = 0; round < 25; round++) {
    ways.forEach(([, decode], k) => {
      const started = process.hrtime.bigint();
      for (let i = 0; i < 200; i++) decode(bytes);
      best[k] = Math.min(best[k]!, Number(process.hrtime.bigint() - started) / 200 / 1000);
    });
  }
  process.stdout.write(`Node ${process.versions.node}, ${label}: ${ways.map(([name], k) => `${name} ${best[k]!.toFixed(0)} µs`).join(', ')}\n`);
}
