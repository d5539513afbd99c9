import { describe, expect, it, vi } from 'vitest';
import type { MatchdeskBridge } from '../../shared/contract';

// The preload runs against a stand-in for the electron module: what it exposes and what it sends is real.
const electron = vi.hoisted(() => ({
  exposed: new Map<string, unknown>(),
  invoked: [] as unknown[][],
  listeners: new Map<string, Set<(...args: unknown[]) => void>>(),
  paths: new Map<unknown, string>(),
  /** What main answers instead of the usual, when set. */
  answer: null as unknown,
}));

vi.mock('electron', () => ({
  contextBridge: { exposeInMainWorld: (key: string, api: unknown) => electron.exposed.set(key, api) },
  ipcRenderer: {
    invoke: (...args: unknown[]) => {
      electron.invoked.push(args);
      return Promise.resolve(electron.answer ?? { ok: true, value: 'answer' });
    },
    on: (channel: string, listener: (...args: unknown[]) => void) => {
      const set = electron.listeners.get(channel) ?? new Set();
      set.add(listener);
      electron.listeners.set(channel, set);
    },
    removeListener: (channel: string, listener: (...args: unknown[]) => void) => electron.listeners.get(channel)?.delete(listener),
  },
  webUtils: { getPathForFile: (file: unknown) => electron.paths.get(file) ?? '' },
}));

await import('../../electron/preload/index');
const { CALL_CHANNEL, EVENT_CHANNEL, FILE_TOKEN_CHANNEL } = await import('../../electron/main/ipc-channels');
const bridge = electron.exposed.get('matchdesk') as MatchdeskBridge;

function emitFromMain(name: string, payload: unknown) {
  const ipcEvent = { sender: { secret: 'ipcRenderer internals' }, ports: [] };
  for (const listener of electron.listeners.get(EVENT_CHANNEL) ?? []) listener(ipcEvent, name, payload);
}

describe('the preload', () => {
  it('exposes window.matchdesk with call, on and pathForFile, and nothing else', () => {
    expect([...electron.exposed.keys()]).toEqual(['matchdesk']);
    expect(Object.keys(bridge).sort()).toEqual(['call', 'on', 'pathForFile']);
    expect(Object.values(bridge).every((value) => typeof value === 'function')).toBe(true);
  });

  it('sends calls on the one call channel', async () => {
    await expect(bridge.call('projects.get', { projectId: 4 })).resolves.toEqual({ ok: true, value: 'answer' });
    expect(electron.invoked).toEqual([[CALL_CHANNEL, 'projects.get', { projectId: 4 }]]);
  });

  it('delivers only the subscribed event, with its payload alone, until unsubscribed', () => {
    const got: unknown[][] = [];
    const stop = bridge.on('job.progress', (...args: unknown[]) => void got.push(args));
    emitFromMain('job.progress', { jobId: 1 });
    emitFromMain('project.changedCount', { projectId: 5 });
    emitFromMain('ipc.secret', { x: 1 });
    stop();
    emitFromMain('job.progress', { jobId: 2 });
    expect(got).toEqual([[{ jobId: 1 }]]);
    expect(electron.listeners.get(EVENT_CHANNEL)?.size).toBe(0);
  });

  it('refuses to subscribe to an event the contract does not name', () => {
    expect(() => bridge.on('__proto__' as never, () => undefined)).toThrow(/Unknown event/);
    expect(() => bridge.on('toString' as never, () => undefined)).toThrow(/Unknown event/);
  });

  it('turns a dropped file into the token main gives for its path, never the path, and refuses a file with none', async () => {
    const onDisk = new File(['a,b'], 'people.csv');
    electron.paths.set(onDisk, '/home/ana/people.csv');
    electron.invoked.length = 0;
    await expect(bridge.pathForFile(onDisk)).resolves.toBe('answer');
    expect(electron.invoked).toEqual([[FILE_TOKEN_CHANNEL, '/home/ana/people.csv']]);
    await expect(bridge.pathForFile(new File(['x'], 'made-up.csv'))).rejects.toThrow(/no location on disk/);
    expect(electron.invoked).toHaveLength(1);
  });

  it('passes on main refusing a token', async () => {
    const onDisk = new File(['a,b'], 'people.csv');
    electron.paths.set(onDisk, '/home/ana/people.csv');
    electron.answer = { ok: false, error: { kind: 'forbidden', message: 'Unexpected sender: not the app page.' } };
    try {
      await expect(bridge.pathForFile(onDisk)).rejects.toThrow('Unexpected sender: not the app page.');
    } finally {
      electron.answer = null;
    }
  });
});
