// A complete local People Data Service on 127.0.0.1: both login forms, find, search, org roles, token expiry,
// credits and switchable faults. Plain Node: tests, benchmarks and the app's demo mode all run it.
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import { promisify } from 'node:util';
import { gzip as gzipCallback } from 'node:zlib';
import { CreditMeter } from './credits';
import { buildDataset, type Dataset } from './dataset';
import { FaultDice, resolveFaultProfile, type FaultProfile, type ResolvedFaultProfile } from './faults';
import { badUtf8Names, hostilePeopleReplies, moreCandidates, moreJobs, resolveHostileReplies, sendHostile, type HostileCounters, type HostileReplies, type ResolvedHostileReplies } from './hostile-replies';
import { FIND_SHAPES, InvalidRequestError, PeopleIndex, parseFindRequest, queryKey, renderFindReplyBytes, type FindHit, type FindShape, type FindTerm } from './find';
import { Epochs, type EpochOptions, type EpochReport } from './epochs';
import { moveOn, type MoveOnOptions, type MoveOnReport } from './move-on';
import { SearchResults, parseSearchRequest, renderSearchReply } from './search';

export interface SimulatorOptions {
  /** 0 = pick a free one (default 0). */
  port?: number;
  /** Default 20_000. */
  people?: number;
  /** Default 1. */
  seed?: number;
  /** Fixed latency added to every people call (default 0). */
  latencyMs?: number;
  /** A named profile ('none', 'flaky', 'chaos' ...: see FAULT_PROFILES) or rates. */
  faults?: FaultProfile | string;
  /** Token lifetime in seconds, default 3600. */
  tokenTtlS?: number;
  /** Where find puts each item's persons, default 'array' (the spec's). */
  findShape?: FindShape;
  /** When set: X-LDT-Credits-Used / X-LDT-Credits-Remaining headers, and 402 once spent. */
  creditBudget?: number | null;
  /** Include a `score` on each person in find replies (default false: the real service sends none). */
  scores?: boolean;
  /** Time for token expiry (default: the system clock), so expiry can be tested without waiting. */
  clock?: { now(): number };
  /** Let the world move on once before serving (see Simulator.moveOn): the same people as without it, some in new jobs. */
  moveOn?: MoveOnOptions;
  /** Replies a broken or hostile service could send (simulator/hostile-replies.ts), as an object or "huge=N,bad-utf8". */
  hostile?: HostileReplies | string;
  /**
   * A world that moves on in steps while serving (simulator/epochs.ts): each epoch ends this share of the current
   * jobs, a month after the last, seeded by the epoch's number; every `everyMs` of the clock, or at each advance().
   */
  epochs?: EpochOptions;
  /**
   * Find and search replies gzipped for a caller that accepts it (Content-Encoding: gzip), as a service behind a usual
   * web front end sends them; zlib's level 1, a front end's usual default (default false: the replies as they are).
   */
  gzip?: boolean;
}

export interface SimulatorCounters {
  /** Every request to /api/... */
  calls: number;
  findCalls: number;
  searchCalls: number;
  sessionCalls: number;
  /** Queries in find calls answered with a well-formed 200. */
  queries: number;
  faults: { '429': number; '5xx': number; reset: number; malformed: number; revoked: number; '402': number };
  /** How often each distinct query (JSON of its sorted fields) was answered. */
  queryKeys: Map<string, number>;
  /** Bytes of the find and search replies' bodies sent with a 200, hostile ones aside (hostile.bytesSent): the bench compares the client's writes with them. */
  replyBytes: number;
  /** How far the hostile replies got on the wire. */
  hostile: HostileCounters;
}

export interface DemoAccounts {
  clientId: string;
  clientSecret: string;
  username: string;
  password: string;
  /** A long-lived key, sent as `Authorization: Bearer mdk_...` with no session call. */
  apiKey: string;
}

export interface Simulator {
  baseUrl: string;
  port: number;
  /** The org every demo account has a role on. */
  orgId: string;
  demo: DemoAccounts;
  /** An org that exists but the demo accounts have no role on: calls to it get 403. */
  otherOrgId: string;
  /** A copy of the counters, each distinct query's count with them. */
  counters(): SimulatorCounters;
  /**
   * The counters' figures without copying the distinct queries (a copy of a 1M-row run's 600,000 took longer than the
   * calls it counted): cheap enough to poll while a run goes.
   */
  tallies(): Omit<SimulatorCounters, 'queryKeys'> & { distinctQueries: number };
  resetCounters(): void;
  setFaults(faults: FaultProfile | string): void;
  setFindShape(shape: FindShape): void;
  setLatency(ms: number): void;
  /** Switches hostile replies on (or off with {}): from the next call on. */
  setHostile(hostile: HostileReplies | string): void;
  revokeAllTokens(): void;
  /** The access tokens issued so far (revoked and expired ones too, up to the last pruning), for leak checks. */
  issuedTokens(): string[];
  /**
   * Some people's current job ends and a new one starts elsewhere, some leave without a new one, the rest stay
   * (simulator/move-on.ts). Seeded: the same calls on the same seed move the same people. Answers from then on
   * show the new jobs.
   */
  moveOn(options: MoveOnOptions): MoveOnReport;
  /** Moves the world on by one epoch (SimulatorOptions.epochs) and says who moved and who left in it. */
  advance(): EpochReport;
  /** Epochs passed so far (0 before the first), counting those due by the clock. */
  epoch(): number;
  /** Who moved and who left in each epoch so far, the first first. */
  epochs(): EpochReport[];
  dataset: Dataset;
  close(): Promise<void>;
}

/** Options the simulator cannot start with. */
export class SimulatorOptionsError extends Error {
  override readonly name = 'SimulatorOptionsError';
}

export const DEMO_ORG_ID = 'o_demo';
export const OTHER_ORG_ID = 'o_other';

/** Fixed, so the app's demo mode and docs can name them. They open nothing but this local simulator. */
export const DEMO_ACCOUNTS: Readonly<DemoAccounts> = {
  clientId: 'sa_demo',
  clientSecret: 'demo-client-secret',
  username: 'demo@matchdesk.local',
  password: 'demo-password',
  apiKey: 'mdk_demo_4f1c2a9e7b3d5068',
};

const MAX_BODY_BYTES = 5 * 1024 * 1024;
const SESSION_PATH = '/api/identity/v1/session';
const PEOPLE_PATH = /^\/api\/people\/v1\/([^/]+)\/(find|search)$/;

/** `YYYY-MM-DDTHH:MM:SS.ffffff`, UTC, no zone designator: the spec's expiresAt format. */
export function formatExpiresAt(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 23)}000`;
}

interface Session {
  expiresAt: number;
  revoked: boolean;
}

type Caller = { kind: 'token' | 'api_key' };

class HttpReply extends Error {
  constructor(readonly status: number, message: string, readonly headers: Record<string, string> = {}) {
    super(message);
  }
}

function newCounters(): SimulatorCounters {
  return {
    calls: 0, findCalls: 0, searchCalls: 0, sessionCalls: 0, queries: 0,
    faults: { '429': 0, '5xx': 0, reset: 0, malformed: 0, revoked: 0, '402': 0 },
    queryKeys: new Map(),
    replyBytes: 0,
    hostile: { bytesSent: 0, cutShort: 0 },
  };
}

function checkWholeNumber(name: string, value: number, min = 0): number {
  if (!Number.isInteger(value) || value < min) throw new SimulatorOptionsError(`${name} must be a whole number of at least ${min}, got ${value}.`);
  return value;
}

function checkFindShape(shape: string): FindShape {
  if (!(FIND_SHAPES as readonly string[]).includes(shape)) {
    throw new SimulatorOptionsError(`Unknown find shape "${shape}"; use one of ${FIND_SHAPES.join(', ')}.`);
  }
  return shape as FindShape;
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        reject(new HttpReply(413, `The request body is larger than ${MAX_BODY_BYTES} bytes.`, { Connection: 'close' }));
        req.pause();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function parseJson(body: Buffer): unknown {
  try {
    return JSON.parse(body.toString('utf8'));
  } catch (error) {
    throw new HttpReply(400, `The request body is not valid JSON: ${(error as Error).message}`);
  }
}

function send(res: ServerResponse, status: number, body: string | Buffer, headers: Record<string, string> = {}, contentType = 'application/json; charset=utf-8'): void {
  res.writeHead(status, { 'Content-Type': contentType, 'Content-Length': Buffer.byteLength(body), ...headers });
  res.end(body);
}

const gzipped = promisify(gzipCallback);

/** Whether the request's Accept-Encoding takes gzip (a q of 0 refuses it). */
function acceptsGzip(req: IncomingMessage): boolean {
  const accepted = String(req.headers['accept-encoding'] ?? '').toLowerCase();
  return accepted.split(',').some((part) => {
    const [coding, ...params] = part.split(';').map((piece) => piece.trim());
    return (coding === 'gzip' || coding === '*') && !params.some((param) => /^q=0(\.0*)?$/.test(param));
  });
}

function sendMessage(res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}): void {
  send(res, status, JSON.stringify({ message }), headers);
}

export async function startSimulator(options: SimulatorOptions = {}): Promise<Simulator> {
  const seed = options.seed ?? 1;
  if (!Number.isInteger(seed)) throw new SimulatorOptionsError(`seed must be a whole number, got ${seed}.`);
  const peopleCount = checkWholeNumber('people', options.people ?? 20_000);
  const tokenTtlS = options.tokenTtlS ?? 3600;
  if (!(tokenTtlS > 0)) throw new SimulatorOptionsError(`tokenTtlS must be more than 0 seconds, got ${tokenTtlS}.`);
  let latencyMs = checkWholeNumber('latencyMs', options.latencyMs ?? 0);
  let findShape = checkFindShape(options.findShape ?? 'array');
  let faults: ResolvedFaultProfile = resolveFaultProfile(options.faults ?? 'none');
  let hostile: ResolvedHostileReplies = resolveHostileReplies(options.hostile ?? {});
  const credits = new CreditMeter(options.creditBudget ?? null);
  const withScores = options.scores ?? false;
  const gzipReplies = options.gzip ?? false;
  const clock = options.clock ?? { now: () => Date.now() };

  const dataset = buildDataset(peopleCount, seed);
  if (options.moveOn) moveOn(dataset, options.moveOn);
  // Made again when the world moves on: both hold each person's jobs and reply JSON.
  let index = new PeopleIndex(dataset);
  let searches = new SearchResults(index);
  const reindex = () => {
    index = new PeopleIndex(dataset);
    searches = new SearchResults(index);
  };
  let epochs: Epochs | null = null;
  if (options.epochs) {
    try {
      epochs = new Epochs(dataset, options.epochs, clock.now(), reindex);
    } catch (error) {
      throw new SimulatorOptionsError(`epochs: ${(error as Error).message}`);
    }
  }
  const requireEpochs = (): Epochs => {
    if (!epochs) throw new SimulatorOptionsError('This simulator has no epochs: start it with the epochs option (--move-on with --move-every) to move its world on in steps.');
    return epochs;
  };
  const dice = new FaultDice(seed);
  const sessions = new Map<string, Session>();
  let counters = newCounters();
  let peopleCalls = 0;

  function issueToken(): { token: string; expiresAt: number } {
    if (sessions.size > 10_000) {
      const now = clock.now();
      for (const [token, session] of sessions) if (session.revoked || session.expiresAt <= now) sessions.delete(token);
    }
    const token = `sim_${randomBytes(24).toString('base64url')}`;
    const expiresAt = clock.now() + tokenTtlS * 1000;
    sessions.set(token, { expiresAt, revoked: false });
    return { token, expiresAt };
  }

  function revokeAll(): number {
    let revoked = 0;
    for (const session of sessions.values()) {
      if (!session.revoked) revoked++;
      session.revoked = true;
    }
    return revoked;
  }

  const unauthorized = (message: string) => new HttpReply(401, message, { 'WWW-Authenticate': 'Bearer' });

  function authenticate(req: IncomingMessage): Caller {
    const header = req.headers.authorization;
    if (!header) throw unauthorized('Missing Authorization header: send "Authorization: Bearer <access token>".');
    const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (!m) throw unauthorized('The Authorization header must be "Bearer <access token>".');
    const credential = m[1];
    if (credential.startsWith('mdk_')) {
      if (credential !== DEMO_ACCOUNTS.apiKey) throw unauthorized('The API key is not valid.');
      return { kind: 'api_key' };
    }
    const session = sessions.get(credential);
    if (!session) throw unauthorized('The access token is not valid; log in again.');
    if (session.revoked) throw unauthorized('The access token was revoked; log in again.');
    if (session.expiresAt <= clock.now()) throw unauthorized(`The access token expired at ${formatExpiresAt(session.expiresAt)} UTC; log in again.`);
    return { kind: 'token' };
  }

  function checkOrg(org: string): void {
    if (org === DEMO_ORG_ID) return;
    if (org === OTHER_ORG_ID) {
      throw new HttpReply(403, `This account has no role on organization "${org}"; ask an admin of that organization for access.`);
    }
    throw new HttpReply(404, `Organization "${org}" does not exist.`);
  }

  /** Rolls this call's fate: `handled` when a fault reply went out (or the connection is gone), `malformed` to cut the reply short. */
  function applyFault(req: IncomingMessage, res: ServerResponse): { malformed: boolean; handled: boolean } {
    const outcome = dice.roll(faults);
    switch (outcome.kind) {
      case '429':
        counters.faults['429']++;
        sendMessage(res, 429, 'Too many requests; retry after the time in Retry-After.', { 'Retry-After': String(outcome.retryAfterS) });
        return { malformed: false, handled: true };
      case '5xx':
        counters.faults['5xx']++;
        if (outcome.status === 502) {
          // Gateways answer in HTML, not JSON: the client must show the text, not choke on it.
          send(res, 502, '<html><body><h1>502 Bad Gateway</h1></body></html>', {}, 'text/html; charset=utf-8');
        } else {
          sendMessage(res, outcome.status, outcome.status === 503 ? 'Service temporarily unavailable.' : 'Internal server error.');
        }
        return { malformed: false, handled: true };
      case 'reset':
        counters.faults.reset++;
        req.socket.destroy();
        return { malformed: false, handled: true };
      case 'malformed':
        counters.faults.malformed++;
        return { malformed: true, handled: false };
      case 'none':
        return { malformed: false, handled: false };
    }
  }

  function sendMalformed(res: ServerResponse, body: string): void {
    send(res, 200, body.length > 8 ? body.slice(0, Math.floor(body.length / 2)) : '{"peop');
  }

  async function sendLogin(res: ServerResponse, reply: string): Promise<void> {
    if (hostile.hugeLoginBytes === 0 && hostile.trickleLoginBytesPerSecond === 0) return send(res, 200, reply);
    await sendHostile(res, Buffer.from(reply), {}, { padTo: hostile.hugeLoginBytes, bytesPerSecond: hostile.trickleLoginBytesPerSecond }, counters.hostile);
  }

  async function handleSession(req: IncomingMessage, res: ServerResponse, body: Buffer): Promise<void> {
    if (faults.includeSession) {
      const fault = applyFault(req, res);
      if (fault.handled) return;
      if (fault.malformed) return sendMalformed(res, JSON.stringify({ accessToken: 'x'.repeat(40), expiresAt: formatExpiresAt(clock.now()) }));
    }
    const contentType = (req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
    if (contentType === 'application/json') {
      const input = parseJson(body);
      if (typeof input !== 'object' || input === null || Array.isArray(input)) {
        throw new HttpReply(400, 'The session body must be a JSON object {grantType, clientId, clientSecret}.');
      }
      const { grantType, clientId, clientSecret } = input as Record<string, unknown>;
      if (grantType !== 'clientCredentials') {
        throw new HttpReply(400, grantType === undefined
          ? 'grantType is required and must be "clientCredentials"; log in with a username and password as a form-encoded body instead.'
          : `grantType ${JSON.stringify(grantType)} is not supported; use "clientCredentials".`);
      }
      if (typeof clientId !== 'string' || clientId === '') throw new HttpReply(400, 'clientId is required and must be a non-empty string.');
      if (typeof clientSecret !== 'string' || clientSecret === '') throw new HttpReply(400, 'clientSecret is required and must be a non-empty string.');
      if (clientId !== DEMO_ACCOUNTS.clientId || clientSecret !== DEMO_ACCOUNTS.clientSecret) {
        throw new HttpReply(401, 'Invalid client id or client secret.');
      }
      const { token, expiresAt } = issueToken();
      return sendLogin(res, JSON.stringify({ accessToken: token, expiresAt: formatExpiresAt(expiresAt) }));
    }
    if (contentType === 'application/x-www-form-urlencoded') {
      const form = new URLSearchParams(body.toString('utf8'));
      const username = form.get('username');
      const password = form.get('password');
      if (!username || !password) throw new HttpReply(400, 'username and password are both required in the form-encoded body.');
      if (username !== DEMO_ACCOUNTS.username || password !== DEMO_ACCOUNTS.password) throw new HttpReply(401, 'Invalid username or password.');
      const { token } = issueToken();
      return sendLogin(res, JSON.stringify({ access_token: token, expires_in: tokenTtlS }));
    }
    throw new HttpReply(400, `Unsupported content type "${contentType || '(none)'}": send JSON client credentials (application/json) or a username and password (application/x-www-form-urlencoded).`);
  }

  /** A find call's queries, the people found for each and the reply's bytes. */
  function answerFind(input: unknown): { queries: FindTerm[][]; results: FindHit[][]; reply: Buffer } {
    const queries = parseFindRequest(input);
    const results = moreCandidates(queries.map((terms) => index.find(terms)), hostile.candidates);
    return { queries, results, reply: renderFindReplyBytes(index, results, findShape, withScores) };
  }

  async function handlePeople(req: IncomingMessage, res: ServerResponse, org: string, operation: 'find' | 'search', body: Buffer): Promise<void> {
    // latencyMs is how long the service takes to answer, its own work included: a find's people are looked up while
    // the call waits out its latency, as the real service works while the network carries the call (a call whose
    // work takes longer than that takes as long as the work). Tokens, faults and credits are still decided after the
    // wait, and a body that does not read is refused then too.
    const due = performance.now() + latencyMs;
    let early: ReturnType<typeof answerFind> | null = null;
    if (latencyMs > 0 && operation === 'find') {
      try {
        early = answerFind(JSON.parse(body.toString('utf8')));
      } catch {
        early = null;
      }
    }
    if (latencyMs > 0) await delay(Math.max(0, due - performance.now()));
    const caller = authenticate(req);
    checkOrg(org);
    peopleCalls++;
    if (faults.revokeEveryCalls > 0 && peopleCalls % faults.revokeEveryCalls === 0) {
      counters.faults.revoked++;
      revokeAll();
      if (caller.kind === 'token') throw unauthorized('The access token was revoked; log in again.');
    }
    const fault = applyFault(req, res);
    if (fault.handled) return;
    if (credits.remaining === 0) {
      counters.faults['402']++;
      throw new HttpReply(402, `Out of credits: all ${credits.budget} credits are spent.`, credits.headers());
    }
    let reply: Buffer;
    let returned: number[];
    let onSuccess: () => void;
    if (operation === 'find') {
      const found = early ?? answerFind(parseJson(body));
      const { queries, results } = found;
      reply = found.reply;
      returned = results.flatMap((hits) => hits.map((hit) => hit.person));
      onSuccess = () => {
        counters.queries += queries.length;
        for (const terms of queries) {
          const key = queryKey(terms);
          counters.queryKeys.set(key, (counters.queryKeys.get(key) ?? 0) + 1);
        }
      };
    } else {
      const request = parseSearchRequest(parseJson(body), index);
      const page = searches.run(request);
      reply = Buffer.from(renderSearchReply(index, page.people, page.count, page.nextToken));
      returned = page.people;
      onSuccess = () => {};
    }

    if (fault.malformed) return sendMalformed(res, reply.toString('utf8'));
    // Without a budget nothing is metered: the people sent need not be counted.
    if (credits.budget !== null) {
      const ids = returned.map((person) => dataset.people[person].id);
      const cost = credits.cost(ids);
      if (!credits.affords(cost)) {
        counters.faults['402']++;
        throw new HttpReply(402, `Out of credits: this reply needs ${cost} new credits and ${credits.remaining} remain of ${credits.budget}.`, credits.headers());
      }
      credits.charge(ids);
    }
    onSuccess();
    if (!hostilePeopleReplies(hostile)) {
      counters.replyBytes += reply.length;
      // Compressed on libuv's threads, as a front end compresses beside the service's own work.
      if (gzipReplies && acceptsGzip(req)) return send(res, 200, await gzipped(reply, { level: 1 }), { ...credits.headers(), 'Content-Encoding': 'gzip', Vary: 'Accept-Encoding' });
      return send(res, 200, reply, credits.headers());
    }
    const stretched = moreJobs(reply.toString('utf8'), hostile.jobs);
    const bytes = hostile.badUtf8 ? badUtf8Names(stretched) : Buffer.from(stretched);
    await sendHostile(res, bytes, credits.headers(), { padTo: hostile.hugeBytes, bytesPerSecond: hostile.trickleBytesPerSecond }, counters.hostile);
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
    const people = PEOPLE_PATH.exec(path);
    if (path === '/' || path === '/health') {
      return send(res, 200, JSON.stringify({ service: 'People Data Service simulator', people: dataset.people.length }));
    }
    if (!path.startsWith('/api/')) throw new HttpReply(404, `No such path: ${path}`);
    // Epochs due by the clock pass before the call is answered, so every answer is of the world as it is now.
    epochs?.catchUp(clock.now());
    counters.calls++;
    if (path === SESSION_PATH) counters.sessionCalls++;
    else if (people?.[2] === 'find') counters.findCalls++;
    else if (people?.[2] === 'search') counters.searchCalls++;
    else throw new HttpReply(404, `No such API path: ${path}`);
    if (req.method !== 'POST') throw new HttpReply(405, `${req.method} is not allowed here; use POST.`, { Allow: 'POST' });
    const body = await readBody(req);
    if (path === SESSION_PATH) return handleSession(req, res, body);
    return handlePeople(req, res, decodeURIComponent(people![1]), people![2] as 'find' | 'search', body);
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (res.headersSent || res.destroyed) return;
      if (error instanceof HttpReply) {
        const headers = error.status === 402 ? { ...error.headers, ...credits.headers() } : error.headers;
        return sendMessage(res, error.status, error.message, headers);
      }
      if (error instanceof InvalidRequestError) return sendMessage(res, 400, error.message, credits.headers());
      sendMessage(res, 500, `Simulator error: ${(error as Error).message}`);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;

  return {
    baseUrl: `http://127.0.0.1:${port}`,
    port,
    orgId: DEMO_ORG_ID,
    demo: { ...DEMO_ACCOUNTS },
    otherOrgId: OTHER_ORG_ID,
    counters: () => ({ ...counters, faults: { ...counters.faults }, queryKeys: new Map(counters.queryKeys), hostile: { ...counters.hostile } }),
    tallies: () => {
      const { queryKeys, ...figures } = counters;
      return { ...figures, faults: { ...counters.faults }, hostile: { ...counters.hostile }, distinctQueries: queryKeys.size };
    },
    resetCounters: () => {
      counters = newCounters();
    },
    setFaults: (profile) => {
      faults = resolveFaultProfile(profile);
      // "Every N-th call" counts from when the faults were set, so a test gets the same faults whatever ran before it.
      peopleCalls = 0;
    },
    setFindShape: (shape) => {
      findShape = checkFindShape(shape);
    },
    setLatency: (ms) => {
      latencyMs = checkWholeNumber('latencyMs', ms);
    },
    setHostile: (next) => {
      hostile = resolveHostileReplies(next);
    },
    revokeAllTokens: () => {
      revokeAll();
    },
    issuedTokens: () => [...sessions.keys()],
    moveOn: (moveOptions) => {
      const report = moveOn(dataset, moveOptions);
      reindex();
      return report;
    },
    advance: () => requireEpochs().advance(),
    epoch: () => {
      epochs?.catchUp(clock.now());
      return epochs?.current ?? 0;
    },
    epochs: () => {
      epochs?.catchUp(clock.now());
      return epochs?.history() ?? [];
    },
    dataset,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}
