// When a session token stops being valid, read from the session reply.

/** Used when the reply names no expiry the client can read: short, so a wrong guess costs one extra login. */
export const FALLBACK_TOKEN_LIFETIME_MS = 15 * 60_000;

const TIMESTAMP =
  /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d*))?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/i;

/**
 * Expiry of a session reply as ms since the epoch. Reads `expiresAt`, `expires_at` (timestamps; no zone = UTC)
 * or `expires_in` (seconds from now); falls back to 15 minutes from `now`. The lifetime is never assumed.
 */
export function parseExpiry(body: unknown, now: number): number {
  if (body && typeof body === 'object') {
    const reply = body as Record<string, unknown>;
    for (const key of ['expiresAt', 'expires_at']) {
      const at = parseInstant(reply[key]);
      if (at !== null) return at;
    }
    for (const key of ['expires_in', 'expiresIn']) {
      const seconds = parseNumber(reply[key]);
      if (seconds !== null && seconds > 0) return now + seconds * 1000;
    }
  }
  return now + FALLBACK_TOKEN_LIFETIME_MS;
}

/** A timestamp string (any number of fraction digits; no zone, `Z` or an offset) or a number of epoch seconds/ms. */
export function parseInstant(value: unknown): number | null {
  if (typeof value === 'number') return epochFromNumber(value);
  if (typeof value !== 'string') return null;
  const text = value.trim();
  if (/^\d+(\.\d+)?$/.test(text)) return epochFromNumber(Number(text));
  const m = TIMESTAMP.exec(text);
  if (!m) return null;
  const [, y, mo, d, h, mi, s = '0', fraction = '', zone = ''] = m;
  const year = Number(y), month = Number(mo), day = Number(d), hour = Number(h), minute = Number(mi), second = Number(s);
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 59) return null;
  const ms = Number(`${fraction}000`.slice(0, 3));
  const utc = Date.UTC(year, month - 1, day, hour, minute, second, ms);
  // Date.UTC rolls 31 February over into March: refuse it rather than guess.
  if (new Date(utc).getUTCDate() !== day) return null;
  return utc - offsetMinutes(zone) * 60_000;
}

function offsetMinutes(zone: string): number {
  if (!zone || zone.toUpperCase() === 'Z') return 0;
  const sign = zone.startsWith('-') ? -1 : 1;
  const digits = zone.slice(1).replace(':', '');
  const hours = Number(digits.slice(0, 2));
  const minutes = digits.length > 2 ? Number(digits.slice(2)) : 0;
  return sign * (hours * 60 + minutes);
}

function epochFromNumber(n: number): number | null {
  if (!Number.isFinite(n) || n <= 0) return null;
  // Below 1e11 it can only be seconds (1e11 ms is 1973).
  return n < 1e11 ? n * 1000 : n;
}

function parseNumber(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'string' && /^\s*\d+(\.\d+)?\s*$/.test(value)) return Number(value);
  return null;
}
