// Replies a broken or hostile service could send, each switched on by itself: too big, too many people, people with
// too many jobs, a body that trickles in, bytes that are not UTF-8. The client must stay bounded in memory and time.
import type { ServerResponse } from 'node:http';
import { setTimeout as delay } from 'node:timers/promises';

export interface HostileReplies {
  /** Find and search replies padded with spaces (still valid JSON) to this many bytes (0: off). */
  hugeBytes?: number;
  /** Login replies padded so (0: off). */
  hugeLoginBytes?: number;
  /** Each find query that found someone answers with this many people, the found ones repeated (0: off). */
  candidates?: number;
  /** Every person in a find or search reply lists this many jobs (0: off). */
  jobs?: number;
  /** Find and search replies sent at this many bytes a second, headers at once (0: off). */
  trickleBytesPerSecond?: number;
  /** Login replies sent so (0: off). */
  trickleLoginBytesPerSecond?: number;
  /** A byte sequence that is not UTF-8 in every "name" of a find or search reply. */
  badUtf8?: boolean;
}

export type ResolvedHostileReplies = Required<HostileReplies>;

export const NO_HOSTILE_REPLIES: ResolvedHostileReplies = { hugeBytes: 0, hugeLoginBytes: 0, candidates: 0, jobs: 0, trickleBytesPerSecond: 0, trickleLoginBytesPerSecond: 0, badUtf8: false };

/** What the hostile replies did on the wire, so a test sees that the client stopped reading (not only that it failed). */
export interface HostileCounters {
  /** Bytes of hostile replies handed to the socket. */
  bytesSent: number;
  /** Hostile replies whose connection closed before all of them was sent. */
  cutShort: number;
}

/** Hostile settings that make no sense. */
export class HostileRepliesError extends Error {
  override readonly name = 'HostileRepliesError';
}

const CLI_KEYS: Record<string, keyof HostileReplies> = {
  huge: 'hugeBytes',
  'huge-login': 'hugeLoginBytes',
  candidates: 'candidates',
  jobs: 'jobs',
  trickle: 'trickleBytesPerSecond',
  'trickle-login': 'trickleLoginBytesPerSecond',
  'bad-utf8': 'badUtf8',
};

/** "huge=200000000,jobs=10000,bad-utf8" (CLI form), or an object. */
export function resolveHostileReplies(hostile: HostileReplies | string): ResolvedHostileReplies {
  if (typeof hostile === 'string') {
    const parsed: HostileReplies = {};
    for (const pair of hostile.split(',').map((s) => s.trim()).filter(Boolean)) {
      const [name, raw] = pair.split('=').map((s) => s.trim());
      const key = CLI_KEYS[name!];
      if (!key) throw new HostileRepliesError(`Unknown hostile reply "${name}"; use ${Object.keys(CLI_KEYS).join(', ')} (as huge=200000000,bad-utf8).`);
      if (key === 'badUtf8') {
        if (raw !== undefined) throw new HostileRepliesError('bad-utf8 takes no value.');
        parsed.badUtf8 = true;
      } else {
        if (raw === undefined || !/^\d+$/.test(raw)) throw new HostileRepliesError(`${name} takes a whole number of 0 or more (as ${name}=300), got "${raw ?? ''}".`);
        parsed[key] = Number(raw);
      }
    }
    return resolveHostileReplies(parsed);
  }
  const resolved: ResolvedHostileReplies = { ...NO_HOSTILE_REPLIES, ...hostile };
  for (const key of ['hugeBytes', 'hugeLoginBytes', 'candidates', 'jobs', 'trickleBytesPerSecond', 'trickleLoginBytesPerSecond'] as const) {
    const value = resolved[key];
    if (!Number.isInteger(value) || value < 0) throw new HostileRepliesError(`${key} must be a whole number of 0 or more, got ${value}.`);
  }
  return resolved;
}

/** Whether find and search replies are sent the hostile way (hostile login replies alone leave them as they were). */
export function hostilePeopleReplies(hostile: ResolvedHostileReplies): boolean {
  return hostile.hugeBytes > 0 || hostile.candidates > 0 || hostile.jobs > 0 || hostile.trickleBytesPerSecond > 0 || hostile.badUtf8;
}

/** Each query's people repeated up to `count` (a query that found nobody still finds nobody). */
export function moreCandidates<T>(hits: readonly T[][], count: number): T[][] {
  if (count === 0) return hits.map((list) => [...list]);
  return hits.map((list) => (list.length === 0 ? [] : Array.from({ length: count }, (_, i) => list[i % list.length]!)));
}

/** The reply with every person's job list stretched to `count` jobs, copies of their first one with a numbered title. */
export function moreJobs(reply: string, count: number): string {
  if (count === 0) return reply;
  const stretch = (value: unknown): void => {
    if (Array.isArray(value)) return value.forEach(stretch);
    if (typeof value !== 'object' || value === null) return;
    const record = value as Record<string, unknown>;
    if (Array.isArray(record.jobs) && record.jobs.length > 0) {
      const first = record.jobs[0] as Record<string, unknown>;
      record.jobs = Array.from({ length: count }, (_, i) => ({ ...first, title: `${String(first.title)} ${i + 1}`, ended_at: i === 0 ? first.ended_at : '2001-01-01' }));
      return;
    }
    Object.values(record).forEach(stretch);
  };
  const json: unknown = JSON.parse(reply);
  stretch(json);
  return JSON.stringify(json);
}

/** 0xC3 0x28: a lead byte followed by one that cannot continue it. */
const NOT_UTF8 = Buffer.from([0xc3, 0x28]);

/** The reply's bytes with NOT_UTF8 at the start of every "name" value. */
export function badUtf8Names(reply: string): Buffer {
  const parts = reply.split('"name":"');
  const out: Buffer[] = [Buffer.from(parts[0]!)];
  for (const part of parts.slice(1)) out.push(Buffer.from('"name":"'), NOT_UTF8, Buffer.from(part));
  return Buffer.concat(out);
}

const CHUNK = 64 * 1024;
const TRICKLE_TICK_MS = 100;

/**
 * Sends `body` (padded with spaces to `padTo` bytes) as a 200, at `bytesPerSecond` when set, minding the socket's
 * back-pressure and stopping as soon as the connection is gone: the counters say how far it got.
 */
export async function sendHostile(
  res: ServerResponse,
  body: Buffer,
  headers: Record<string, string>,
  opts: { padTo: number; bytesPerSecond: number },
  counters: HostileCounters,
): Promise<void> {
  const total = Math.max(body.length, opts.padTo);
  let closed = false;
  res.once('close', () => (closed = true));
  res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', ...headers });
  res.flushHeaders();
  const chunkSize = opts.bytesPerSecond > 0 ? Math.max(1, Math.floor((opts.bytesPerSecond * TRICKLE_TICK_MS) / 1000)) : CHUNK;
  const padding = Buffer.alloc(Math.min(CHUNK, Math.max(chunkSize, 1)), 0x20);
  let sent = 0;
  while (sent < total && !closed) {
    const size = Math.min(chunkSize, total - sent);
    const chunk = sent < body.length ? body.subarray(sent, Math.min(body.length, sent + size)) : padding.subarray(0, size);
    const flowing = res.write(chunk);
    sent += chunk.length;
    counters.bytesSent += chunk.length;
    if (opts.bytesPerSecond > 0) await delay(TRICKLE_TICK_MS);
    else if (!flowing) await new Promise<void>((resolve) => {
      const go = () => {
        res.off('drain', go);
        res.off('close', go);
        resolve();
      };
      res.on('drain', go);
      res.on('close', go);
    });
  }
  if (closed) {
    counters.cutShort++;
    return;
  }
  res.end();
}
