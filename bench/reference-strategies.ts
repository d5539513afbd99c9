// What a user would do without Matchdesk, written plainly: log in, then send find calls in sequence, applying
// the same waterfall per row (e-mail, then profile slug, then name + company). No cache, no concurrency.
import { setTimeout as sleep } from 'node:timers/promises';
import { DEFAULT_STRATEGIES, type FindQuery, type Mapping } from '../shared/model';
import { plannedQueries, rowInput } from '../electron/engine/matching';

export interface ServiceAccess {
  baseUrl: string;
  orgId: string;
  clientId: string;
  clientSecret: string;
}

export interface ReferenceResult {
  name: string;
  rows: number;
  seconds: number;
  calls: number;
  queries: number;
  /** Rows for which some query found at least one person. */
  rowsFound: number;
  secondsPerRow: number;
}

class PlainClient {
  private token: string | null = null;
  calls = 0;
  queries = 0;

  constructor(private readonly access: ServiceAccess) {}

  private async login(): Promise<string> {
    const res = await fetch(`${this.access.baseUrl}/api/identity/v1/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ grantType: 'clientCredentials', clientId: this.access.clientId, clientSecret: this.access.clientSecret }),
    });
    if (res.status !== 200) throw new Error(`Login failed with HTTP ${res.status}: ${(await res.text()).slice(0, 200)}`);
    const body = (await res.json()) as { accessToken?: unknown };
    if (typeof body.accessToken !== 'string') throw new Error('The login reply holds no accessToken.');
    return (this.token = body.accessToken);
  }

  /** Persons found per query, in order. Logs in again once on a 401; waits and resends on 429/5xx. */
  async find(queries: FindQuery[]): Promise<unknown[][]> {
    for (let attempt = 0; ; attempt++) {
      const token = this.token ?? (await this.login());
      const res = await fetch(`${this.access.baseUrl}/api/people/v1/${encodeURIComponent(this.access.orgId)}/find`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({ matches: queries }),
      });
      this.calls++;
      if (res.status === 200) {
        this.queries += queries.length;
        return itemsOf(await res.json(), queries.length);
      }
      const text = await res.text();
      if (attempt >= 4) throw new Error(`find failed with HTTP ${res.status}: ${text.slice(0, 200)}`);
      if (res.status === 401) this.token = null;
      else if (res.status === 429 || res.status >= 500) await sleep(500 * (attempt + 1));
      else throw new Error(`find failed with HTTP ${res.status}: ${text.slice(0, 200)}`);
    }
  }
}

/** The find reply's persons per query: a bare array or {matches}, items bare arrays or objects holding them. */
function itemsOf(body: unknown, expected: number): unknown[][] {
  const items = Array.isArray(body) ? body : (body as { matches?: unknown })?.matches;
  if (!Array.isArray(items) || items.length !== expected) throw new Error(`find replied with ${Array.isArray(items) ? items.length : 'no'} items for ${expected} queries.`);
  return items.map((item) => {
    if (Array.isArray(item)) return item;
    const o = (item ?? {}) as Record<string, unknown>;
    const persons = o.people ?? o.results ?? o.matches ?? o.persons;
    return Array.isArray(persons) ? persons : [];
  });
}

/** Each row's queries in waterfall order, normalized exactly as Matchdesk does, so both ask the same things. */
function rowQueries(rows: string[][], mapping: Mapping): FindQuery[][] {
  return rows.map((cells) => plannedQueries(rowInput(cells, mapping), DEFAULT_STRATEGIES).map((p) => p.query));
}

/** (a) A scripted loop: one query per call, row after row, each row's next query only when the last found nobody. */
export async function onePerCall(access: ServiceAccess, rows: string[][], mapping: Mapping, progress: (done: number) => void): Promise<ReferenceResult> {
  const client = new PlainClient(access);
  const plans = rowQueries(rows, mapping);
  let found = 0;
  const started = performance.now();
  for (let r = 0; r < plans.length; r++) {
    for (const query of plans[r]!) {
      const [persons] = await client.find([query]);
      if (persons && persons.length > 0) {
        found++;
        break;
      }
    }
    if ((r + 1) % 100 === 0) progress(r + 1);
  }
  return result('one query per call, in sequence', rows.length, started, client, found);
}

/**
 * (b) OpenRefine's reconciliation defaults: 10 queries per call, calls in sequence with a 50 ms pause between
 * them. Like OpenRefine it asks each distinct query once (rows with the same value share the answer); rows that
 * found nobody move to their next query in the next pass.
 */
export async function tenPerCallWithPause(access: ServiceAccess, rows: string[][], mapping: Mapping, progress: (done: number) => void): Promise<ReferenceResult> {
  const BATCH = 10;
  const PAUSE_MS = 50;
  const client = new PlainClient(access);
  const plans = rowQueries(rows, mapping);
  const step = plans.map(() => 0);
  let waiting = plans.map((_, i) => i).filter((i) => plans[i]!.length > 0);
  let found = 0;
  let asked = 0;
  let first = true;
  const started = performance.now();
  while (waiting.length > 0) {
    const byQuery = new Map<string, { query: FindQuery; rows: number[] }>();
    for (const r of waiting) {
      const query = plans[r]![step[r]!]!;
      const key = JSON.stringify(query);
      const entry = byQuery.get(key);
      if (entry) entry.rows.push(r);
      else byQuery.set(key, { query, rows: [r] });
    }
    const groups = [...byQuery.values()];
    const next: number[] = [];
    for (let i = 0; i < groups.length; i += BATCH) {
      if (!first) await sleep(PAUSE_MS);
      first = false;
      const batch = groups.slice(i, i + BATCH);
      const answers = await client.find(batch.map((g) => g.query));
      batch.forEach((g, j) => {
        if ((answers[j] ?? []).length > 0) found += g.rows.length;
        else for (const r of g.rows) if (++step[r]! < plans[r]!.length) next.push(r);
      });
      asked += batch.reduce((n, g) => n + g.rows.length, 0);
      if (client.calls % 20 === 0) progress(asked);
    }
    waiting = next;
  }
  return result('10 queries per call + 50 ms pause (OpenRefine)', rows.length, started, client, found);
}

function result(name: string, rows: number, started: number, client: PlainClient, rowsFound: number): ReferenceResult {
  const seconds = (performance.now() - started) / 1000;
  return { name, rows, seconds, calls: client.calls, queries: client.queries, rowsFound, secondsPerRow: seconds / rows };
}
