import { describe, expect, it } from 'vitest';
import { buildDataset, publicPerson } from '../../electron/simulator/dataset';
import { FIND_SHAPES, PeopleIndex, renderFindReply, renderFindReplyBytes, type FindHit } from '../../electron/simulator/find';
import { PersonJsonBytes, ReplyWriter } from '../../electron/simulator/reply-bytes';

/** The reply as it was made before it was made of bytes: people's JSON strings joined, then encoded. */
function joinedReply(people: string[], results: FindHit[][], shape: string, withScores: boolean): string {
  const items = results.map((hits) => {
    const list = `[${hits.map((hit) => (withScores ? `{"score":${hit.score},${people[hit.person]!.slice(1)}` : people[hit.person]!)).join(',')}]`;
    if (shape === 'people') return `{"found":${hits.length > 0},"people":${list}}`;
    if (shape === 'results' || shape === 'data-matches') return `{"results":${list}}`;
    if (shape === 'matches') return `{"people":${list}}`;
    return list;
  });
  const array = `[${items.join(',')}]`;
  if (shape === 'matches') return `{"matches":${array}}`;
  if (shape === 'data') return `{"data":${array}}`;
  if (shape === 'data-matches') return `{"data":{"matches":${array}}}`;
  return array;
}

describe('reply bytes', () => {
  it('keeps each person\'s JSON as its exact UTF-8, ASCII or not, however large', () => {
    // Accents, a letter outside the BMP and a lone surrogate (which JSON.stringify escapes); some all ASCII.
    const texts = Array.from({ length: 3000 }, (_, i) => JSON.stringify(i % 3 === 0 ? { id: i, name: `Lukasz ${'e'.repeat(i % 700)}` } : { id: i, name: `Łukasz Nguyễn ${'é'.repeat(i % 700)} 𝒜 \ud800`, n: i }));
    texts.push(JSON.stringify({ id: 'huge', bio: 'ß'.repeat(5 * 1024 * 1024) }));
    const made = new Array<number>(texts.length).fill(0);
    const bytes = new PersonJsonBytes(texts.length, (i) => {
      made[i]!++;
      return texts[i]!;
    });
    // Asked for out of order, some more than once: each is serialized once.
    const order = [...texts.keys()].reverse().concat([0, 1500, texts.length - 1]);
    for (const i of order) {
      const expected = Buffer.from(texts[i]!);
      expect(bytes.byteLength(i)).toBe(expected.length);
      expect(bytes.text(i)).toBe(texts[i]);
      const target = Buffer.alloc(expected.length + 2, 0x2a);
      expect(bytes.copy(i, target, 1, 1)).toBe(expected.length - 1);
      expect(target.subarray(1, expected.length).equals(expected.subarray(1))).toBe(true);
      expect(target[0]).toBe(0x2a);
      expect(target[expected.length]).toBe(0x2a);
    }
    expect(made.every((count) => count === 1)).toBe(true);
  });

  it('writes past the capacity it was given', () => {
    const bytes = new PersonJsonBytes(2, (i) => (i === 0 ? '{"a":"é"}' : `{"b":"${'x'.repeat(500)}"}`));
    const out = new ReplyWriter(8);
    out.ascii('[');
    out.person(bytes, 0);
    out.ascii(',');
    out.person(bytes, 1, 1);
    out.ascii(']');
    expect(out.finish().toString('utf8')).toBe(`[{"a":"é"},"b":"${'x'.repeat(500)}"}]`);
  });

  it('renders every find shape, with and without scores, as the people\'s JSON strings joined would be', () => {
    const dataset = buildDataset(3000, 5);
    const index = new PeopleIndex(dataset);
    const people = dataset.people.map((person) => JSON.stringify(publicPerson(person)));
    // Non-ASCII people among them (the dataset has a share), a query with nobody, one person twice.
    const nonAscii = people.findIndex((text) => Buffer.byteLength(text) > text.length);
    expect(nonAscii).toBeGreaterThanOrEqual(0);
    const results: FindHit[][] = [
      [{ person: nonAscii, score: 0.987 }, { person: 3, score: 0.5 }],
      [],
      [{ person: 2999, score: 1 }, { person: nonAscii, score: 0.1 }, { person: 7, score: 0 }],
    ];
    for (const shape of FIND_SHAPES) {
      for (const withScores of [false, true]) {
        const expected = joinedReply(people, results, shape, withScores);
        expect(renderFindReplyBytes(index, results, shape, withScores).equals(Buffer.from(expected))).toBe(true);
        expect(renderFindReply(index, results, shape, withScores)).toBe(expected);
      }
    }
  });
});
