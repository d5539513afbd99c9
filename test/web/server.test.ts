// The browser host over real HTTP and WebSocket, with the real engine on a SQLite file in a temp folder.
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { CallResult, ExportResult, ProjectDetail } from '../../shared/contract';
import { startWebHost, type WebHost } from '../../electron/web/server';

const root = mkdtempSync(join(tmpdir(), 'matchdesk-web-'));
const rendererDir = join(root, 'renderer');
const dataDir = join(root, 'data');
let host: WebHost;

const PEOPLE_CSV = 'Name,Email,Company\nAna Lima,ana@example.com,Acme\nBo Chen,bo@example.com,Globex\n';

beforeAll(async () => {
  // The real index.html (and so the real CSP) with a stand-in asset: these tests need no renderer build.
  mkdirSync(join(rendererDir, 'assets'), { recursive: true });
  copyFileSync(join(import.meta.dirname, '../../renderer/index.html'), join(rendererDir, 'index.html'));
  writeFileSync(join(rendererDir, 'assets', 'app.js'), 'console.log("matchdesk")');
  writeFileSync(join(root, 'outside.txt'), 'not for the browser');
  host = await startWebHost({ dataDir, rendererDir });
});

afterAll(async () => {
  await host?.close();
  rmSync(root, { recursive: true, force: true });
});

interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** node:http rather than fetch: fetch will not send a forged Host header or an unnormalized path. */
function raw(path: string, options: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: host.port, path, method: options.method ?? 'GET', headers: { host: `127.0.0.1:${host.port}`, ...options.headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

function call(name: string, input: unknown, headers: Record<string, string> = {}): Promise<RawResponse> {
  return raw(`/api/call/${name}`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-matchdesk-token': host.token, ...headers }, body: JSON.stringify(input) });
}

async function callOk<T>(name: string, input: unknown): Promise<T> {
  const response = await call(name, input);
  const result = JSON.parse(response.body) as CallResult<never>;
  if (!result.ok) throw new Error(`${name} failed: ${JSON.stringify(result.error)}`);
  return result.value as T;
}

async function upload(name: string, body: string): Promise<string> {
  const response = await raw('/api/upload', { method: 'POST', headers: { 'x-matchdesk-token': host.token, 'x-matchdesk-file-name': encodeURIComponent(name) }, body });
  expect(response.status).toBe(200);
  return (JSON.parse(response.body) as { ref: string }).ref;
}

function cookieFrom(response: RawResponse): string {
  const setCookie = response.headers['set-cookie'];
  return (Array.isArray(setCookie) ? setCookie[0] : String(setCookie)).split(';')[0]!;
}

/** The cookie the page's first load gives, as the browser then sends it. */
async function pageCookie(): Promise<string> {
  return cookieFrom(await raw(`/?token=${host.token}`));
}

describe('the browser host', () => {
  it('prints a loopback URL with a 32-byte token', () => {
    expect(host.url).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${host.port}/\\?token=[A-Za-z0-9_-]{43}$`));
  });

  it('serves the page for the token in its URL, with the CSP of index.html and a strict cookie', async () => {
    const page = await raw(`/?token=${host.token}`);
    expect(page.status).toBe(200);
    expect(page.body).toContain('<div id="root">');
    expect(page.headers['content-security-policy']).toMatch(/^default-src 'none'; script-src 'self';.*frame-ancestors 'none'$/);
    expect(page.headers['x-content-type-options']).toBe('nosniff');
    expect(page.headers['referrer-policy']).toBe('no-referrer');
    const cookie = String(page.headers['set-cookie']);
    expect(cookie).toContain('HttpOnly');
    expect(cookie).toContain('SameSite=Strict');
    const asset = await raw('/assets/app.js', { headers: { cookie: cookieFrom(page) } });
    expect(asset.status).toBe(200);
    expect(asset.headers['content-type']).toBe('text/javascript; charset=utf-8');
  });

  it('refuses tokenless requests', async () => {
    expect((await raw('/')).status).toBe(403);
    expect((await raw('/assets/app.js')).status).toBe(403);
    const api = await raw('/api/call/app.info', { method: 'POST', body: '{}' });
    expect(api.status).toBe(403);
    expect(JSON.parse(api.body)).toMatchObject({ ok: false, error: { kind: 'forbidden' } });
  });

  it('refuses a wrong token wherever it is presented', async () => {
    const wrong = `${host.token.slice(0, -2)}xx`;
    expect((await raw(`/?token=${wrong}`)).status).toBe(403);
    expect((await call('app.info', {}, { 'x-matchdesk-token': wrong })).status).toBe(403);
    expect((await raw('/assets/app.js', { headers: { cookie: `matchdesk_token_${host.port}=${wrong}` } })).status).toBe(403);
  });

  it('refuses an API call carrying only the cookie (the header proves our page sent it)', async () => {
    const response = await raw('/api/call/app.info', { method: 'POST', headers: { cookie: `matchdesk_token_${host.port}=${host.token}` }, body: '{}' });
    expect(response.status).toBe(403);
  });

  it("gives the page a cookie of its own secret, not the API token, which every server on 127.0.0.1 would be sent", async () => {
    const cookie = await pageCookie();
    const secret = cookie.slice(cookie.indexOf('=') + 1);
    expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(secret).not.toBe(host.token);
    expect((await raw('/assets/app.js', { headers: { cookie } })).status).toBe(200);
    // The cookie's secret opens no API call, upload or event stream.
    expect((await call('app.info', {}, { 'x-matchdesk-token': secret })).status).toBe(403);
    expect((await raw('/api/upload', { method: 'POST', headers: { 'x-matchdesk-token': secret, 'x-matchdesk-file-name': 'x.csv' }, body: 'a,b\n' })).status).toBe(403);
    const events = await new Promise<number>((resolve) => {
      const socket = new WebSocket(`ws://127.0.0.1:${host.port}/api/events?token=${secret}`, { origin: host.origin, headers: { cookie } });
      socket.on('open', () => {
        socket.close();
        resolve(101);
      });
      socket.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
      socket.on('error', () => resolve(-1));
    });
    expect(events).toBe(403);
  });

  it('refuses a foreign Origin even with the right token', async () => {
    for (const origin of ['http://evil.example', 'null', `http://127.0.0.1:${host.port + 1}`]) {
      expect((await call('app.info', {}, { origin })).status).toBe(403);
    }
    expect((await call('app.info', {}, { origin: host.origin })).status).toBe(200);
  });

  it('refuses a Host header other than its own (DNS rebinding)', async () => {
    const response = await raw(`/?token=${host.token}`, { headers: { host: `rebind.evil.example:${host.port}` } });
    expect(response.status).toBe(403);
    expect((await call('app.info', {}, { host: `127.0.0.1:${host.port + 1}` })).status).toBe(403);
    expect((await call('app.info', {}, { host: `localhost:${host.port}`, origin: `http://localhost:${host.port}` })).status).toBe(200);
  });

  it('answers a valid call', async () => {
    const info = await callOk<{ host: string; dataDir: string }>('app.info', {});
    expect(info).toMatchObject({ host: 'web', dataDir });
  });

  it('refuses malformed input with invalid_input', async () => {
    for (const [name, input] of [
      ['projects.get', { projectId: 'one' }],
      ['review.page', { projectId: 1, offset: -1, limit: 10 }],
      ['app.info', { extra: true }],
      ['no.such.call', {}],
    ] as const) {
      const result = JSON.parse((await call(name, input)).body) as CallResult<never>;
      expect(result).toMatchObject({ ok: false, error: { kind: 'invalid_input' } });
    }
    const notJson = await raw('/api/call/app.info', { method: 'POST', headers: { 'x-matchdesk-token': host.token }, body: '{"oops' });
    expect(notJson.status).toBe(400);
    expect(JSON.parse(notJson.body)).toMatchObject({ ok: false, error: { kind: 'invalid_input' } });
  });

  it('answers the dialog calls with supported: false', async () => {
    expect(await callOk('dialog.openSheet', {})).toEqual({ supported: false, file: null });
    expect(await callOk('dialog.saveExport', { defaultName: 'x.csv', format: 'csv' })).toEqual({ supported: false, path: null });
  });

  it('refuses path traversal', async () => {
    const cookie = await pageCookie();
    for (const path of ['/../outside.txt', '/assets/../../outside.txt', '/%2e%2e/outside.txt', '/assets/%2e%2e%2f%2e%2e%2foutside.txt', '/..%5coutside.txt', '/%2e%2e/data/matchdesk.sqlite']) {
      const response = await raw(path, { headers: { cookie } });
      expect(response.status, path).toBe(404);
      expect(response.body).not.toContain('not for the browser');
    }
  });

  it('refuses a raw file path from the browser', async () => {
    const importing = JSON.parse((await call('projects.import', { file: join(root, 'outside.txt') })).body) as CallResult<never>;
    expect(importing).toMatchObject({ ok: false, error: { kind: 'invalid_input', code: 'path_refused' } });
    const sheets = JSON.parse((await call('projects.sheets', { file: '/etc/passwd' })).body) as CallResult<never>;
    expect(sheets).toMatchObject({ ok: false, error: { kind: 'invalid_input', code: 'path_refused' } });
    const exporting = JSON.parse((await call('export.run', { projectId: 1, format: 'csv', scope: 'all', destination: join(root, 'x.csv') })).body) as CallResult<never>;
    expect(exporting).toMatchObject({ ok: false, error: { kind: 'invalid_input', code: 'path_refused' } });
  });

  it('imports an uploaded file, then streams its export as a download', async () => {
    const ref = await upload('people.csv', PEOPLE_CSV);
    expect(ref).toMatch(/^upload:/);
    const detail = await callOk<ProjectDetail>('projects.import', { file: ref });
    expect(detail.summary.rowCount).toBe(2);
    expect(detail.summary.sourceName).toBe('people.csv');
    expect(detail.headers).toEqual(['Name', 'Email', 'Company']);

    const exported = await callOk<ExportResult>('export.run', { projectId: detail.summary.id, format: 'csv', scope: 'all' });
    expect(exported.path).toBeNull();
    expect(exported.downloadRef).toMatch(/^[A-Za-z0-9_-]{22}$/);

    const tokenless = await raw(`/api/download/${exported.downloadRef}`);
    expect(tokenless.status).toBe(403);
    const cookie = await pageCookie();
    // The API token is no cookie: only the page's own secret is.
    expect((await raw(`/api/download/${exported.downloadRef}`, { headers: { cookie: `matchdesk_token_${host.port}=${host.token}` } })).status).toBe(403);
    const download = await raw(`/api/download/${exported.downloadRef}`, { headers: { cookie } });
    expect(download.status).toBe(200);
    expect(download.headers['content-disposition']).toMatch(/^attachment; filename="/);
    expect(download.headers['content-disposition']).toContain(exported.fileName.replace(/[^\x20-\x7e]/g, '_'));
    expect(download.body).toContain('Ana Lima');
    expect(download.body).toContain('bo@example.com');
    expect((await raw('/api/download/AAAAAAAAAAAAAAAAAAAAAA', { headers: { 'x-matchdesk-token': host.token } })).status).toBe(404);

    // The changes export for a CRM (no refresh yet: its header alone) is a download too, its server path kept here.
    const changes = await callOk<ExportResult>('watch.exportChanges', { projectId: detail.summary.id, since: '2026-01-01', format: 'csv' });
    expect(changes.path).toBeNull();
    expect(changes.downloadRef).toMatch(/^[A-Za-z0-9_-]{22}$/);
    const changesDownload = await raw(`/api/download/${changes.downloadRef}`, { headers: { cookie } });
    expect(changesDownload.status).toBe(200);
    expect(changesDownload.body).toContain('Name,Email,Company,change_person');
  });

  it('forgets an upload reference it never handed out', async () => {
    const result = JSON.parse((await call('projects.import', { file: 'upload:AAAAAAAAAAAAAAAAAAAAAA' })).body) as CallResult<never>;
    expect(result).toMatchObject({ ok: false, error: { kind: 'not_found' } });
  });

  it('refuses an upload without the token', async () => {
    const before = readdirSync(join(dataDir, 'uploads')).length;
    const response = await raw('/api/upload', { method: 'POST', headers: { 'x-matchdesk-file-name': 'x.csv' }, body: 'a,b\n' });
    expect(response.status).toBe(403);
    expect(readdirSync(join(dataDir, 'uploads'))).toHaveLength(before);
  });

  it('refuses a WebSocket without the token or from another origin, and accepts ours', async () => {
    const attempt = (url: string, origin?: string) =>
      new Promise<number>((resolve) => {
        const socket = new WebSocket(url, origin ? { origin } : {});
        socket.on('open', () => {
          socket.close();
          resolve(101);
        });
        socket.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
        socket.on('error', () => resolve(-1));
      });
    const base = `ws://127.0.0.1:${host.port}/api/events`;
    expect(await attempt(base)).toBe(403);
    expect(await attempt(`${base}?token=wrong`)).toBe(403);
    expect(await attempt(`${base}?token=${host.token}`, 'http://evil.example')).toBe(403);
    expect(await attempt(`${base}?token=${host.token}`, host.origin)).toBe(101);
  });

  it('sends engine events over the WebSocket', async () => {
    const socket = new WebSocket(`ws://127.0.0.1:${host.port}/api/events?token=${host.token}`, { origin: host.origin });
    await new Promise((resolve, reject) => {
      socket.once('open', resolve);
      socket.once('error', reject);
    });
    const messages: { event: string; payload: unknown }[] = [];
    socket.on('message', (data) => messages.push(JSON.parse(String(data)) as { event: string; payload: unknown }));
    const rows = Array.from({ length: 3000 }, (_, i) => `Person ${i},p${i}@example.com,Acme`).join('\n');
    const ref = await upload('many.csv', `Name,Email,Company\n${rows}\n`);
    await callOk('projects.import', { file: ref });
    await new Promise((resolve) => setTimeout(resolve, 100));
    socket.close();
    const progress = messages.filter((message) => message.event === 'job.progress' && (message.payload as { kind: string }).kind === 'import');
    expect(progress.length).toBeGreaterThan(0);
    expect(progress.at(-1)?.payload).toMatchObject({ kind: 'import', state: 'done', detail: { rowsRead: 3000 } });
  });
});
