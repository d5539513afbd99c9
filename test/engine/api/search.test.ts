import { afterEach, describe, expect, it } from 'vitest';
import { CancelledError, MalformedReplyError, ServiceClient, type Credentials, type SearchPage, type ServiceClientOptions } from '../../../electron/engine/api';
import { ORG, SEARCH_PATH, SESSION_PATH, goodLogin, reply, startScriptServer, type Script, type ScriptServer } from './script-server';

const credentials: Credentials = { kind: 'password', username: 'ada', password: 'search-test-password' };
const filters = [{ field: 'jobs.function', type: 'must', match_type: 'exact', string_values: ['Engineering'], job_group: 1 }];

let server: ScriptServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

async function serve(search: Script): Promise<ScriptServer> {
  server = await startScriptServer((req, res, seen) => {
    if (req.path === SESSION_PATH) return goodLogin(res);
    if (req.path === SEARCH_PATH) return search(req, res, seen);
    reply(res, 404, `no route ${req.path}`);
  });
  return server;
}

function clientFor(s: ScriptServer, extra: Partial<ServiceClientOptions> = {}) {
  return new ServiceClient({ baseUrl: s.baseUrl, orgId: ORG, credentials, random: () => 0, ...extra });
}

async function collect(pages: AsyncGenerator<SearchPage>): Promise<SearchPage[]> {
  const out: SearchPage[] = [];
  for await (const page of pages) out.push(page);
  return out;
}

type Sent = { filters: unknown[]; size: number; pagination_token?: string };
const sent = (s: ScriptServer) => s.requests.filter((r) => r.path === SEARCH_PATH).map((r) => JSON.parse(r.body) as Sent);
const people = (from: number, n: number) => Array.from({ length: n }, (_, i) => ({ id: `p${from + i}` }));

describe('search paging', () => {
  it('follows pagination_token until the service stops sending one', async () => {
    const s = await serve((req, res) => {
      const { pagination_token: token } = JSON.parse(req.body) as Sent;
      const page = token ? Number(token.slice(1)) : 0;
      reply(res, 200, { people: people(page * 2, 2), count: 5, pagination_token: page < 2 ? `t${page + 1}` : null });
    });
    const pages = await collect(clientFor(s).search({ filters }, { pageSize: 2 }));
    expect(pages.map((p) => [p.page, p.people.length, p.count, p.token])).toEqual([
      [1, 2, 5, 't1'],
      [2, 2, 5, 't2'],
      [3, 2, 5, null],
    ]);
    expect(sent(s)).toEqual([
      { filters, size: 2 },
      { filters, size: 2, pagination_token: 't1' },
      { filters, size: 2, pagination_token: 't2' },
    ]);
    const req = s.requests.find((r) => r.path === SEARCH_PATH)!;
    expect(req.headers['content-type']).toBe('application/json');
    expect(req.headers.authorization).toMatch(/^Bearer /);
  });

  it('resumes after a stored page from its token, numbering pages on', async () => {
    const s = await serve((req, res) => {
      const { pagination_token: token } = JSON.parse(req.body) as Sent;
      const page = token ? Number(token.slice(1)) : 0;
      reply(res, 200, { people: people(page * 2, 2), count: 6, pagination_token: page < 2 ? `t${page + 1}` : null });
    });
    const pages = await collect(clientFor(s).search({ filters }, { pageSize: 2, startToken: 't1', startPage: 2 }));
    expect(pages.map((p) => [p.page, p.people.map((x) => x.id), p.token])).toEqual([
      [2, ['p2', 'p3'], 't2'],
      [3, ['p4', 'p5'], null],
    ]);
    expect(sent(s).map((b) => b.pagination_token)).toEqual(['t1', 't2']);
  });

  it('tolerates results and next for the people and the token', async () => {
    const s = await serve((_req, res, { sameRoute }) => reply(res, 200, sameRoute === 1 ? { results: people(0, 1), next: 'n2' } : { results: people(1, 1) }));
    const pages = await collect(clientFor(s).search({ filters }));
    expect(pages.flatMap((p) => p.people.map((x) => x.id))).toEqual(['p0', 'p1']);
  });

  it('stops on a token it has already sent, instead of looping forever', async () => {
    const s = await serve((_req, res, { sameRoute }) => reply(res, 200, { people: people(sameRoute, 1), pagination_token: sameRoute === 1 ? 'a' : 'a' }));
    const pages = await collect(clientFor(s).search({ filters }));
    expect(pages).toHaveLength(2);
    expect(s.count('/search')).toBe(2);
  });

  it('stops on a cycle of tokens', async () => {
    const s = await serve((_req, res, { sameRoute }) => reply(res, 200, { people: people(sameRoute, 1), nextToken: ['a', 'b', 'c', 'a'][sameRoute - 1] ?? 'z' }));
    expect(await collect(clientFor(s).search({ filters }))).toHaveLength(4);
    expect(s.count('/search')).toBe(4);
  });

  it('stops on an empty page even when it carries a token', async () => {
    const s = await serve((_req, res, { sameRoute }) => reply(res, 200, { people: sameRoute === 1 ? people(0, 3) : [], next_page_token: `t${sameRoute}` }));
    const pages = await collect(clientFor(s).search({ filters }));
    expect(pages.map((p) => p.people.length)).toEqual([3, 0]);
    expect(s.count('/search')).toBe(2);
  });

  it('stops on a page that brings nobody new, even with a fresh token', async () => {
    const s = await serve((_req, res, { sameRoute }) => reply(res, 200, { people: people(sameRoute === 1 ? 0 : 1, 2), pagination_token: `t${sameRoute}` }));
    const pages = await collect(clientFor(s).search({ filters }));
    expect(pages).toHaveLength(3);
    expect(s.count('/search')).toBe(3);
  });

  it('stops at maxPages', async () => {
    const s = await serve((_req, res, { sameRoute }) => reply(res, 200, { people: people(sameRoute, 1), pagination_token: `t${sameRoute}` }));
    expect(await collect(clientFor(s).search({ filters }, { maxPages: 3 }))).toHaveLength(3);
    expect(s.count('/search')).toBe(3);
  });

  it('returns a count-only reply (size 0) as one page', async () => {
    const s = await serve((_req, res) => reply(res, 200, { count: 987 }));
    const pages = await collect(clientFor(s).search({ filters }, { pageSize: 0 }));
    expect(pages).toEqual([{ people: [], count: 987, page: 1, token: null }]);
    expect(sent(s)[0].size).toBe(0);
  });

  it('retries a page that meets a 503 and carries on', async () => {
    const s = await serve((req, res, { sameRoute }) => {
      if (sameRoute === 2) return reply(res, 503, 'busy');
      const { pagination_token: token } = JSON.parse(req.body) as Sent;
      reply(res, 200, token ? { people: people(1, 1) } : { people: people(0, 1), pagination_token: 'next' });
    });
    const pages = await collect(clientFor(s).search({ filters }));
    expect(pages.flatMap((p) => p.people.map((x) => x.id))).toEqual(['p0', 'p1']);
    expect(sent(s).map((b) => b.pagination_token ?? null)).toEqual([null, 'next', 'next']);
  });

  it('fails on a page it cannot read', async () => {
    const s = await serve((_req, res) => reply(res, 200, { hits: [] }));
    await expect(collect(clientFor(s).search({ filters }))).rejects.toBeInstanceOf(MalformedReplyError);
  });

  it('stops when the signal aborts between pages, and sends nothing when the consumer stops early', async () => {
    const s = await serve((_req, res, { sameRoute }) => reply(res, 200, { people: people(sameRoute, 1), pagination_token: `t${sameRoute}` }));
    const controller = new AbortController();
    const seen: number[] = [];
    const err = await (async () => {
      for await (const page of clientFor(s).search({ filters }, { signal: controller.signal })) {
        seen.push(page.page);
        if (page.page === 2) controller.abort();
      }
    })().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CancelledError);
    expect(seen).toEqual([1, 2]);
    expect(s.count('/search')).toBe(2);

    for await (const page of clientFor(s).search({ filters })) if (page.page === 1) break;
    expect(s.count('/search')).toBe(3);
  });
});
