import { afterEach, describe, expect, it } from 'vitest';
import { BadRequestError, ServiceClient, type Credentials, type ServiceClientOptions } from '../../../electron/engine/api';
import { storedQuery, storedQueryFields } from '../../../electron/engine/store/query-text';
import { FIND_PATH, ORG, SESSION_PATH, goodLogin, queries, reply, startScriptServer, type Script, type ScriptServer } from './script-server';

const credentials: Credentials = { kind: 'api_key', apiKey: 'ldtkey_find_tests' };

let server: ScriptServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

async function serve(find: Script): Promise<ScriptServer> {
  server = await startScriptServer((req, res, seen) => {
    if (req.path === SESSION_PATH) return goodLogin(res);
    if (req.path === FIND_PATH) return find(req, res, seen);
    reply(res, 404, `no route ${req.path}`);
  });
  return server;
}

function clientFor(s: ScriptServer, extra: Partial<ServiceClientOptions> = {}) {
  return new ServiceClient({ baseUrl: s.baseUrl, orgId: ORG, credentials, random: () => 0, ...extra });
}

type Sent = { matches: { fields: { field_name: string; search_term: string }[] }[] };

/** Answers each query with one person whose id is the query's search term: misalignment shows at once. */
const mirror: Script = (req, res) => {
  const { matches } = JSON.parse(req.body) as Sent;
  reply(res, 200, matches.map((m) => [{ id: m.fields[0].search_term }]));
};

describe('the find request', () => {
  it('posts only the spec fields as JSON with the bearer, also when the base URL ends with a slash', async () => {
    const s = await serve(mirror);
    const loose = [{ fields: [{ field_name: 'social', search_term: 'ada-lovelace', extra: 'dropped' }], note: 'dropped' }];
    await clientFor(s, { baseUrl: `${s.baseUrl}/` }).findBatch(loose as never);
    const [req] = s.requests;
    expect(req.method).toBe('POST');
    expect(req.path).toBe(FIND_PATH);
    expect(req.headers['content-type']).toBe('application/json');
    expect(req.headers.accept).toBe('application/json');
    expect(req.headers.authorization).toBe('Bearer ldtkey_find_tests');
    expect(JSON.parse(req.body)).toEqual({ matches: [{ fields: [{ field_name: 'social', search_term: 'ada-lovelace' }] }] });
  });

  it("sends queries as their stored terms' text in the very bytes it sends for the same queries as objects", async () => {
    const s = await serve(mirror);
    const client = clientFor(s);
    const asked = [
      { fields: [{ field_name: 'name', search_term: 'Zoë "Z" O\'Brien \\ 李' }, { field_name: 'company.name', search_term: '"],["x' }] },
      { fields: [{ field_name: 'email_address', search_term: 'a\u0001b\n😀\ud800' }] },
    ];
    const read = () => null;
    await client.findBatchReading(asked, read);
    await client.findBatchReading({ fields: asked.map((q) => storedQueryFields(storedQuery(q))) }, read);
    expect(s.requests).toHaveLength(2);
    expect(s.requests[1]!.body).toBe(s.requests[0]!.body);
    expect(JSON.parse(s.requests[1]!.body)).toEqual({ matches: asked });
    const one = storedQueryFields('[["name","x"]]');
    await expect(client.findBatchReading({ fields: [] }, read)).rejects.toThrow(RangeError);
    await expect(client.findBatchReading({ fields: Array.from({ length: 101 }, () => one) }, read)).rejects.toThrow(RangeError);
    expect(s.requests).toHaveLength(2);
  });

  it('sends nothing for no queries, and refuses more than 100 in one call', async () => {
    const s = await serve(mirror);
    const client = clientFor(s);
    expect(await client.findBatch([])).toEqual([]);
    expect(await client.find([])).toEqual([]);
    await expect(client.findBatch(queries(101))).rejects.toThrow(RangeError);
    expect(s.requests).toHaveLength(0);
  });
});

describe('every find item shape, over HTTP', () => {
  const ada = { id: 'a', name: 'Ada' };
  const alan = { id: 'b', name: 'Alan' };
  const shapes: [string, unknown][] = [
    ['a bare array of bare arrays', [[ada, alan], []]],
    ['{matches} around the items', { matches: [[ada, alan], []] }],
    ['items with people and a found flag', [{ found: true, people: [ada, alan] }, { found: false }]],
    ['items with results', [{ results: [ada, alan] }, { results: [] }]],
    ['items with matches', { matches: [{ matches: [ada, alan] }, null] }],
    ['items with persons', [{ persons: [ada, alan] }, {}]],
    ['{data} around the items', { data: [[ada, alan], []] }],
    ['{data: {matches}} around items with results', { data: { matches: [{ results: [ada, alan] }, { results: [] }] } }],
  ];

  it.each(shapes)('reads %s', async (_label, body) => {
    const s = await serve((_req, res) => reply(res, 200, body));
    expect(await clientFor(s).findBatch(queries(2))).toEqual([
      [
        { rank: 1, score: null, person: ada },
        { rank: 2, score: null, person: alan },
      ],
      [],
    ]);
  });

  it('refuses a {data} that holds no list of results, naming what it holds', async () => {
    const s = await serve((_req, res) => reply(res, 200, { data: { people: [ada] } }));
    await expect(clientFor(s).findBatch(queries(1))).rejects.toThrow(/under "data", got an object \(keys: people\)/);
  });

  it('reads scores wherever they are sent', async () => {
    const body = [[{ ...ada, score: 0.9 }, { ...alan, _score: 12 }], { people: [{ person: ada, match_score: 0.5 }] }];
    const s = await serve((_req, res) => reply(res, 200, body));
    const [first, second] = await clientFor(s).findBatch(queries(2));
    expect(first.map((c) => c.score)).toEqual([0.9, 12]);
    expect(second).toEqual([{ rank: 1, score: 0.5, person: ada }]);
  });
});

describe('find: more than 100 queries', () => {
  it('splits 250 queries into calls of 100, 100 and 50 and keeps every result with its query', async () => {
    // The first call answers last: results must still come back in query order.
    const s = await serve(async (req, res, { sameRoute }) => {
      await new Promise((r) => setTimeout(r, sameRoute === 1 ? 60 : 5));
      mirror(req, res, { sameRoute });
    });
    const asked = queries(250);
    const results = await clientFor(s).find(asked);
    expect(s.requests.map((r) => (JSON.parse(r.body) as Sent).matches.length).sort((a, b) => a - b)).toEqual([50, 100, 100]);
    expect(results).toHaveLength(250);
    results.forEach((candidates, i) => expect(candidates[0].person.id).toBe(asked[i].fields[0].search_term));
  });

  it('sends batches concurrently but never more than the limiter allows', async () => {
    let inFlight = 0;
    let peak = 0;
    const s = await serve(async (req, res, seen) => {
      peak = Math.max(peak, ++inFlight);
      await new Promise((r) => setTimeout(r, 15));
      inFlight--;
      mirror(req, res, seen);
    });
    const client = clientFor(s, { concurrency: 3 });
    const [a, b] = await Promise.all([client.find(queries(600)), client.find(queries(400, 600))]);
    expect(a).toHaveLength(600);
    expect(b[0][0].person.id).toBe('person600@example.com');
    expect(peak).toBe(3);
    expect(s.count('/find')).toBe(10);
  });

  it('stops sending the remaining batches after one fails', async () => {
    const s = await serve((_req, res) => reply(res, 400, { message: 'bad term' }));
    await expect(clientFor(s, { concurrency: 1 }).find(queries(500))).rejects.toBeInstanceOf(BadRequestError);
    await new Promise((r) => setTimeout(r, 30));
    expect(s.count('/find')).toBe(1);
  });
});
