// The renderer's only door to the main process: three named operations, never
// ipcRenderer itself. Runs sandboxed, so it imports only `electron` and types (no zod, no Node built-ins).
import { contextBridge, ipcRenderer, webUtils, type IpcRendererEvent } from 'electron';
import type { CallInput, CallName, CallResult, EventName, Events, MatchdeskBridge } from '../../shared/contract';
import { CALL_CHANNEL, EVENT_CHANNEL, FILE_TOKEN_CHANNEL } from '../main/ipc-channels';

// A Record keyed by EventName: a new event in the contract fails to compile until it is listed here.
const KNOWN_EVENTS: Record<EventName, true> = {
  'job.progress': true,
  'project.changedCount': true,
  'watch.important': true,
  'app.command': true,
};

function isKnownEvent(name: unknown): name is EventName {
  return typeof name === 'string' && Object.prototype.hasOwnProperty.call(KNOWN_EVENTS, name);
}

const bridge: MatchdeskBridge = {
  call<K extends CallName>(name: K, input: CallInput<K>): Promise<CallResult<K>> {
    return ipcRenderer.invoke(CALL_CHANNEL, name, input) as Promise<CallResult<K>>;
  },

  on<E extends EventName>(event: E, listener: (payload: Events[E]) => void): () => void {
    if (!isKnownEvent(event)) throw new TypeError(`Unknown event "${String(event)}".`);
    // The IPC event object is dropped: handing it to the page would give it `sender` and ipcRenderer.
    const relay = (_event: IpcRendererEvent, name: unknown, payload: unknown) => {
      if (name === event) listener(payload as Events[E]);
    };
    ipcRenderer.on(EVENT_CHANNEL, relay);
    return () => {
      ipcRenderer.removeListener(EVENT_CHANNEL, relay);
    };
  },

  async pathForFile(file: File): Promise<string> {
    const path = webUtils.getPathForFile(file);
    // An empty path means the File was made in the page (not picked or dropped from disk).
    if (!path) throw new Error('This file has no location on disk. Save it first, then drop or pick it again.');
    // The page gets a token for the file, never its path: the main process takes only tokens it gave this window.
    const answer = (await ipcRenderer.invoke(FILE_TOKEN_CHANNEL, path)) as { ok: true; value: string } | { ok: false; error: { message: string } };
    if (!answer.ok) throw new Error(answer.error.message);
    return answer.value;
  },
};

contextBridge.exposeInMainWorld('matchdesk', bridge);
