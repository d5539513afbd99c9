// Maps a request path to a file of the built renderer, for the browser host and the Electron app:// protocol.
import { realpathSync, statSync } from 'node:fs';
import { extname, isAbsolute, join, relative, resolve } from 'node:path';

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.ico': 'image/x-icon',
  '.webp': 'image/webp',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.txt': 'text/plain; charset=utf-8',
  '.csv': 'text/csv; charset=utf-8',
  '.xlsx': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  '.wasm': 'application/wasm',
};

export function contentTypeFor(path: string): string {
  return CONTENT_TYPES[extname(path).toLowerCase()] ?? 'application/octet-stream';
}

/**
 * The file under `root` a URL path names, or null. Refuses anything that could leave the folder: encoded
 * separators, "..", NUL bytes, absolute paths, and symlinks pointing outside.
 */
export function resolveStaticPath(root: string, urlPath: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  if (decoded.includes('\0') || decoded.includes('\\')) return null;
  // Any ".." segment is refused outright rather than normalized: no legitimate asset path has one.
  if (decoded.split('/').some((segment) => segment === '..')) return null;
  const wanted = decoded === '/' || decoded === '' ? 'index.html' : decoded.replace(/^\/+/, '');
  const rootPath = resolve(root);
  const candidate = resolve(rootPath, wanted);
  if (!inside(rootPath, candidate)) return null;
  try {
    // realpath: a symlink inside the folder must not reach a file outside it.
    const real = realpathSync(candidate);
    if (!inside(realpathSync(rootPath), real)) return null;
    return statSync(real).isFile() ? real : null;
  } catch {
    return null;
  }
}

function inside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel);
}

/** The Content-Security-Policy of the renderer, read from the meta tag of its index.html (one source of truth). */
export function cspOfIndexHtml(html: string): string | null {
  const meta = /<meta\s+http-equiv="Content-Security-Policy"\s+content="([^"]+)"\s*\/?>/i.exec(html);
  return meta ? meta[1].replace(/\s+/g, ' ').trim() : null;
}

export function indexHtmlPath(root: string): string {
  return join(root, 'index.html');
}
