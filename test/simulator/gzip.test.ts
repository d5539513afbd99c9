// The simulator's gzipped replies (--gzip), as a service behind a web front end sends them: compressed only for a
// caller that accepts gzip, the same bytes once inflated, and read by the app's client as the plain ones.
import { request as httpRequest } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServiceClient } from '../../electron/engine/api';
import { startSimulator, type Simulator } from '../../electron/simulator';
import { loginWithClientCredentials } from './http';

let plain: Simulator;
let gzipped: Simulator;

beforeAll(async () => {
  [plain, gzipped] = await Promise.all([startSimulator({ people: 2_000, seed: 5 }), startSimulator({ people: 2_000, seed: 5, gzip: true })]);
});
afterAll(async () => {
  await Promise.all([plain.close(), gzipped.close()]);
});

const BODY = JSON.stringify({ matches: ['Anna', 'John Smith', 'nobody at all xq'].map((name) => ({ fields: [{ field_name: 'name', search_term: name }] })) });

/** A find call's reply as it came over the wire: its Content-Encoding and its body's bytes, not inflated. */
async function rawFind(sim: Simulator, acceptEncoding: string | null): Promise<{ encoding: string | undefined; body: Buffer }> {
  const token = await loginWithClientCredentials(sim);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      `${sim.baseUrl}/api/people/v1/${sim.orgId}/find`,
      { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, ...(acceptEncoding === null ? {} : { 'accept-encoding': acceptEncoding }) } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ encoding: res.headers['content-encoding'], body: Buffer.concat(chunks) }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(BODY);
  });
}

describe('a simulator that gzips its replies', () => {
  it('gzips a find reply for a caller that accepts gzip: the plain reply once inflated, in fewer bytes', async () => {
    const expected = (await rawFind(plain, 'gzip, deflate')).body;
    expect(JSON.parse(expected.toString('utf8'))).toHaveLength(3);
    for (const accepted of ['gzip, deflate', 'br;q=1, GZIP;q=0.5', '*']) {
      const { encoding, body } = await rawFind(gzipped, accepted);
      expect(encoding, accepted).toBe('gzip');
      expect(body.length, accepted).toBeLessThan(expected.length);
      expect(gunzipSync(body).equals(expected), accepted).toBe(true);
    }
  });

  it('sends a caller that does not accept gzip the reply as it is', async () => {
    const expected = (await rawFind(plain, null)).body;
    for (const accepted of [null, 'identity', 'deflate, br', 'gzip;q=0', 'gzip; q=0.000']) {
      const { encoding, body } = await rawFind(gzipped, accepted);
      expect(encoding, String(accepted)).toBeUndefined();
      expect(body.equals(expected), String(accepted)).toBe(true);
    }
  });

  it("is read by the app's client as the plain one, on kept connections and through fetch", async () => {
    const queries = ['Anna', 'John Smith', 'nobody at all xq'].map((name) => ({ fields: [{ field_name: 'name' as const, search_term: name }] }));
    const client = (sim: Simulator, viaFetch: boolean) =>
      new ServiceClient({
        baseUrl: sim.baseUrl,
        orgId: sim.orgId,
        credentials: { kind: 'service_account', clientId: sim.demo.clientId, clientSecret: sim.demo.clientSecret },
        ...(viaFetch ? { fetch: (input: string | URL | Request, init?: RequestInit) => fetch(input, init) } : {}),
      });
    const expected = await client(plain, false).findBatch(queries);
    expect(expected.flat().length).toBeGreaterThan(0);
    for (const viaFetch of [false, true]) expect(await client(gzipped, viaFetch).findBatch(queries), `fetch: ${viaFetch}`).toEqual(expected);
  });
});
