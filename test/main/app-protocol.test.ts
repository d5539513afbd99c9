import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { APP_URL, serveAppRequest } from '../../electron/main/app-protocol';

const root = mkdtempSync(join(tmpdir(), 'matchdesk-protocol-'));
const rendererDir = join(root, 'renderer');
mkdirSync(join(rendererDir, 'assets'), { recursive: true });
writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>Matchdesk</title>');
writeFileSync(join(rendererDir, 'assets', 'index-abc.js'), 'console.log(1)');
writeFileSync(join(root, 'secret.txt'), 'outside');
symlinkSync(join(root, 'secret.txt'), join(rendererDir, 'assets', 'link.txt'));

afterAll(() => rmSync(root, { recursive: true, force: true }));

const get = (url: string, method = 'GET') => serveAppRequest(new Request(url, { method }), rendererDir);

describe('the app:// protocol', () => {
  it('serves the page and its assets with their types', async () => {
    const page = await get(APP_URL);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await page.text()).toContain('<title>Matchdesk</title>');
    const script = await get('app://matchdesk/assets/index-abc.js');
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
  });

  it.each([
    'app://matchdesk/../secret.txt',
    'app://matchdesk/%2e%2e/secret.txt',
    'app://matchdesk/assets/%2e%2e%2f%2e%2e%2fsecret.txt',
    'app://matchdesk/assets/..%5c..%5csecret.txt',
    'app://matchdesk/assets/link.txt',
    'app://matchdesk/missing.js',
    'app://other-host/index.html',
    'app://matchdesk/%00index.html',
  ])('answers 404 to %s', async (url) => {
    const response = await get(url);
    expect(response.status).toBe(404);
    expect(await response.text()).not.toContain('outside');
  });

  it('answers only GET', async () => {
    expect((await get(APP_URL, 'POST')).status).toBe(404);
  });
});
