// A reply's prepared answers as the verdict worker sends them (row-verdict.ts sentAnswers) and the engine's thread reads
// them back (receivedAnswers), through a real structured clone: what crosses is read back as it was made.
import { MessageChannel, receiveMessageOnPort } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { receivedAnswers, sentAnswers, type PreparedAnswers, type SentAnswers } from '../../../electron/engine/runs/row-verdict';

/** Sent through a MessagePort, as a worker's message is copied. */
function crossed(sent: SentAnswers): SentAnswers {
  const { port1, port2 } = new MessageChannel();
  try {
    port1.postMessage(sent);
    return receiveMessageOnPort(port2)!.message as SentAnswers;
  } finally {
    port1.close();
  }
}

describe('the answers a worker sends', () => {
  it('read back as prepared: people in blocks, with records or neither, answers that found nobody', () => {
    const block = { data: new Uint8Array([1, 2, 3]), count: 2 };
    const prepared: PreparedAnswers = {
      stored: [
        {
          people: [
            { digest: -9_000_000_000_000_000_000n, factsVersion: 4, facts: '["Zoë \\"Z\\" Ødegård","acme.com"]', inBlock: { block, position: 0 } },
            { digest: 2n ** 63n - 1n, record: { values: '[0,"Jane"]', shapes: ['["name"]'] }, factsVersion: 4, facts: '["Jane"]' },
          ],
          ranks: '[[1,0.9],[2,null]]',
        },
        { people: [], ranks: '[]' },
        { people: [{ digest: 7n, factsVersion: 3, facts: '[]', inBlock: { block, position: 1 } }, { digest: 8n, factsVersion: 4, facts: '{}' }], ranks: '[[1,null],[2,null]]' },
      ],
      counts: [2, 0, 2],
      values: [[['auto', 2, 1, null, 0, 0.9, 0.97, 'same name', 'auto', null, 'no_change', null, null, 0.97, 0.1, 1, 'same name', null]], null, []],
    };
    const read = receivedAnswers(crossed(sentAnswers(prepared)));
    expect(read).toEqual(prepared);
    // One block crosses once: the people in it still share it (store/lookups.ts addPeople stores it once).
    expect(read.stored[0]!.people[0]!.inBlock!.block).toBe(read.stored[2]!.people[0]!.inBlock!.block);
  });

  it('sends a reply with no answers, or no people, as such', () => {
    for (const prepared of [
      { stored: [], counts: [], values: [] },
      { stored: [{ people: [], ranks: '[]' }], counts: [0], values: [null] },
    ] satisfies PreparedAnswers[]) {
      expect(receivedAnswers(crossed(sentAnswers(prepared)))).toEqual(prepared);
    }
  });
});
