// The browser host keeps uploads and exports in the data folder: owner-only, also when an earlier version made the
// folder open to every user of the machine (it made `exports/` before the database made the folder private).
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallResult, ExportResult, ProjectDetail } from '../../shared/contract';
import { startWebHost, type WebHost } from '../../electron/web/server';
import { skipBecause } from '../support/skips';

const posixSkipped = skipBecause('the owner-only file permission tests', process.platform === 'win32' ? 'Windows has no POSIX file modes' : null);
const mode = (p: string) => statSync(p).mode & 0o777;
const root = mkdtempSync(join(tmpdir(), 'matchdesk-web-private-'));
const rendererDir = join(root, 'renderer');
const dataDir = join(root, 'data');
const logged: string[] = [];
let host: WebHost;

beforeAll(async () => {
  mkdirSync(join(rendererDir, 'assets'), { recursive: true });
  copyFileSync(join(import.meta.dirname, '../../renderer/index.html'), join(rendererDir, 'index.html'));
  // The folder as the browser host left it before: 755, with an export of yesterday's 644.
  mkdirSync(join(dataDir, 'exports'), { recursive: true });
  writeFileSync(join(dataDir, 'exports', 'earlier-matches.csv'), 'Name\nAna\n');
  chmodSync(join(dataDir, 'exports', 'earlier-matches.csv'), 0o644);
  chmodSync(join(dataDir, 'exports'), 0o755);
  chmodSync(dataDir, 0o755);
  host = await startWebHost({ dataDir, rendererDir, log: (line) => logged.push(line) });
});
afterAll(async () => {
  await host?.close();
  rmSync(root, { recursive: true, force: true });
});

async function callOk<T>(name: string, input: unknown): Promise<T> {
  const response = await fetch(`${host.origin}/api/call/${name}`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-matchdesk-token': host.token }, body: JSON.stringify(input) });
  const result = (await response.json()) as CallResult<never>;
  if (!result.ok) throw new Error(`${name} failed: ${JSON.stringify(result.error)}`);
  return result.value as T;
}

describe.skipIf(posixSkipped)('the browser host keeps the data folder private', () => {
  it('tightens an open data folder before it makes anything in it, and says so', () => {
    expect(logged).toContain(`Matchdesk made its data folder ${dataDir} private (it was readable by other users, as were 2 items in it).`);
    expect(mode(dataDir)).toBe(0o700);
    expect(mode(join(dataDir, 'exports'))).toBe(0o700);
    expect(mode(join(dataDir, 'exports', 'earlier-matches.csv'))).toBe(0o600);
    expect(mode(join(dataDir, 'matchdesk.sqlite'))).toBe(0o600);
  });

  it('writes uploads and exports owner-only', async () => {
    const response = await fetch(`${host.origin}/api/upload`, {
      method: 'POST',
      headers: { 'x-matchdesk-token': host.token, 'x-matchdesk-file-name': 'people.csv' },
      body: 'Name,Email,Company\nAna Lima,ana@example.com,Acme\n',
    });
    const { ref } = (await response.json()) as { ref: string };
    const [folder] = readdirSync(join(dataDir, 'uploads'));
    expect(mode(join(dataDir, 'uploads'))).toBe(0o700);
    expect(mode(join(dataDir, 'uploads', folder!))).toBe(0o700);
    expect(mode(join(dataDir, 'uploads', folder!, 'people.csv'))).toBe(0o600);

    const detail = await callOk<ProjectDetail>('projects.import', { file: ref });
    for (const format of ['csv', 'xlsx']) {
      await callOk<ExportResult>('export.run', { projectId: detail.summary.id, format, scope: 'all', candidates: true });
    }
    const written = readdirSync(join(dataDir, 'exports')).filter((name) => name !== 'earlier-matches.csv');
    expect(written.sort()).toEqual(['people-matches-candidates.csv', 'people-matches-candidates.xlsx', 'people-matches.csv', 'people-matches.xlsx']);
    for (const name of written) expect(mode(join(dataDir, 'exports', name))).toBe(0o600);
  });
});
