// The renderer's HTTP transport (renderer/src/http-bridge.ts) against a real browser host and engine, with Node's
// own fetch and WebSocket standing in for the browser's.
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ImportProgress } from '../../shared/contract';
import { onJobDetail } from '../support/job-events';
import { startWebHost, type WebHost } from '../../electron/web/server';
import { ContractCallError, createHttpBridge } from '../../renderer/src/http-bridge';

const root = mkdtempSync(join(tmpdir(), 'matchdesk-bridge-'));
let host: WebHost;

beforeAll(async () => {
  mkdirSync(join(root, 'renderer'));
  copyFileSync(join(import.meta.dirname, '../../renderer/index.html'), join(root, 'renderer', 'index.html'));
  host = await startWebHost({ dataDir: join(root, 'data'), rendererDir: join(root, 'renderer') });
});

afterAll(async () => {
  await host?.close();
  rmSync(root, { recursive: true, force: true });
});

describe('the HTTP bridge', () => {
  it('carries calls and their errors as CallResults', async () => {
    const bridge = createHttpBridge({ origin: host.origin, token: host.token });
    await expect(bridge.call('app.info', {})).resolves.toMatchObject({ ok: true, value: { host: 'web' } });
    await expect(bridge.call('projects.get', { projectId: 'x' as never })).resolves.toMatchObject({ ok: false, error: { kind: 'invalid_input' } });
    await expect(bridge.call('projects.get', { projectId: 999 })).resolves.toMatchObject({ ok: false, error: { kind: 'not_found' } });
    bridge.close();
  });

  it('says what to do when the token is missing or wrong', async () => {
    const missing = createHttpBridge({ origin: host.origin, token: null });
    await expect(missing.call('app.info', {})).resolves.toMatchObject({ ok: false, error: { kind: 'forbidden', code: 'token' } });
    const wrong = createHttpBridge({ origin: host.origin, token: 'wrong' });
    await expect(wrong.call('app.info', {})).resolves.toMatchObject({ ok: false, error: { kind: 'forbidden', message: expect.stringContaining('?token=') } });
    await expect(wrong.pathForFile(new File(['a'], 'a.csv'))).rejects.toBeInstanceOf(ContractCallError);
  });

  it('says the host is gone when nothing answers', async () => {
    const gone = createHttpBridge({ origin: 'http://127.0.0.1:9', token: 'x' });
    await expect(gone.call('app.info', {})).resolves.toMatchObject({ ok: false, error: { code: 'host_unreachable' } });
  });

  it('uploads a File and imports it by its reference, delivering progress events', async () => {
    const bridge = createHttpBridge({ origin: host.origin, token: host.token });
    const progress: ImportProgress[] = [];
    const stop = onJobDetail(bridge, 'import', (payload) => progress.push(payload));
    // Give the event socket a moment to open before the import starts.
    await new Promise((resolve) => setTimeout(resolve, 200));
    const rows = Array.from({ length: 2000 }, (_, i) => `Person ${i},p${i}@example.com`).join('\n');
    const ref = await bridge.pathForFile(new File([`Name,Email\n${rows}\n`], 'team.csv'));
    expect(ref).toMatch(/^upload:/);
    const imported = await bridge.call('projects.import', { file: ref });
    expect(imported).toMatchObject({ ok: true, value: { summary: { rowCount: 2000, sourceName: 'team.csv' } } });
    await new Promise((resolve) => setTimeout(resolve, 100));
    stop();
    bridge.close();
    expect(progress.length).toBeGreaterThan(0);
  });

  it('reconnects the event stream after it drops, with growing delays', async () => {
    const delays: number[] = [];
    const sockets: { onclose: ((e: unknown) => void) | null; onopen: ((e: unknown) => void) | null; closed: boolean }[] = [];
    const pending: (() => void)[] = [];
    const bridge = createHttpBridge({
      origin: host.origin,
      token: host.token,
      minReconnectMs: 100,
      maxReconnectMs: 350,
      setTimeout: (run, ms) => {
        delays.push(ms);
        pending.push(run);
      },
      openSocket: () => {
        const socket = { onopen: null, onmessage: null, onclose: null, onerror: null, closed: false, close() { this.closed = true; } };
        sockets.push(socket);
        return socket;
      },
    });
    const stop = bridge.on('job.progress', () => undefined);
    for (let i = 0; i < 4; i++) {
      sockets.at(-1)!.onclose?.({});
      pending.shift()!();
    }
    expect(delays).toEqual([100, 200, 350, 350]);
    // A connection that opens resets the delay.
    sockets.at(-1)!.onopen?.({});
    sockets.at(-1)!.onclose?.({});
    expect(delays.at(-1)).toBe(100);
    pending.shift()!();
    stop();
    expect(sockets.at(-1)!.closed).toBe(true);
    expect(sockets).toHaveLength(6);
    bridge.close();
  });
});
