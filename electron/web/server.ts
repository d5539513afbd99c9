// The browser host: the built renderer and the contract on 127.0.0.1, behind a per-launch token
// (docs/architecture.md). It is how the whole app runs in a real browser where Electron cannot.
import { spawn } from 'node:child_process';
import { createReadStream, existsSync, readFileSync } from 'node:fs';
import { mkdir, readdir, rm, stat } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { basename, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { WebSocketServer, type WebSocket } from 'ws';
import { EVENT_NAMES, isCallName, type CallName, type CallResult, type ContractError, type ExportResult } from '../../shared/contract';
import type { StartingEngine } from '../engine/facade/starting-engine';
import type { EngineOptions } from '../engine/facade/engine-api';
import { makeDataFolderPrivate } from '../engine/store/private-folder';
import { translateBrowserInput } from './browser-files';
import { attachmentHeader, Downloads } from './downloads';
import {
  allowedHosts,
  connectionRefusal,
  newToken,
  presentedTokens,
  tokenCookie,
  tokensEqual,
} from './request-guard';
import { routeCall, type ContractEngine, type HostCalls } from '../engine/route-call';
import { contentTypeFor, cspOfIndexHtml, indexHtmlPath, resolveStaticPath } from './static-files';
import { UploadTooLarge, Uploads } from './uploads';

const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const DEFAULT_RENDERER_DIR = join(REPO_ROOT, 'out', 'renderer');
/** Contract inputs are small; a megabyte leaves room and stops a runaway body early. */
const MAX_CALL_BODY = 1024 * 1024;
export const FILE_NAME_HEADER = 'x-matchdesk-file-name';
/** Exports the browser already took; kept a day in case the download needs repeating. */
const EXPORT_KEEP_MS = 24 * 60 * 60 * 1000;

export class WebHostError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WebHostError';
  }
}

export interface WebHostOptions {
  dataDir: string;
  /** 0 (the default) picks a free port. */
  port?: number;
  host?: '127.0.0.1';
  rendererDir?: string;
  /** An engine to serve instead of creating one; the caller keeps it and closes it. */
  engine?: ContractEngine;
  /** Try to open the URL in the default browser. */
  open?: boolean;
  /** Progress lines (building the renderer); never the token. */
  log?: (line: string) => void;
}

export interface WebHost {
  /** The page to open, with the token: http://127.0.0.1:PORT/?token=... */
  url: string;
  /** Resolves when the engine has started (the page can be opened before); rejects with why it could not. */
  started: Promise<void>;
  origin: string;
  token: string;
  port: number;
  close(): Promise<void>;
}

/** The browser cannot show native dialogs: the renderer falls back to a file input and a download. */
const browserHostCalls: HostCalls = {
  'dialog.openSheet': () => ({ supported: false, file: null }),
  'dialog.saveExport': () => ({ supported: false, path: null }),
};

export async function startWebHost(options: WebHostOptions): Promise<WebHost> {
  const log = options.log ?? (() => undefined);
  const rendererDir = resolve(options.rendererDir ?? DEFAULT_RENDERER_DIR);
  await ensureRendererBuilt(rendererDir, rendererDir === resolve(DEFAULT_RENDERER_DIR), log);
  const csp = cspOfIndexHtml(readFileSync(indexHtmlPath(rendererDir), 'utf8'));
  if (!csp) throw new WebHostError(`${indexHtmlPath(rendererDir)} has no Content-Security-Policy meta tag; refusing to serve it without one.`);
  // frame-ancestors works only as a header, so the header adds it to the page's own policy.
  const cspHeader = `${csp}; frame-ancestors 'none'`;

  const dataDir = resolve(options.dataDir);
  // Private before the host makes anything in it: its exports and uploads hold people's details.
  const privacyNotice = makeDataFolderPrivate(dataDir);
  if (privacyNotice) log(privacyNotice);
  const exportDir = join(dataDir, 'exports');
  await mkdir(exportDir, { recursive: true, mode: 0o700 });
  await removeOldExports(exportDir);
  const uploads = new Uploads(join(dataDir, 'uploads'));
  // Uploads left by an earlier launch belong to references that no longer exist.
  await uploads.clear();
  const downloads = new Downloads();

  // Loaded on demand: `matchdesk --help` and tests that bring their own engine do not pay for opening one. The page is
  // served while the engine starts: it shows how far bringing an older data folder up to this version is.
  const ownedEngine = options.engine ? null : await startEngine({ dataDir, host: 'web', exportDir });
  const engine: ContractEngine = options.engine ?? ownedEngine!;
  const token = newToken();
  // The cookie's own secret, not the API token: browsers send a cookie to every port of 127.0.0.1, so any other local
  // server the browser visits receives it. It opens the page, its assets and downloads, never an API call or events.
  const pageCookie = newToken();
  let port = 0;

  const sockets = new Set<WebSocket>();
  const events = new WebSocketServer({ noServer: true, maxPayload: 4096 });
  const stopEvents = EVENT_NAMES.map((name) =>
    engine.on(name, (payload) => {
      const message = JSON.stringify({ event: name, payload });
      for (const socket of sockets) if (socket.readyState === socket.OPEN) socket.send(message);
    }),
  );

  const server: Server = createServer((req, res) => {
    handleRequest(req, res).catch((err: unknown) => {
      if (!res.headersSent) sendJson(res, 500, failure({ kind: 'internal', message: `The browser host failed: ${err instanceof Error ? err.message : String(err)}` }));
      else res.destroy();
    });
  });
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const url = requestUrl(req, port);
    const refusal = connectionRefusal(req, port);
    const tokens = presentedTokens(req, url, port);
    if (url.pathname !== '/api/events') return refuseUpgrade(socket, 404);
    // The upgrade is checked like any request: browsers send Origin on WebSockets, which are not bound by CORS.
    if (refusal || !tokensEqual(tokens.query, token)) return refuseUpgrade(socket, 403);
    events.handleUpgrade(req, socket, head, (ws) => {
      sockets.add(ws);
      ws.on('close', () => sockets.delete(ws));
      ws.on('error', () => sockets.delete(ws));
    });
  });

  async function handleRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = requestUrl(req, port);
    const refusal = connectionRefusal(req, port);
    const path = url.pathname;
    if (refusal) {
      if (path.startsWith('/api/')) return sendJson(res, refusal.status, failure({ kind: 'forbidden', message: refusal.reason, code: 'refused' }));
      return sendText(res, refusal.status, refusal.reason);
    }
    const tokens = presentedTokens(req, url, port);

    if (path.startsWith('/api/')) {
      // API calls need the header: only script on our own page knows the token, so a cookie alone is not enough.
      const byHeader = tokensEqual(tokens.header, token);
      const callMatch = /^\/api\/call\/([^/]+)$/.exec(path);
      if (callMatch && req.method === 'POST') {
        if (!byHeader) return sendJson(res, 403, forbidden());
        return handleCall(callMatch[1], req, res);
      }
      if (path === '/api/upload' && req.method === 'POST') {
        if (!byHeader) return sendJson(res, 403, forbidden());
        return handleUpload(req, res);
      }
      const downloadMatch = /^\/api\/download\/([^/]+)$/.exec(path);
      if (downloadMatch && (req.method === 'GET' || req.method === 'HEAD')) {
        // A download is a navigation the page cannot add headers to: the HttpOnly, SameSite=Strict cookie does.
        if (!byHeader && !tokensEqual(tokens.cookie, pageCookie)) return sendText(res, 403, tokenHelp());
        return handleDownload(downloadMatch[1], req, res);
      }
      return sendJson(res, 404, failure({ kind: 'not_found', message: `No such endpoint: ${req.method} ${path}` }));
    }

    if (req.method !== 'GET' && req.method !== 'HEAD') return sendText(res, 405, 'Method not allowed.');
    const byQuery = tokensEqual(tokens.query, token);
    if (!byQuery && !tokensEqual(tokens.cookie, pageCookie)) return sendText(res, 403, tokenHelp());
    const file = resolveStaticPath(rendererDir, path);
    if (!file) return sendText(res, 404, 'Not found.');
    const info = await stat(file);
    res.writeHead(200, {
      ...pageHeaders(cspHeader),
      'content-type': contentTypeFor(file),
      'content-length': info.size,
      // The page may carry the token in its URL; assets are hashed by the build and safe to cache.
      'cache-control': file.endsWith('.html') ? 'no-store' : 'private, max-age=3600',
      // The page URL's token gives a cookie of its own secret, so that asset requests, reloads and downloads carry it.
      ...(byQuery ? { 'set-cookie': tokenCookie(port, pageCookie) } : {}),
    });
    if (req.method === 'HEAD') return void res.end();
    // A read that fails after the headers (the file gone, a disk error) ends the reply; unhandled, it ended the host.
    createReadStream(file)
      .on('error', () => res.destroy())
      .pipe(res);
  }

  async function handleCall(name: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
    let input: unknown;
    try {
      const body = await readBody(req, MAX_CALL_BODY);
      input = body.length === 0 ? {} : JSON.parse(body.toString('utf8'));
    } catch (err) {
      const message = err instanceof BodyTooLarge ? err.message : 'The request body is not valid JSON.';
      return sendJson(res, 400, failure({ kind: 'invalid_input', message }));
    }
    if (isCallName(name)) {
      const translated = translateBrowserInput(name, input, uploads);
      if (!translated.ok) return sendJson(res, 200, failure(translated.error));
      input = translated.input;
    }
    const result = await routeCall(engine, browserHostCalls, name, input);
    sendJson(res, 200, name === 'export.run' || name === 'search.export' || name === 'watch.exportChanges' ? offerDownload(result) : result);
  }

  /** Turns the engine's export files into download references the page can fetch; server paths stay here. */
  function offerDownload(result: CallResult<CallName>): CallResult<CallName> {
    if (!result.ok) return result;
    const value = result.value as ExportResult;
    const matches = offer(value);
    if (!matches) return failure({ kind: 'internal', message: 'The export finished but wrote no file to download.' });
    const candidates = value.candidates ? { ...value.candidates, ...(offer(value.candidates) ?? { path: null, downloadRef: null }) } : (value.candidates ?? null);
    return { ok: true, value: { ...value, ...matches, candidates } satisfies ExportResult };
  }

  function offer(file: { path: string | null; downloadRef: string | null; fileName: string }): { path: null; downloadRef: string } | null {
    const path = file.path ?? (file.downloadRef ? join(exportDir, basename(file.downloadRef)) : null);
    if (!path) return null;
    return { path: null, downloadRef: downloads.register(path, file.fileName || basename(path)) };
  }

  async function handleUpload(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const rawName = req.headers[FILE_NAME_HEADER];
    let fileName = 'upload';
    try {
      if (typeof rawName === 'string') fileName = decodeURIComponent(rawName);
    } catch {
      return sendJson(res, 400, { error: { kind: 'invalid_input', message: 'The file name header is not valid.' } });
    }
    const length = Number(req.headers['content-length']);
    const release = holdBackground();
    try {
      const ref = await uploads.receive(req, fileName, Number.isFinite(length) ? length : undefined);
      sendJson(res, 200, { ref });
    } catch (err) {
      if (err instanceof UploadTooLarge) {
        // Stop reading: the browser gets the answer without sending the rest.
        res.setHeader('connection', 'close');
        return sendJson(res, 413, { error: { kind: 'invalid_input', message: err.message, code: 'too_large' } });
      }
      throw err;
    } finally {
      release();
    }
  }

  /** Background work in the engine waits while the host moves a file for the user; returns the release. */
  function holdBackground(): () => void {
    return engine.holdBackground?.() ?? (() => undefined);
  }

  async function handleDownload(ref: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
    const download = downloads.get(ref);
    const info = download ? await stat(download.path).catch(() => null) : null;
    if (!download || !info?.isFile()) return sendText(res, 404, 'This export is no longer available. Export again.');
    res.writeHead(200, {
      'content-type': contentTypeFor(download.fileName),
      'content-length': info.size,
      'content-disposition': attachmentHeader(download.fileName),
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
    });
    if (req.method === 'HEAD') return void res.end();
    // Streaming the file is not an engine call: background work (the text index's fill) would take the event loop
    // between its chunks, one 64 KB chunk a slice, so a large export's download would crawl.
    res.once('close', holdBackground());
    createReadStream(download.path)
      .on('error', () => res.destroy())
      .pipe(res);
  }

  try {
    await listen(server, options.port ?? 0, options.host ?? '127.0.0.1');
  } catch (err) {
    // A taken port must not leave the database open behind the error.
    stopEvents.forEach((stop) => stop());
    await ownedEngine?.close();
    throw err;
  }
  port = (server.address() as AddressInfo).port;
  const origin = `http://${allowedHosts(port)[0]}`;
  const url = `${origin}/?token=${token}`;
  if (options.open) openInBrowser(url);

  let closing: Promise<void> | null = null;
  const close = () =>
    (closing ??= (async () => {
      stopEvents.forEach((stop) => stop());
      for (const socket of sockets) socket.terminate();
      events.close();
      await new Promise<void>((done) => {
        server.close(() => done());
        server.closeAllConnections();
      });
      if (ownedEngine) await ownedEngine.close();
      await uploads.clear();
    })());
  const started = ownedEngine ? ownedEngine.started.then(() => undefined) : Promise.resolve();
  // Whoever awaits it sees a failed start; a host closed while its engine was starting may have nobody waiting on it.
  started.catch(() => undefined);
  return { url, origin, token, port, close, started };
}

async function startEngine(opts: EngineOptions): Promise<StartingEngine> {
  const [{ createEngine }, { StartingEngine }] = await Promise.all([import('../engine/engine'), import('../engine/facade/starting-engine')]);
  return new StartingEngine((start) => createEngine({ ...opts, ...start }));
}

function requestUrl(req: IncomingMessage, port: number): URL {
  try {
    return new URL(req.url ?? '/', `http://127.0.0.1:${port}`);
  } catch {
    return new URL('/invalid', `http://127.0.0.1:${port}`);
  }
}

function pageHeaders(csp: string): Record<string, string> {
  return {
    'content-security-policy': csp,
    'x-content-type-options': 'nosniff',
    // The page URL may hold the token: never send it on as a referrer.
    'referrer-policy': 'no-referrer',
    'x-frame-options': 'DENY',
    'cross-origin-opener-policy': 'same-origin',
    'cross-origin-resource-policy': 'same-origin',
  };
}

function failure(error: ContractError): CallResult<CallName> {
  return { ok: false, error };
}

function forbidden(): CallResult<CallName> {
  return failure({ kind: 'forbidden', message: tokenHelp(), code: 'token' });
}

function tokenHelp(): string {
  return 'This page has no valid access token. Open the link that "matchdesk web" printed (it ends in ?token=...); a new launch prints a new link.';
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
  });
  res.end(text);
}

function sendText(res: ServerResponse, status: number, text: string): void {
  res.writeHead(status, {
    'content-type': 'text/plain; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
  });
  res.end(text);
}

function refuseUpgrade(socket: Duplex, status: 403 | 404): void {
  const text = status === 403 ? 'Forbidden' : 'Not Found';
  socket.end(`HTTP/1.1 ${status} ${text}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
}

class BodyTooLarge extends Error {
  constructor(limit: number) {
    super(`The request body is larger than ${limit} bytes.`);
  }
}

async function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) throw new BodyTooLarge(limit);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((done, fail) => {
    server.once('error', fail);
    server.listen(port, host, () => {
      server.off('error', fail);
      done();
    });
  });
}

async function removeOldExports(dir: string): Promise<void> {
  const now = Date.now();
  for (const entry of await readdir(dir)) {
    const path = join(dir, entry);
    const info = await stat(path).catch(() => null);
    if (info && now - info.mtimeMs > EXPORT_KEEP_MS) await rm(path, { recursive: true, force: true });
  }
}

/** Builds the renderer on first use from a checkout, so `npm run web` works on a fresh clone. */
async function ensureRendererBuilt(rendererDir: string, isDefault: boolean, log: (line: string) => void): Promise<void> {
  if (existsSync(indexHtmlPath(rendererDir))) return;
  if (!isDefault) throw new WebHostError(`No built renderer in ${rendererDir} (index.html is missing).`);
  const cli = join(REPO_ROOT, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js');
  if (!existsSync(cli)) throw new WebHostError('The app is not built and electron-vite is not installed. Run "npm ci", then "npm run build".');
  log('Building the app (first run only)...');
  const code = await new Promise<number | null>((done) => {
    const child = spawn(process.execPath, [cli, 'build'], { cwd: REPO_ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
    let errors = '';
    child.stderr.on('data', (chunk: Buffer) => (errors = (errors + chunk.toString()).slice(-4000)));
    child.on('error', () => done(null));
    child.on('close', (status) => {
      if (status !== 0 && errors) log(errors.trim());
      done(status);
    });
  });
  if (code !== 0 || !existsSync(indexHtmlPath(rendererDir))) throw new WebHostError('Building the app failed. Run "npm run build" to see why.');
}

function openInBrowser(url: string): void {
  const [command, args] =
    process.platform === 'darwin' ? ['open', [url]] : process.platform === 'win32' ? ['cmd', ['/c', 'start', '""', url]] : ['xdg-open', [url]];
  try {
    const child = spawn(command, args as string[], { detached: true, stdio: 'ignore' });
    // No browser to open is fine: the URL is printed anyway.
    child.on('error', () => undefined);
    child.unref();
  } catch {
    // Same: the printed URL is enough.
  }
}
