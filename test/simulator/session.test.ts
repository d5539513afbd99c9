import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../../electron/simulator';
import { ManualClock } from '../../electron/engine/clock';
import { find, loginWithClientCredentials, message, postJson, request } from './http';

const EXPIRES_AT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}$/;

let sim: Simulator;
let sessionUrl: string;

beforeAll(async () => {
  sim = await startSimulator({ people: 500, seed: 3 });
  sessionUrl = `${sim.baseUrl}/api/identity/v1/session`;
});
afterAll(() => sim.close());

function formLogin(body: string, contentType = 'application/x-www-form-urlencoded') {
  return request(sessionUrl, { method: 'POST', headers: { 'content-type': contentType }, body });
}

const emailQuery = () => [[{ field_name: 'email_address', search_term: sim.dataset.people[0].email_address }]];

describe('session: client credentials', () => {
  it('issues a token whose expiresAt has the spec format, in UTC, about an hour ahead', async () => {
    const before = Date.now();
    const reply = await postJson(sessionUrl, { grantType: 'clientCredentials', clientId: sim.demo.clientId, clientSecret: sim.demo.clientSecret });
    expect(reply.status).toBe(200);
    const body = reply.json as { accessToken: string; expiresAt: string };
    expect(typeof body.accessToken).toBe('string');
    expect(body.expiresAt).toMatch(EXPIRES_AT);
    const expires = Date.parse(`${body.expiresAt}Z`);
    expect(expires - before).toBeGreaterThan(3590_000);
    expect(expires - before).toBeLessThan(3610_000);
    expect((await find(sim, body.accessToken, emailQuery())).status).toBe(200);
  });

  it('refuses a wrong secret with 401 and a message that does not repeat the secret', async () => {
    const reply = await postJson(sessionUrl, { grantType: 'clientCredentials', clientId: sim.demo.clientId, clientSecret: 'super-secret-guess' });
    expect(reply.status).toBe(401);
    expect(message(reply)).toMatch(/client/i);
    expect(reply.text).not.toContain('super-secret-guess');
  });

  it.each([
    ['invalid JSON', '{"grantType": "clientCredentials",', /not valid JSON/],
    ['a JSON array', '[]', /JSON object/],
    ['no grantType', JSON.stringify({ clientId: 'a', clientSecret: 'b' }), /grantType/],
    ['a wrong grantType', JSON.stringify({ grantType: 'password', clientId: 'a', clientSecret: 'b' }), /grantType/],
    ['no clientSecret', JSON.stringify({ grantType: 'clientCredentials', clientId: 'a' }), /clientSecret/],
    ['a numeric clientId', JSON.stringify({ grantType: 'clientCredentials', clientId: 7, clientSecret: 'b' }), /clientId/],
  ])('answers 400 with a message for %s', async (_label, body, pattern) => {
    const reply = await postJson(sessionUrl, body);
    expect(reply.status).toBe(400);
    expect(message(reply)).toMatch(pattern);
  });
});

describe('session: username and password', () => {
  it('issues access_token and expires_in for a form-encoded login', async () => {
    const form = new URLSearchParams({ username: sim.demo.username, password: sim.demo.password });
    const reply = await formLogin(form.toString());
    expect(reply.status).toBe(200);
    const body = reply.json as { access_token: string; expires_in: number };
    expect(body.expires_in).toBe(3600);
    expect((await find(sim, body.access_token, emailQuery())).status).toBe(200);
  });

  it('refuses a wrong password with 401', async () => {
    const reply = await formLogin(new URLSearchParams({ username: sim.demo.username, password: 'nope' }).toString());
    expect(reply.status).toBe(401);
    expect(message(reply)).toMatch(/username or password/);
  });

  it('answers 400 for a missing password and for an unknown content type', async () => {
    const missing = await formLogin(`username=${encodeURIComponent(sim.demo.username)}`);
    expect(missing.status).toBe(400);
    expect(message(missing)).toMatch(/password/);
    const plain = await formLogin('username=a&password=b', 'text/plain');
    expect(plain.status).toBe(400);
    expect(message(plain)).toMatch(/content type/i);
  });

  it('answers 405 to a GET on the session path', async () => {
    const reply = await request(sessionUrl, { method: 'GET' });
    expect(reply.status).toBe(405);
  });
});

describe('bearer credentials on people calls', () => {
  it('answers 401 without a token, with an unknown token and with a non-bearer scheme', async () => {
    const url = `${sim.baseUrl}/api/people/v1/${sim.orgId}/find`;
    const body = JSON.stringify({ matches: [{ fields: emailQuery()[0] }] });
    expect((await request(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body })).status).toBe(401);
    expect((await find(sim, 'not-a-token', emailQuery())).status).toBe(401);
    const basic = await request(url, { method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Basic abc' }, body });
    expect(basic.status).toBe(401);
    expect(basic.headers.get('www-authenticate')).toBe('Bearer');
  });

  it('accepts the demo API key without a session, and refuses another mdk_ key', async () => {
    expect((await find(sim, sim.demo.apiKey, emailQuery())).status).toBe(200);
    expect(sim.demo.apiKey.startsWith('mdk_')).toBe(true);
    const wrong = await find(sim, 'mdk_not_the_key', emailQuery());
    expect(wrong.status).toBe(401);
    expect(message(wrong)).toMatch(/API key/);
  });

  it('answers 401 once tokens are revoked, and a fresh login works again', async () => {
    const token = await loginWithClientCredentials(sim);
    expect((await find(sim, token, emailQuery())).status).toBe(200);
    sim.revokeAllTokens();
    const revoked = await find(sim, token, emailQuery());
    expect(revoked.status).toBe(401);
    expect(message(revoked)).toMatch(/revoked/);
    expect((await find(sim, await loginWithClientCredentials(sim), emailQuery())).status).toBe(200);
    expect((await find(sim, sim.demo.apiKey, emailQuery())).status).toBe(200);
  });

  it('answers 403 naming the org for an org without a role, and 404 for an unknown org', async () => {
    const token = await loginWithClientCredentials(sim);
    const forbidden = await find(sim, token, emailQuery(), sim.otherOrgId);
    expect(forbidden.status).toBe(403);
    expect(message(forbidden)).toContain(sim.otherOrgId);
    const unknown = await find(sim, token, emailQuery(), 'o_nowhere');
    expect(unknown.status).toBe(404);
    expect(message(unknown)).toContain('o_nowhere');
  });
});

describe('token expiry', () => {
  it('answers 401 after tokenTtlS has passed in real time', async () => {
    const short = await startSimulator({ people: 100, tokenTtlS: 1 });
    try {
      const token = await loginWithClientCredentials(short);
      expect((await find(short, token, [[{ field_name: 'name', search_term: 'x' }]])).status).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 1100));
      const expired = await find(short, token, [[{ field_name: 'name', search_term: 'x' }]]);
      expect(expired.status).toBe(401);
      expect(message(expired)).toMatch(/expired/);
    } finally {
      await short.close();
    }
  });

  it('follows an injected clock, so expiry is testable without waiting', async () => {
    const clock = new ManualClock(Date.UTC(2026, 0, 1, 12));
    const timed = await startSimulator({ people: 100, clock });
    try {
      const reply = await postJson(`${timed.baseUrl}/api/identity/v1/session`, { grantType: 'clientCredentials', clientId: timed.demo.clientId, clientSecret: timed.demo.clientSecret });
      const { accessToken, expiresAt } = reply.json as { accessToken: string; expiresAt: string };
      expect(expiresAt).toBe('2026-01-01T13:00:00.000000');
      clock.advance(3599_000);
      expect((await find(timed, accessToken, [[{ field_name: 'name', search_term: 'x' }]])).status).toBe(200);
      clock.advance(1_000);
      expect((await find(timed, accessToken, [[{ field_name: 'name', search_term: 'x' }]])).status).toBe(401);
    } finally {
      await timed.close();
    }
  });
});
