import { describe, expect, it } from 'vitest';
import { MalformedReplyError, parseSearchReply } from '../../../electron/engine/api';

const p = (id: string) => ({ id });

describe('parseSearchReply', () => {
  it('reads {people, count, pagination_token}', () => {
    expect(parseSearchReply({ people: [p('a')], count: 12, pagination_token: 'n1' })).toEqual({ people: [p('a')], count: 12, token: 'n1' });
  });

  it('reads results for the people', () => {
    expect(parseSearchReply({ results: [p('a'), p('b')] }).people).toHaveLength(2);
  });

  it.each(['next', 'nextToken', 'next_page_token'])('reads the next-page token from %s', (key) => {
    expect(parseSearchReply({ people: [], [key]: 'tok' }).token).toBe('tok');
  });

  it('treats an empty or null token as the last page', () => {
    expect(parseSearchReply({ people: [p('a')], pagination_token: '' }).token).toBeNull();
    expect(parseSearchReply({ people: [p('a')], pagination_token: null }).token).toBeNull();
  });

  it('reads a count-only reply (size 0) as an empty page', () => {
    expect(parseSearchReply({ count: 4321 })).toEqual({ people: [], count: 4321, token: null });
  });

  it('accepts a bare array of people as a single page', () => {
    expect(parseSearchReply([p('a')])).toEqual({ people: [p('a')], count: null, token: null });
  });

  it.each([[{ total: 3 }], ['x'], [null], [{ people: ['a'] }]])('refuses %j', (json) => {
    expect(() => parseSearchReply(json)).toThrow(MalformedReplyError);
  });
});
