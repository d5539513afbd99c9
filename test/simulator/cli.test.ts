import { describe, expect, it } from 'vitest';
import { buildDataset, runSimulatorCommand } from '../../electron/simulator';
import { postJson } from './http';

function capture() {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, io: { stdout: (t: string) => void out.push(t), stderr: (t: string) => void err.push(t) } };
}

async function waitFor(test: () => boolean, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!test()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('matchdesk simulator command', () => {
  it('prints the base URL, org and the three account kinds, serves, and stops on abort', async () => {
    const { out, err, io } = capture();
    const stop = new AbortController();
    const running = runSimulatorCommand(['--port', '0', '--people', '800', '--seed', '3', '--find-shape', 'people', '--credits', '50'], { ...io, signal: stop.signal });
    await waitFor(() => out.join('').includes('Ctrl+C'));
    const text = out.join('');
    const baseUrl = /base URL\s+(http:\/\/127\.0\.0\.1:\d+)/.exec(text)?.[1];
    expect(baseUrl).toBeDefined();
    expect(text).toMatch(/org id\s+o_demo/);
    expect(text).toMatch(/service account\s+clientId (\S+)\s+clientSecret (\S+)/);
    expect(text).toMatch(/username\/password\s+username (\S+)\s+password (\S+)/);
    expect(text).toMatch(/API key\s+mdk_\S+/);

    const [, clientId, clientSecret] = /clientId (\S+)\s+clientSecret (\S+)/.exec(text)!;
    const login = await postJson(`${baseUrl}/api/identity/v1/session`, { grantType: 'clientCredentials', clientId, clientSecret });
    expect(login.status).toBe(200);
    const token = (login.json as { accessToken: string }).accessToken;
    const reply = await postJson(`${baseUrl}/api/people/v1/o_demo/find`, { matches: [{ fields: [{ field_name: 'name', search_term: 'a' }] }] }, token);
    expect(reply.status).toBe(200);
    expect((reply.json as { found: boolean }[])[0]).toHaveProperty('found');
    expect(reply.headers.get('x-ldt-credits-remaining')).not.toBeNull();

    stop.abort();
    expect(await running).toBe(0);
    expect(err).toEqual([]);
    await expect(fetch(`${baseUrl}/health`)).rejects.toThrow();
  });

  it('sends no scores unless started with --scores', async () => {
    for (const [flags, scored] of [[[], false], [['--scores'], true]] as const) {
      const { out, io } = capture();
      const stop = new AbortController();
      const running = runSimulatorCommand(['--port', '0', '--people', '300', ...flags], { ...io, signal: stop.signal });
      await waitFor(() => out.join('').includes('Ctrl+C'));
      const text = out.join('');
      expect(text).toContain(`scores ${scored ? 'on' : 'off'}`);
      const baseUrl = /base URL\s+(http:\/\/127\.0\.0\.1:\d+)/.exec(text)![1];
      const apiKey = /API key\s+(mdk_\S+)/.exec(text)![1]!;
      const reply = await postJson(`${baseUrl}/api/people/v1/o_demo/find`, { matches: [{ fields: [{ field_name: 'name', search_term: 'James' }] }] }, apiKey);
      const persons = (reply.json as Record<string, unknown>[][])[0]!;
      expect(persons.length).toBeGreaterThan(0);
      for (const person of persons) expect(typeof person.score === 'number').toBe(scored);
      stop.abort();
      expect(await running).toBe(0);
    }
  });

  it('serves the hostile replies --hostile asks for', async () => {
    const { out, io } = capture();
    const stop = new AbortController();
    const running = runSimulatorCommand(['--port', '0', '--people', '300', '--seed', '3', '--hostile', 'candidates=7,jobs=3'], { ...io, signal: stop.signal });
    await waitFor(() => out.join('').includes('Ctrl+C'));
    const text = out.join('');
    expect(text).toMatch(/hostile\s+candidates=7,jobs=3/);
    const baseUrl = /base URL\s+(http:\/\/127\.0\.0\.1:\d+)/.exec(text)![1];
    const [, clientId, clientSecret] = /clientId (\S+)\s+clientSecret (\S+)/.exec(text)!;
    const login = await postJson(`${baseUrl}/api/identity/v1/session`, { grantType: 'clientCredentials', clientId, clientSecret });
    const token = (login.json as { accessToken: string }).accessToken;
    // The same seed builds the same people: ask for the first one by e-mail.
    const email = buildDataset(300, 3).people[0]!.email_address;
    const reply = await postJson(`${baseUrl}/api/people/v1/o_demo/find`, { matches: [{ fields: [{ field_name: 'email_address', search_term: email }] }] }, token);
    const [people] = reply.json as { jobs: unknown[] }[][];
    expect(people).toHaveLength(7);
    for (const person of people!) expect(person.jobs).toHaveLength(3);
    stop.abort();
    expect(await running).toBe(0);
  });

  it.each([
    [['--people', 'many'], /--people must be a whole number/],
    [['--find-shape', 'xml'], /--find-shape must be one of/],
    [['--faults', 'sometimes'], /Unknown fault profile "sometimes"/],
    [['--bogus'], /bogus/],
    [['--token-ttl-s', '0'], /at least 1 second/],
    [['--hostile', 'sometimes'], /Unknown hostile reply "sometimes"; use huge, huge-login, candidates, jobs, trickle, trickle-login, bad-utf8/],
    [['--hostile', 'jobs=many'], /jobs takes a whole number of 0 or more \(as jobs=300\), got "many"/],
    [['--hostile', 'trickle'], /trickle takes a whole number of 0 or more \(as trickle=300\), got ""/],
    [['--hostile', 'bad-utf8=yes'], /bad-utf8 takes no value/],
  ])('refuses %j with exit code 2 and a message', async (argv, pattern) => {
    const { err, io } = capture();
    expect(await runSimulatorCommand([...argv, '--port', '0'], io)).toBe(2);
    expect(err.join('')).toMatch(pattern);
  });

  it('prints usage for --help', async () => {
    const { out, io } = capture();
    expect(await runSimulatorCommand(['--help'], io)).toBe(0);
    expect(out.join('')).toMatch(/--latency-ms/);
    expect(out.join('')).toMatch(/--hostile LIST[^]*trickle=BPS[^]*bad-utf8/);
  });
});
