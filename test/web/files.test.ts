import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { translateBrowserInput } from '../../electron/web/browser-files';
import { attachmentHeader, Downloads } from '../../electron/web/downloads';
import { cspOfIndexHtml, resolveStaticPath } from '../../electron/web/static-files';
import { UploadTooLarge, Uploads } from '../../electron/web/uploads';

const root = mkdtempSync(join(tmpdir(), 'matchdesk-web-files-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('static files', () => {
  const dir = join(root, 'renderer');
  mkdirSync(join(dir, 'assets'), { recursive: true });
  writeFileSync(join(dir, 'index.html'), 'page');
  writeFileSync(join(dir, 'assets', 'app.js'), 'js');
  writeFileSync(join(root, 'secret.txt'), 'secret');
  symlinkSync(join(root, 'secret.txt'), join(dir, 'assets', 'escape.txt'));

  it('serves index.html for / and files by path', () => {
    expect(resolveStaticPath(dir, '/')).toBe(join(dir, 'index.html'));
    expect(resolveStaticPath(dir, '/assets/app.js')).toBe(join(dir, 'assets', 'app.js'));
  });

  it.each(['/../secret.txt', '/assets/../../secret.txt', '/%2e%2e/secret.txt', '/assets/%2e%2e%2f%2e%2e%2fsecret.txt', '/..%5csecret.txt', '/assets/escape.txt', '/assets', '/%00', '/%E0%A4%A', `/${join(root, 'secret.txt')}`])(
    'refuses %s',
    (path) => {
      expect(resolveStaticPath(dir, path)).toBeNull();
    },
  );

  it('reads the CSP from the renderer index.html', () => {
    const csp = cspOfIndexHtml(readFileSync(join(import.meta.dirname, '../../renderer/index.html'), 'utf8'));
    expect(csp).toMatch(/^default-src 'none'; script-src 'self';/);
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).not.toContain('unsafe-eval');
  });
});

describe('uploads', () => {
  it('streams a body to its own folder under the original name and hands out a reference', async () => {
    const uploads = new Uploads(join(root, 'uploads-a'));
    const ref = await uploads.receive(Readable.from([Buffer.from('name,email\n'), Buffer.from('Ana,ana@example.com\n')]), 'people.csv');
    expect(ref).toMatch(/^upload:[A-Za-z0-9_-]{22}$/);
    const path = uploads.pathOf(ref)!;
    expect(path.endsWith('people.csv')).toBe(true);
    expect(readFileSync(path, 'utf8')).toBe('name,email\nAna,ana@example.com\n');
    expect(uploads.pathOf('upload:AAAAAAAAAAAAAAAAAAAAAA')).toBeNull();
    expect(uploads.pathOf('/etc/passwd')).toBeNull();
    await uploads.clear();
    expect(uploads.pathOf(ref)).toBeNull();
  });

  it('stops at the size limit and leaves nothing behind', async () => {
    const uploads = new Uploads(join(root, 'uploads-b'), 10);
    await expect(uploads.receive(Readable.from([Buffer.alloc(6), Buffer.alloc(6)]), 'big.csv')).rejects.toBeInstanceOf(UploadTooLarge);
    await expect(uploads.receive(Readable.from([]), 'big.csv', 11)).rejects.toBeInstanceOf(UploadTooLarge);
    expect(readdirSync(join(root, 'uploads-b'))).toEqual([]);
  });
});

describe('browser inputs', () => {
  const uploads = { pathOf: (ref: string) => (ref === 'upload:AAAAAAAAAAAAAAAAAAAAAA' ? '/data/uploads/AAAA/people.csv' : null) };

  it('turns an upload reference into its temp path', () => {
    expect(translateBrowserInput('projects.import', { file: 'upload:AAAAAAAAAAAAAAAAAAAAAA', name: 'x' }, uploads)).toEqual({
      ok: true,
      input: { file: '/data/uploads/AAAA/people.csv', name: 'x' },
    });
    expect(translateBrowserInput('projects.sheets', { file: 'upload:AAAAAAAAAAAAAAAAAAAAAA' }, uploads)).toMatchObject({ ok: true });
  });

  it('refuses raw paths and unknown uploads', () => {
    for (const file of ['/etc/passwd', 'C:\\Users\\ana\\people.csv', '~/people.csv', 'file:///etc/passwd']) {
      expect(translateBrowserInput('projects.import', { file }, uploads)).toMatchObject({ ok: false, error: { kind: 'invalid_input', code: 'path_refused' } });
    }
    expect(translateBrowserInput('projects.sheets', { file: 'upload:BBBBBBBBBBBBBBBBBBBBBB' }, uploads)).toMatchObject({ ok: false, error: { kind: 'not_found' } });
  });

  it('refuses an export destination and lets the host choose', () => {
    expect(translateBrowserInput('export.run', { projectId: 1, destination: '/home/ana/.bashrc' }, uploads)).toMatchObject({ ok: false, error: { code: 'path_refused' } });
    // The candidates file too: without it, the engine would write the candidates wherever the page said.
    expect(translateBrowserInput('export.run', { projectId: 1, candidates: true, candidatesDestination: '/home/ana/.bashrc' }, uploads)).toMatchObject({ ok: false, error: { code: 'path_refused' } });
    expect(translateBrowserInput('export.run', { projectId: 1, format: 'csv' }, uploads)).toEqual({ ok: true, input: { projectId: 1, format: 'csv', destination: null } });
  });

  it('refuses a changes export destination and lets the host choose', () => {
    expect(translateBrowserInput('watch.exportChanges', { projectId: 1, since: '2026-01-01', destination: '/home/ana/.bashrc' }, uploads)).toMatchObject({ ok: false, error: { code: 'path_refused' } });
    expect(translateBrowserInput('watch.exportChanges', { projectId: 1, since: '2026-01-01', format: 'csv' }, uploads)).toEqual({
      ok: true,
      input: { projectId: 1, since: '2026-01-01', format: 'csv', destination: null },
    });
  });

  it('leaves other calls and malformed inputs for the schema', () => {
    expect(translateBrowserInput('projects.get', { projectId: 1 }, uploads)).toEqual({ ok: true, input: { projectId: 1 } });
    expect(translateBrowserInput('projects.import', { file: 42 }, uploads)).toEqual({ ok: true, input: { file: 42 } });
    expect(translateBrowserInput('projects.import', 'nonsense', uploads)).toEqual({ ok: true, input: 'nonsense' });
  });
});

describe('downloads', () => {
  it('hands out unguessable references for files the host wrote', () => {
    const downloads = new Downloads();
    const ref = downloads.register('/data/exports/a.csv', 'matches.csv');
    expect(downloads.get(ref)).toEqual({ path: '/data/exports/a.csv', fileName: 'matches.csv' });
    expect(downloads.get('../a.csv')).toBeNull();
    expect(downloads.get('AAAAAAAAAAAAAAAAAAAAAA')).toBeNull();
  });

  it('names the attachment safely, keeping Unicode in filename*', () => {
    expect(attachmentHeader('Zoë "matches".csv')).toBe(`attachment; filename="Zo_ _matches_.csv"; filename*=UTF-8''Zo%C3%AB%20%22matches%22.csv`);
  });
});
