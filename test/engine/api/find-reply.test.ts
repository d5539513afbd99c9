import { describe, expect, it } from 'vitest';
import { MalformedReplyError, parseFindReply } from '../../../electron/engine/api';

const ada = { id: 'p1', name: 'Ada Lovelace', jobs: [{ title: 'Analyst', company: { name: 'Engines Ltd' } }] };
const alan = { id: 'p2', name: 'Alan Turing' };

describe('parseFindReply: the top level', () => {
  it('accepts a bare array of items (the spec)', () => {
    expect(parseFindReply([[ada], []], 2)).toEqual([[{ rank: 1, score: null, person: ada }], []]);
  });

  it('accepts an object holding the items under matches', () => {
    expect(parseFindReply({ matches: [[ada]] }, 1)).toEqual([[{ rank: 1, score: null, person: ada }]]);
  });

  it.each([[{ results: [] }], ['[]'], [42], [null], [{ matches: 'x' }]])('refuses %j', (json) => {
    expect(() => parseFindReply(json, 0)).toThrow(MalformedReplyError);
  });
});

describe('parseFindReply: each item', () => {
  it.each(['people', 'results', 'matches', 'persons'])('finds the persons under %s', (key) => {
    const [candidates] = parseFindReply([{ [key]: [ada, alan] }], 1);
    expect(candidates.map((c) => c.person)).toEqual([ada, alan]);
  });

  it('reads a bare array of persons', () => {
    expect(parseFindReply([[ada, alan]], 1)[0].map((c) => c.rank)).toEqual([1, 2]);
  });

  it('treats {found:false}, null, an empty object and a null list as no persons', () => {
    expect(parseFindReply([{ found: false }, null, {}, { people: null }, { found: false, people: [ada] }], 5)).toEqual([[], [], [], [], []]);
  });

  it('reads {found:true, people:[...]}', () => {
    expect(parseFindReply([{ found: true, people: [ada] }], 1)[0]).toHaveLength(1);
  });

  it('mixes shapes item by item in one reply', () => {
    const result = parseFindReply([[ada], { results: [alan] }, { found: false }, { persons: [ada, alan] }], 4);
    expect(result.map((r) => r.length)).toEqual([1, 1, 0, 2]);
  });

  it('refuses an item it cannot read rather than guessing', () => {
    expect(() => parseFindReply([{ error: 'bad query' }], 1)).toThrow(/find result 1 has no list of people/);
    expect(() => parseFindReply(['ada'], 1)).toThrow(MalformedReplyError);
    expect(() => parseFindReply([['ada']], 1)).toThrow(/not an object/);
  });
});

describe('parseFindReply: scores, ranks and persons', () => {
  it.each(['score', '_score', 'match_score'])('reads %s on the person, keeping it in the person', (key) => {
    const person = { ...ada, [key]: 0.87 };
    const [[candidate]] = parseFindReply([[person]], 1);
    expect(candidate.score).toBe(0.87);
    expect(candidate.person).toEqual(person);
  });

  it('reads a score beside a wrapped person and stores the inner person whole', () => {
    const [[first, second]] = parseFindReply([{ people: [{ person: ada, score: 0.9 }, { person: alan, match_score: '0.4' }] }], 1);
    expect(first).toEqual({ rank: 1, score: 0.9, person: ada });
    expect(second).toEqual({ rank: 2, score: 0.4, person: alan });
  });

  it('falls back to a score inside a wrapped person', () => {
    const [[candidate]] = parseFindReply([[{ person: { ...ada, _score: 3 } }]], 1);
    expect(candidate.score).toBe(3);
  });

  it('leaves the score null when none is sent, or when it is not a number', () => {
    const [[a, b]] = parseFindReply([[ada, { ...alan, score: 'high' }]], 1);
    expect(a.score).toBeNull();
    expect(b.score).toBeNull();
  });

  it('ranks by position, 1 = best, in every item independently', () => {
    const result = parseFindReply([[ada, alan, { id: 'p3' }], { people: [alan] }], 2);
    expect(result[0].map((c) => c.rank)).toEqual([1, 2, 3]);
    expect(result[1].map((c) => c.rank)).toEqual([1]);
  });

  it('keeps unknown fields of a person untouched', () => {
    const person = { id: 'x', custom: { nested: [1, 2] }, found: true };
    expect(parseFindReply([[person]], 1)[0][0].person).toEqual(person);
  });
});

describe('parseFindReply: alignment', () => {
  it('refuses fewer items than queries instead of shifting results', () => {
    expect(() => parseFindReply([[ada]], 2)).toThrow(/1 item for 2 queries/);
  });

  it('refuses more items than queries', () => {
    expect(() => parseFindReply({ matches: [[ada], [], []] }, 2)).toThrow(/3 items for 2 queries/);
  });

  it('marks a shape error as not transient (sending again would not help)', () => {
    try {
      parseFindReply([], 1);
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(MalformedReplyError);
      expect((err as MalformedReplyError).transient).toBe(false);
      expect((err as MalformedReplyError).kind).toBe('malformed_reply');
    }
  });
});
