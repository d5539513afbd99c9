// The browser host's guards seen from outside (no token, a foreign page, a rebinding Host, bad inputs), and a
// profile's secret never reaching the page, whatever screen it shows.
import type { Page } from '@playwright/test';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import WebSocket from 'ws';
import type { ContractError } from '../../shared/contract';
import { DEMO_ACCOUNTS, DEMO_ORG_ID, startSimulator, type Simulator } from '../../electron/simulator';
import { expect, openApp, test, useHost } from './support/app';

const host = useHost('security');

async function post(path: string, body: string, headers: Record<string, string>): Promise<{ status: number; json: unknown }> {
  const response = await fetch(`${host().origin}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
  return { status: response.status, json: await response.json().catch(() => null) };
}

function withToken(extra: Record<string, string> = {}): Record<string, string> {
  return { 'x-matchdesk-token': host().token, ...extra };
}

/** A raw request, for headers fetch will not let a caller set (Host). */
function rawGet(path: string, headers: Record<string, string>): Promise<number> {
  const { port } = new URL(host().origin);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port: Number(port), path, method: 'GET', headers }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end();
  });
}

/** 'open', or the HTTP status the upgrade was refused with. */
function openSocket(query: string, origin: string): Promise<'open' | number> {
  const url = `${host().origin.replace('http', 'ws')}/api/events${query}`;
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, { origin });
    socket.on('open', () => {
      socket.close();
      resolve('open');
    });
    socket.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
    socket.on('error', reject);
  });
}

test('requests without the token, from a foreign origin or under a foreign Host are refused', async () => {
  const app = host();
  const { port } = new URL(app.origin);

  const tokenless = await post('/api/call/app.info', '{}', {});
  expect(tokenless.status).toBe(403);
  expect(tokenless.json).toMatchObject({ ok: false, error: { kind: 'forbidden' } });
  expect((await post('/api/call/app.info', '{}', { 'x-matchdesk-token': `${app.token}x` })).status).toBe(403);
  expect((await post('/api/upload', 'Email\na@b.example\n', { 'x-matchdesk-file-name': 'a.csv' })).status).toBe(403);
  expect((await fetch(`${app.origin}/`)).status).toBe(403);
  expect((await fetch(`${app.origin}/?token=not-the-token`)).status).toBe(403);
  expect((await fetch(`${app.origin}/api/download/anything`)).status).toBe(403);

  // The token is not enough when another site's page sends it.
  for (const origin of ['http://evil.example', `http://127.0.0.1:${Number(port) + 1}`, 'null']) {
    const foreign = await post('/api/call/app.info', '{}', withToken({ origin }));
    expect(foreign.status, `Origin: ${origin}`).toBe(403);
    expect(foreign.json).toMatchObject({ ok: false, error: { kind: 'forbidden', code: 'refused' } });
  }
  // DNS rebinding: a foreign name that resolves to 127.0.0.1.
  expect(await rawGet(`/?token=${app.token}`, { host: `rebind.example:${port}` })).toBe(403);
  expect(await rawGet(`/?token=${app.token}`, { host: `127.0.0.1:${port}` })).toBe(200);

  // The event stream: no token, or a foreign page, gets no socket.
  expect(await openSocket('', app.origin)).toBe(403);
  expect(await openSocket(`?token=${app.token}`, 'http://evil.example')).toBe(403);
  expect(await openSocket(`?token=${app.token}`, app.origin)).toBe('open');

  // The same call with the token from the host's own origin answers.
  const allowed = await post('/api/call/app.info', '{}', withToken({ origin: app.origin }));
  expect(allowed).toMatchObject({ status: 200, json: { ok: true, value: { host: 'web' } } });
});

test('malformed contract inputs are refused as invalid_input and change nothing', async () => {
  const app = host();
  const refused = async (name: string, body: string, code?: string) => {
    const { json } = await post(`/api/call/${name}`, body, withToken());
    const error = (json as { ok: boolean; error?: ContractError }).error;
    expect(json, `${name} ${body.slice(0, 80)}`).toMatchObject({ ok: false, error: { kind: 'invalid_input', ...(code ? { code } : {}) } });
    expect(error!.message.length).toBeGreaterThan(0);
  };

  const notJson = await post('/api/call/projects.get', '{"projectId": 1', withToken());
  expect(notJson).toMatchObject({ status: 400, json: { ok: false, error: { kind: 'invalid_input', message: 'The request body is not valid JSON.' } } });
  await refused('projects.get', '[1, 2]');
  await refused('projects.get', '"projectId"');
  await refused('projects.get', 'null');
  await refused('projects.get', '{"projectId": "1"}');
  await refused('projects.get', '{"projectId": -5}');
  await refused('projects.get', '{"projectId": 1.5}');
  await refused('projects.get', '{}');
  await refused('app.info', '{"extra": true}');
  await refused('review.page', '{"projectId": 1, "offset": 0, "limit": 100000}');
  await refused('decisions.choose', '{"projectId": 1, "rowIndex": 0, "rank": 6}');
  await refused('settings.update', '{"concurrency": 1000}');
  await refused('profiles.save', JSON.stringify({ name: 'x', baseUrl: 'file:///etc/passwd', orgId: 'o_x', kind: 'api_key', login: null, secret: 'k' }));
  await refused('profiles.save', JSON.stringify({ name: 'x', baseUrl: 'https://example.test', orgId: 'nope', kind: 'api_key', login: null, secret: 'k' }));
  await refused('profiles.save', JSON.stringify({ name: 'x', baseUrl: 'https://example.test', orgId: 'o_x', kind: 'root', login: null, secret: 'k' }));
  // A page may name only files it uploaded, and never where an export lands.
  await refused('projects.import', '{"file": "/etc/passwd"}', 'path_refused');
  await refused('projects.sheets', '{"file": "../../secrets.xlsx"}', 'path_refused');
  await refused('export.run', '{"projectId": 1, "format": "csv", "scope": "all", "destination": "/tmp/out.csv"}', 'path_refused');
  const huge = await post('/api/call/settings.update', JSON.stringify({ pad: 'x'.repeat(1_100_000) }), withToken());
  expect(huge).toMatchObject({ status: 400, json: { ok: false, error: { kind: 'invalid_input' } } });

  await refused('engine.shutdown', '{}');

  expect(await app.value('projects.list', {})).toEqual([]);
  expect(await app.value('profiles.list', {})).toEqual([]);
  expect(await app.value('settings.get', {})).toMatchObject({ concurrency: 4 });
});

test.describe('a profile secret', () => {
  let simulator: Simulator;
  test.beforeAll(async () => {
    simulator = await startSimulator({ people: 500, seed: 3 });
  });
  test.afterAll(async () => {
    await simulator?.close();
  });

  test('never reaches the page: no response body, event frame, storage or screen holds it', async ({ page }) => {
    const app = host();
    const passwordSecret = `pw-${Date.now().toString(36)}-Zq8!xT`;
    const apiKeySecret = `mdk_e2e_${Date.now().toString(36)}_9f2b7c`;
    // The demo profile's secret too: the demo is started on the way through the screens.
    const secrets = [passwordSecret, apiKeySecret, DEMO_ACCOUNTS.clientSecret];

    const received: { what: string; text: string }[] = [];
    const reading: Promise<void>[] = [];
    page.on('response', (response) => {
      reading.push(
        response.body().then(
          (body) => void received.push({ what: `${response.request().method()} ${response.url()}`, text: body.toString('latin1') }),
          () => undefined, // Downloads and redirects have no body to read here; the download is checked below.
        ),
      );
    });
    page.on('websocket', (socket) => {
      socket.on('framereceived', (frame) => received.push({ what: `ws ${socket.url()}`, text: String(frame.payload) }));
    });

    await openApp(page, app);
    const info = await app.value('app.info', {});
    await addProfile(page, { name: 'Acme (password)', kind: 'password', baseUrl: simulator.baseUrl, login: DEMO_ACCOUNTS.username, secret: passwordSecret });
    await expect(page.getByTestId('profile-card').filter({ hasText: 'Acme (password)' })).toContainText('✗');
    await addProfile(page, { name: 'Acme (API key)', kind: 'api_key', baseUrl: simulator.baseUrl, login: null, secret: apiKeySecret });
    const keyCard = page.getByTestId('profile-card').filter({ hasText: 'Acme (API key)' });
    await expect(keyCard).toContainText('✗');
    // Editing shows an empty secret field: the stored secret is never sent back to fill it.
    await keyCard.getByRole('button', { name: 'Edit profile Acme (API key)' }).click();
    await expect(page.getByLabel('API key', { exact: true })).toHaveValue('');
    await page.getByRole('button', { name: 'Cancel' }).click();
    await keyCard.getByRole('button', { name: 'Test profile Acme (API key)' }).click();
    await expect(keyCard.getByRole('status')).toContainText('✗');

    // Every screen, with the demo project to fill the project screens.
    await page.getByTestId('demo-start').click();
    await expect(page).toHaveURL(/#\/projects\/\d+\/mapping$/);
    await page.getByTestId('mapping-continue').click();
    await expect(page).toHaveURL(/\/run$/);
    await page.getByTestId('run-start').click();
    await expect(page).toHaveURL(/\/review$/, { timeout: 30_000 });
    await expect(page.getByTestId('row-panel')).toBeVisible();
    await page.keyboard.press('Enter');
    await page.getByRole('navigation', { name: 'Project steps' }).getByRole('link', { name: 'Export' }).click();
    const downloading = page.waitForEvent('download');
    await page.getByTestId('export-button').click();
    const exported = readFileSync((await (await downloading).path())!, 'latin1');
    received.push({ what: 'the exported file', text: exported });
    for (const screen of ['#/projects', '#/settings', '#/account']) {
      await page.goto(`${app.origin}/${screen}`);
      await expect(page.locator('h1')).toBeVisible();
      await expect(page.getByTestId('active-profile')).not.toContainText('…');
    }
    await page.reload();
    await expect(page.getByTestId('profile-card')).toHaveCount(3);
    received.push({ what: 'the final page', text: await page.content() });
    received.push({ what: 'web storage', text: await page.evaluate(() => {
        const storage = globalThis as unknown as { localStorage: object; sessionStorage: object };
        return JSON.stringify([{ ...storage.localStorage }, { ...storage.sessionStorage }]);
      }) });
    await Promise.all(reading);

    // The recorder saw what it should: the profiles list, the events of the run, the project rows.
    expect(received.some((r) => r.what.includes('/api/call/profiles.list') && r.text.includes('Acme (API key)'))).toBe(true);
    expect(received.some((r) => r.what.startsWith('ws ') && r.text.includes('"kind":"run"'))).toBe(true);
    expect(received.length).toBeGreaterThan(30);
    for (const secret of secrets) {
      expect(received.filter((r) => r.text.includes(secret)).map((r) => r.what), `where ${secret} appeared`).toEqual([]);
    }
    // Nor is it written into the data folder (it lives in the keychain, or in memory for this session only).
    for (const file of filesUnder(app.dataDir)) {
      const bytes = readFileSync(file);
      for (const secret of secrets) expect(bytes.includes(secret), `${secret} in ${file}`).toBe(false);
    }
    expect(info.secrets === 'keychain' || info.secrets === 'session').toBe(true);
  });
});

async function addProfile(page: Page, profile: { name: string; kind: 'password' | 'api_key'; baseUrl: string; login: string | null; secret: string }): Promise<void> {
  await page.getByRole('button', { name: 'Add a profile' }).click();
  const form = page.getByRole('form', { name: 'New profile' });
  await form.getByLabel('Profile name').fill(profile.name);
  await form.getByLabel('Sign in with').selectOption(profile.kind);
  await form.getByLabel('Service address (base URL)').fill(profile.baseUrl);
  await form.getByLabel('Organization id').fill(DEMO_ORG_ID);
  if (profile.login !== null) await form.getByLabel('Username').fill(profile.login);
  await form.getByLabel(profile.kind === 'password' ? 'Password' : 'API key', { exact: true }).fill(profile.secret);
  await form.getByRole('button', { name: 'Save and test' }).click();
  await expect(form).toHaveCount(0);
  await expect(page.getByTestId('profile-card').filter({ hasText: profile.name })).toBeVisible();
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}
