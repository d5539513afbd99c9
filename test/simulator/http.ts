// Small real-HTTP helpers for the simulator tests (global fetch against 127.0.0.1).
import type { Simulator } from '../../electron/simulator';

export interface Reply {
  status: number;
  headers: Headers;
  text: string;
  /** The parsed body, or undefined when it is not JSON. */
  json: unknown;
}

export async function request(url: string, init: RequestInit): Promise<Reply> {
  const res = await fetch(url, init);
  const text = await res.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, text, json };
}

export function postJson(url: string, body: unknown, bearer?: string): Promise<Reply> {
  return request(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json', ...(bearer ? { authorization: `Bearer ${bearer}` } : {}) },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

export async function loginWithClientCredentials(sim: Simulator): Promise<string> {
  const reply = await postJson(`${sim.baseUrl}/api/identity/v1/session`, {
    grantType: 'clientCredentials',
    clientId: sim.demo.clientId,
    clientSecret: sim.demo.clientSecret,
  });
  if (reply.status !== 200) throw new Error(`login failed: ${reply.status} ${reply.text}`);
  return (reply.json as { accessToken: string }).accessToken;
}

export type Term = { field_name: string; search_term: string };

export function find(sim: Simulator, bearer: string, queries: Term[][], org = sim.orgId): Promise<Reply> {
  return postJson(`${sim.baseUrl}/api/people/v1/${org}/find`, { matches: queries.map((fields) => ({ fields })) }, bearer);
}

export function search(sim: Simulator, bearer: string, body: unknown, org = sim.orgId): Promise<Reply> {
  return postJson(`${sim.baseUrl}/api/people/v1/${org}/search`, body, bearer);
}

export type PersonReply = { id: string; name: string; score?: number } & Record<string, unknown>;

/** The persons of each item of an 'array'-shaped find reply. */
export function items(reply: Reply): PersonReply[][] {
  if (reply.status !== 200) throw new Error(`find failed: ${reply.status} ${reply.text}`);
  return reply.json as PersonReply[][];
}

export function message(reply: Reply): string {
  return (reply.json as { message?: string } | undefined)?.message ?? '';
}
