import { describe, expect, it } from 'vitest';
import { FALLBACK_TOKEN_LIFETIME_MS, parseExpiry } from '../../../electron/engine/api';

const now = Date.UTC(2026, 0, 1, 12, 0, 0);
const at = Date.UTC(2026, 0, 1, 13, 0, 0);

describe('parseExpiry', () => {
  it('reads the spec form: six fraction digits, no zone, as UTC', () => {
    expect(parseExpiry({ expiresAt: '2026-01-01T13:00:00.123456' }, now)).toBe(at + 123);
  });

  it.each([
    ['no fraction', '2026-01-01T13:00:00', at],
    ['a bare dot', '2026-01-01T13:00:00.', at],
    ['one digit', '2026-01-01T13:00:00.5', at + 500],
    ['three digits', '2026-01-01T13:00:00.250', at + 250],
    ['nine digits', '2026-01-01T13:00:00.987654321', at + 987],
    ['Z', '2026-01-01T13:00:00.000000Z', at],
    ['lower-case z', '2026-01-01T13:00:00z', at],
    ['a positive offset', '2026-01-01T15:00:00.5+02:00', at + 500],
    ['a negative offset', '2026-01-01T08:00:00-05:00', at],
    ['an offset without colon', '2026-01-01T14:30:00+0130', at],
    ['an hour-only offset', '2026-01-01T14:00:00+01', at],
    ['a space instead of T', '2026-01-01 13:00:00.000001', at],
    ['no seconds', '2026-01-01T13:00', at],
  ])('reads expiresAt with %s', (_label, value, expected) => {
    expect(parseExpiry({ expiresAt: value }, now)).toBe(expected);
  });

  it('reads expires_at from a username/password login', () => {
    expect(parseExpiry({ access_token: 't', expires_at: '2026-01-01T13:00:00Z' }, now)).toBe(at);
  });

  it('reads expires_in as seconds from now, as a number or a numeric string', () => {
    expect(parseExpiry({ access_token: 't', expires_in: 900 }, now)).toBe(now + 900_000);
    expect(parseExpiry({ access_token: 't', expires_in: '3600' }, now)).toBe(now + 3_600_000);
  });

  it('reads epoch seconds and epoch milliseconds', () => {
    expect(parseExpiry({ expires_at: at / 1000 }, now)).toBe(at);
    expect(parseExpiry({ expiresAt: at }, now)).toBe(at);
  });

  it('prefers expiresAt, then expires_at, then expires_in', () => {
    expect(parseExpiry({ expiresAt: '2026-01-01T13:00:00', expires_at: '2026-01-01T14:00:00', expires_in: 60 }, now)).toBe(at);
    expect(parseExpiry({ expiresAt: 'soon', expires_at: '2026-01-01T13:00:00', expires_in: 60 }, now)).toBe(at);
    expect(parseExpiry({ expiresAt: 'soon', expires_in: 60 }, now)).toBe(now + 60_000);
  });

  it.each([
    ['no expiry field', { accessToken: 't' }],
    ['an unreadable timestamp', { expiresAt: 'tomorrow' }],
    ['an impossible date', { expiresAt: '2026-02-31T10:00:00' }],
    ['an impossible time', { expiresAt: '2026-01-01T25:00:00' }],
    ['a zero expires_in', { expires_in: 0 }],
    ['a negative expires_in', { expires_in: -5 }],
    ['a body that is not an object', 'hello'],
    ['null', null],
  ])('assumes 15 minutes with %s', (_label, body) => {
    expect(parseExpiry(body, now)).toBe(now + FALLBACK_TOKEN_LIFETIME_MS);
    expect(FALLBACK_TOKEN_LIFETIME_MS).toBe(15 * 60_000);
  });
});
