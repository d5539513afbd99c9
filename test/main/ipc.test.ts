import { EventEmitter } from 'node:events';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import type { CallName, CallResult, EventName, Events, JobProgress } from '../../shared/contract';
import { dispatch, type Handlers } from '../../electron/engine/dispatch';
import type { ContractEngine, HostCalls } from '../../electron/engine/route-call';

// Only the electron module is replaced; dispatch, zod and the routing are the real ones.
const electron = vi.hoisted(() => ({ handlers: new Map<string, (...args: unknown[]) => unknown>() }));
vi.mock('electron', () => ({
  ipcMain: {
    handle: (channel: string, handler: (...args: unknown[]) => unknown) => {
      if (electron.handlers.has(channel)) throw new Error(`Attempted to register a second handler for '${channel}'`);
      electron.handlers.set(channel, handler);
    },
    removeHandler: (channel: string) => electron.handlers.delete(channel),
  },
}));

const { ipcMain } = await import('electron');
const { forwardEvents, registerIpc, senderRefusal } = await import('../../electron/main/ipc');
const { CALL_CHANNEL, EVENT_CHANNEL, FILE_TOKEN_CHANNEL } = await import('../../electron/main/ipc-channels');
const { PickedFiles } = await import('../../electron/main/picked-files');
const { appLocationOf } = await import('../../electron/main/security');
const { nativeDialogs, SHEET_FILTERS } = await import('../../electron/main/native-dialogs');

const app = appLocationOf('app://matchdesk/index.html');

/** A WebContents (window `id`) with its main frame, and an event as ipcMain delivers it. */
function senderEvent(url: string, options: { subframe?: boolean; gone?: boolean; id?: number } = {}) {
  const mainFrame = { url, parent: null };
  const frame = options.subframe ? { url, parent: mainFrame } : mainFrame;
  return { sender: { id: options.id ?? 1, mainFrame }, senderFrame: options.gone ? null : frame };
}

/** An engine whose calls run through the real dispatch and contract schemas, recording what reached a handler. */
function dispatchingEngine(handlers: Handlers) {
  const reached: { name: string; input: unknown }[] = [];
  const recorded: Handlers = {};
  for (const [name, handler] of Object.entries(handlers)) {
    (recorded as Record<string, unknown>)[name] = (input: unknown) => {
      reached.push({ name, input });
      return (handler as (input: unknown) => unknown)(input);
    };
  }
  const emitter = new EventEmitter();
  const engine: ContractEngine & { emit<E extends EventName>(event: E, payload: Events[E]): void } = {
    call: ((name: CallName, input: unknown) => dispatch(recorded, [], name, input)) as ContractEngine['call'],
    on(event, listener) {
      emitter.on(event, listener);
      return () => emitter.off(event, listener);
    },
    emit: (event, payload) => emitter.emit(event, payload),
  };
  return { engine, reached };
}

const noDialogs: HostCalls = {
  'dialog.openSheet': () => ({ supported: true, file: null }),
  'dialog.saveExport': () => ({ supported: true, path: null }),
};

function register(engine: ContractEngine, hostCalls: HostCalls = noDialogs, picked = new PickedFiles()) {
  const unregister = registerIpc({ ipcMain, engine, hostCalls, app, picked });
  const handler = electron.handlers.get(CALL_CHANNEL)!;
  const invoke = (event: unknown, name: unknown, input?: unknown) => handler(event, name, input) as Promise<CallResult<CallName>>;
  /** What the preload asks for a dropped file: a token for the path Electron gave it. */
  const tokenFor = (event: unknown, path: unknown) => electron.handlers.get(FILE_TOKEN_CHANNEL)!(event, path) as { ok: boolean; value?: string; error?: { kind: string; message: string } };
  return { invoke, tokenFor, unregister, picked };
}

describe('IPC', () => {
  it('registers one handler for every call and one for the preload\'s file tokens, and removes them', () => {
    const { unregister } = register(dispatchingEngine({}).engine);
    expect([...electron.handlers.keys()]).toEqual([CALL_CHANNEL, FILE_TOKEN_CHANNEL]);
    unregister();
    expect(electron.handlers.size).toBe(0);
  });

  it('passes a valid call from the app page to the engine, parsed', async () => {
    const { engine, reached } = dispatchingEngine({
      'review.page': () => ({ rows: [], total: 0, counts: {} as never, jobChanges: {} as never, changedAtLastRefresh: 0, lastRefreshAt: null }),
    });
    const { invoke, unregister } = register(engine);
    const result = await invoke(senderEvent('app://matchdesk/index.html'), 'review.page', { projectId: 3, offset: 0, limit: 50 });
    unregister();
    expect(result).toEqual({ ok: true, value: { rows: [], total: 0, counts: {}, jobChanges: {}, changedAtLastRefresh: 0, lastRefreshAt: null } });
    expect(reached).toEqual([{ name: 'review.page', input: { projectId: 3, order: 'file', offset: 0, limit: 50 } }]);
  });

  it.each([
    ['a page from elsewhere', senderEvent('https://evil.example/'), 'not the app page'],
    ['a file: page', senderEvent('file:///tmp/index.html'), 'not the app page'],
    ['a look-alike host', senderEvent('app://matchdesk.evil/index.html'), 'not the app page'],
    ['an iframe of the app', senderEvent('app://matchdesk/index.html', { subframe: true }), 'not the main frame'],
    ['a frame that is gone', senderEvent('app://matchdesk/index.html', { gone: true }), 'the sending frame is gone'],
  ])('refuses %s as an unexpected sender', async (_label, event, reason) => {
    const { engine, reached } = dispatchingEngine({ 'projects.list': () => [] });
    const { invoke, unregister } = register(engine);
    const result = await invoke(event, 'projects.list', {});
    unregister();
    expect(result).toEqual({ ok: false, error: { kind: 'forbidden', message: `Unexpected sender: ${reason}.` } });
    expect(reached).toEqual([]);
    expect(senderRefusal(event as never, app)).toBe(reason);
  });

  it('refuses malformed input with invalid_input before any handler runs', async () => {
    const { engine, reached } = dispatchingEngine({ 'projects.get': () => ({}) as never, 'projects.rename': () => ({}) as never });
    const { invoke, unregister } = register(engine);
    const page = senderEvent('app://matchdesk/index.html');
    const answers = [
      await invoke(page, 'projects.get', { projectId: 'DROP TABLE' }),
      await invoke(page, 'projects.get', { projectId: -1 }),
      await invoke(page, 'projects.get', null),
      await invoke(page, 'projects.rename', { projectId: 1, name: '   ' }),
      await invoke(page, 'projects.get', { projectId: 1, __proto__: { admin: true } }),
    ];
    unregister();
    for (const answer of answers.slice(0, 4)) expect(answer).toMatchObject({ ok: false, error: { kind: 'invalid_input' } });
    expect((answers[0] as { error: { message: string } }).error.message).toMatch(/projectId/);
    // The extra key is dropped by the schema, so the one well-formed call reaches the handler with the id alone.
    expect(reached).toEqual([{ name: 'projects.get', input: { projectId: 1 } }]);
  });

  it('refuses unknown call names without reaching the engine', async () => {
    let called = false;
    const engine: ContractEngine = {
      call: (() => {
        called = true;
        throw new Error('should not be called');
      }) as never,
      on: () => () => undefined,
    };
    const { invoke, unregister } = register(engine);
    const page = senderEvent('app://matchdesk/index.html');
    const results = [await invoke(page, 'fs.readFile', { path: '/etc/passwd' }), await invoke(page, { toString: () => 'app.info' }, {}), await invoke(page, 'constructor', {})];
    unregister();
    for (const result of results) expect(result).toMatchObject({ ok: false, error: { kind: 'invalid_input' } });
    expect(called).toBe(false);
  });

  it('returns an engine that throws as an error value, never a rejection', async () => {
    const engine: ContractEngine = { call: (() => Promise.reject(new Error('disk on fire'))) as never, on: () => () => undefined };
    const { invoke, unregister } = register(engine);
    const result = await invoke(senderEvent('app://matchdesk/index.html'), 'app.info', {});
    unregister();
    expect(result).toEqual({ ok: false, error: { kind: 'internal', message: 'Something went wrong inside Matchdesk: disk on fire' } });
  });

  it('answers the dialog calls with native dialogs, parsing their input too', async () => {
    const shown: { kind: string; options: Record<string, unknown> }[] = [];
    const dialog = {
      showOpenDialog: async (...args: unknown[]) => {
        shown.push({ kind: 'open', options: args.at(-1) as Record<string, unknown> });
        return { canceled: false, filePaths: ['/home/ana/people.xlsx'] };
      },
      showSaveDialog: async (...args: unknown[]) => {
        shown.push({ kind: 'save', options: args.at(-1) as Record<string, unknown> });
        return { canceled: false, filePath: '/home/ana/Documents/matches.csv' };
      },
    };
    const hostCalls = nativeDialogs({ dialog: dialog as never, window: () => null, documentsDir: '/home/ana/Documents' });
    const { engine, reached } = dispatchingEngine({});
    const { invoke, unregister } = register(engine, hostCalls);
    const page = senderEvent('app://matchdesk/index.html');
    const open = await invoke(page, 'dialog.openSheet', {});
    const save = await invoke(page, 'dialog.saveExport', { defaultName: '../../etc/matches.csv', format: 'csv' });
    const bad = await invoke(page, 'dialog.saveExport', { defaultName: '', format: 'pdf' });
    const foreign = await invoke(senderEvent('https://evil.example/'), 'dialog.openSheet', {});
    unregister();
    // The page gets tokens for what the user chose, ending in the file's name for the screens to show.
    expect(open).toEqual({ ok: true, value: { supported: true, file: expect.stringMatching(/^picked:[\w-]{32}\/people\.xlsx$/) } });
    expect(save).toEqual({ ok: true, value: { supported: true, path: expect.stringMatching(/^picked:[\w-]{32}\/matches\.csv$/) } });
    expect(bad).toMatchObject({ ok: false, error: { kind: 'invalid_input' } });
    expect(foreign).toMatchObject({ ok: false, error: { kind: 'forbidden' } });
    expect(shown.map((s) => s.kind)).toEqual(['open', 'save']);
    expect(shown[0].options.filters).toEqual(SHEET_FILTERS);
    expect(SHEET_FILTERS[0].extensions).toEqual(['csv', 'tsv', 'txt', 'xlsx']);
    // The suggested name cannot steer the dialog into another folder.
    expect(shown[1].options.defaultPath).toBe(join('/home/ana/Documents', 'matches.csv'));
    expect(reached).toEqual([]);
  });

  it('forwards engine events to the window until stopped', () => {
    const { engine } = dispatchingEngine({});
    const sent: unknown[][] = [];
    let destroyed = false;
    const contents = { send: (...args: unknown[]) => void sent.push(args), isDestroyed: () => destroyed };
    const stop = forwardEvents(engine, () => contents, EVENT_CHANNEL);
    const job = (rowsRead: number): JobProgress => ({
      ...{ jobId: 1, kind: 'import', projectId: null, state: 'running', done: 50, total: 100, phase: 'reading the sheet' },
      ...{ startedAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:01.000Z', message: null },
      detail: { file: 'people.csv', rowsRead, percent: 50 },
    });
    engine.emit('job.progress', job(500));
    destroyed = true;
    engine.emit('job.progress', job(600));
    destroyed = false;
    stop();
    engine.emit('job.progress', job(700));
    expect(sent).toEqual([[EVENT_CHANNEL, 'job.progress', job(500)]]);
  });
});

// The real engine behind the IPC handler.
const engineFile = join(import.meta.dirname, '../../electron/engine/engine.ts');

describe('IPC with the real engine', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'matchdesk-ipc-'));
  let close: (() => Promise<void>) | null = null;
  afterAll(async () => {
    await close?.();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('answers app.info and refuses malformed input', async () => {
    const { createEngine } = (await import(engineFile)) as typeof import('../../electron/engine/engine');
    const engine = await createEngine({ dataDir, host: 'electron', version: '0.0.0-test' });
    close = () => engine.close();
    const { invoke, unregister } = register(engine);
    const page = senderEvent('app://matchdesk/index.html');
    const info = await invoke(page, 'app.info', {});
    const bad = await invoke(page, 'projects.get', { projectId: 'one' });
    const extra = await invoke(page, 'app.info', { unexpected: true });
    unregister();
    expect(info).toMatchObject({ ok: true, value: { host: 'electron', dataDir } });
    expect(bad).toMatchObject({ ok: false, error: { kind: 'invalid_input' } });
    expect(extra).toMatchObject({ ok: false, error: { kind: 'invalid_input' } });
  });
});

describe('IPC file tokens with the real engine', () => {
  const dir = mkdtempSync(join(tmpdir(), 'matchdesk-ipc-tokens-'));
  const sheet = join(dir, 'people.csv');
  writeFileSync(sheet, 'Name,Email\nAda Lovelace,ada@example.com\nAlan Turing,alan@example.com\n');
  const precious = join(dir, 'bashrc');
  writeFileSync(precious, 'export PATH=$HOME/bin:$PATH\n');
  const chosen = join(dir, 'chosen.csv');
  let close: (() => Promise<void>) | null = null;
  afterAll(async () => {
    await close?.();
    rmSync(dir, { recursive: true, force: true });
  });

  /** The real engine behind the IPC, its open and save dialogs answering `sheet` and `chosen` as a user would. */
  async function wired() {
    const { createEngine } = (await import(engineFile)) as typeof import('../../electron/engine/engine');
    const engine = await createEngine({ dataDir: join(dir, 'data'), host: 'electron', version: '0.0.0-test' });
    close = () => engine.close();
    const dialog = {
      showOpenDialog: async () => ({ canceled: false, filePaths: [sheet] }),
      showSaveDialog: async () => ({ canceled: false, filePath: chosen }),
    };
    return register(engine, nativeDialogs({ dialog: dialog as never, window: () => null, documentsDir: dir }));
  }

  const page = senderEvent('app://matchdesk/index.html');

  it('imports and exports only files the user picked, dropped or chose in this window', async () => {
    const { invoke, tokenFor, unregister } = await wired();
    try {
      // A raw path, even of a readable file, is refused; so is a token nobody issued (/etc/passwd under a made-up one).
      const raw = await invoke(page, 'projects.import', { file: '/etc/passwd' });
      expect(raw).toEqual({ ok: false, error: { kind: 'forbidden', code: 'path_refused', message: expect.stringMatching(/opens only files picked in its open dialog or dropped on this window/) } });
      const forged = await invoke(page, 'projects.import', { file: `picked:${'A'.repeat(32)}/passwd` });
      expect(forged).toMatchObject({ ok: false, error: { kind: 'forbidden', code: 'token_unknown', message: expect.stringMatching(/did not pick or have dropped on it/) } });
      expect(await invoke(page, 'projects.sheets', { file: sheet })).toMatchObject({ ok: false, error: { code: 'path_refused' } });
      expect(await invoke(page, 'projects.list', {})).toEqual({ ok: true, value: [] });

      // The open dialog's token imports the file it stands for.
      const opened = (await invoke(page, 'dialog.openSheet', {})) as { ok: true; value: { file: string } };
      const imported = await invoke(page, 'projects.import', { file: opened.value.file });
      expect(imported).toMatchObject({ ok: true, value: { summary: { name: 'people', rowCount: 2 } } });
      const projectId = (imported as { ok: true; value: { summary: { id: number } } }).value.summary.id;

      // A dropped file's token (the preload's ask) imports too, in its own window only.
      const dropped = tokenFor(page, sheet);
      expect(dropped).toEqual({ ok: true, value: expect.stringMatching(/^picked:[\w-]{32}\/people\.csv$/) });
      expect(await invoke(page, 'projects.import', { file: dropped.value, name: 'dropped' })).toMatchObject({ ok: true, value: { summary: { name: 'dropped' } } });
      const otherWindow = senderEvent('app://matchdesk/index.html', { id: 2 });
      expect(await invoke(otherWindow, 'projects.import', { file: dropped.value })).toMatchObject({ ok: false, error: { code: 'token_unknown' } });
      expect(tokenFor(senderEvent('https://evil.example/'), sheet)).toMatchObject({ ok: false, error: { kind: 'forbidden' } });
      expect(tokenFor(page, 'relative/people.csv')).toMatchObject({ ok: false, error: { kind: 'invalid_input', message: expect.stringMatching(/no location on disk/) } });

      // An export over an arbitrary path is refused, and so is one over the file that was opened to be read.
      const overwrite = await invoke(page, 'export.run', { projectId, format: 'csv', scope: 'all', destination: precious });
      expect(overwrite).toEqual({ ok: false, error: { kind: 'forbidden', code: 'path_refused', message: expect.stringMatching(/writes only where its save dialog was answered/) } });
      const candidatesOver = await invoke(page, 'export.run', { projectId, format: 'csv', scope: 'all', candidates: true, destination: null, candidatesDestination: precious });
      expect(candidatesOver).toMatchObject({ ok: false, error: { code: 'path_refused' } });
      expect(await invoke(page, 'export.run', { projectId, format: 'csv', scope: 'all', destination: opened.value.file })).toMatchObject({ ok: false, error: { code: 'token_unknown' } });
      expect(readFileSync(precious, 'utf8')).toBe('export PATH=$HOME/bin:$PATH\n');
      expect(readFileSync(sheet, 'utf8')).toMatch(/^Name,Email\n/);

      // The save dialog's token writes where the user chose.
      const saved = (await invoke(page, 'dialog.saveExport', { defaultName: 'matches.csv', format: 'csv' })) as { ok: true; value: { path: string } };
      const exported = await invoke(page, 'export.run', { projectId, format: 'csv', scope: 'all', destination: saved.value.path });
      expect(exported).toMatchObject({ ok: true, value: { path: chosen, rows: 2 } });
      expect(readFileSync(chosen, 'utf8')).toMatch(/Ada Lovelace/);
    } finally {
      unregister();
    }
  });
});
