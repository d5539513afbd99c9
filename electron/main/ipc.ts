// Every contract call enters the main process here, through one handler: the sender is
// checked, the files it names by token are turned into their paths, then the call is routed to the engine (which
// parses the input) or to a native dialog, whose answers go back as tokens.
import { isAbsolute } from 'node:path';
import type { IpcMain, IpcMainInvokeEvent, WebContents } from 'electron';
import { EVENT_NAMES, isCallName, type CallName, type CallOutput, type CallResult, type ContractError, type EventName } from '../../shared/contract';
import { routeCall, type ContractEngine, type HostCalls } from '../engine/route-call';
import { CALL_CHANNEL, FILE_TOKEN_CHANNEL } from './ipc-channels';
import type { PickedFiles, TokenOwner } from './picked-files';
import { isAppUrl, type AppLocation } from './security';
import { translateTokens } from './token-paths';

export interface IpcOptions {
  ipcMain: Pick<IpcMain, 'handle' | 'removeHandler'>;
  engine: ContractEngine;
  hostCalls: HostCalls;
  app: AppLocation;
  /** The files each window was given; the menu's File > New from file… issues its tokens here too. */
  picked: PickedFiles;
}

export type FileTokenAnswer = { ok: true; value: string } | { ok: false; error: ContractError };

type SenderEvent = Pick<IpcMainInvokeEvent, 'senderFrame'> & { sender: Pick<WebContents, 'mainFrame'> & TokenOwner };

/** Registers the call handler and the preload's file-token handler; returns a function that removes them. */
export function registerIpc({ ipcMain, engine, hostCalls, app, picked }: IpcOptions): () => void {
  ipcMain.handle(CALL_CHANNEL, (event, name: unknown, input: unknown) => handleIpcCall(event, name, input, { engine, hostCalls, app, picked }));
  ipcMain.handle(FILE_TOKEN_CHANNEL, (event, path: unknown) => handleFileToken(event, path, { app, picked }));
  return () => {
    ipcMain.removeHandler(CALL_CHANNEL);
    ipcMain.removeHandler(FILE_TOKEN_CHANNEL);
  };
}

export async function handleIpcCall(
  event: SenderEvent,
  name: unknown,
  input: unknown,
  { engine, hostCalls, app, picked }: Omit<IpcOptions, 'ipcMain'>,
): Promise<CallResult<CallName>> {
  const refusal = senderRefusal(event, app);
  if (refusal) return { ok: false, error: { kind: 'forbidden', message: `Unexpected sender: ${refusal}.` } };
  if (!isCallName(name)) return routeCall(engine, hostCalls, name, input);
  const translated = translateTokens(name, input, event.sender, picked);
  if (!translated.ok) return { ok: false, error: translated.error };
  const result = await routeCall(engine, hostCalls, name, translated.input);
  return answerWithTokens(name, result, event.sender, picked);
}

/** The dialogs' paths go back to the page as this window's tokens. */
function answerWithTokens(name: CallName, result: CallResult<CallName>, owner: TokenOwner, picked: PickedFiles): CallResult<CallName> {
  if (!result.ok) return result;
  if (name === 'dialog.openSheet') {
    const value = result.value as CallOutput<'dialog.openSheet'>;
    return { ok: true, value: { ...value, file: value.file === null ? null : picked.issue(owner, value.file, 'read') } };
  }
  if (name === 'dialog.saveExport') {
    const value = result.value as CallOutput<'dialog.saveExport'>;
    return { ok: true, value: { ...value, path: value.path === null ? null : picked.issue(owner, value.path, 'write') } };
  }
  return result;
}

/**
 * A token for a file dropped on the window or chosen in a file input: the preload alone sends this, with the path
 * Electron gave it for a File of the page (webUtils.getPathForFile), which the page itself cannot reach.
 */
export function handleFileToken(event: SenderEvent, path: unknown, { app, picked }: Pick<IpcOptions, 'app' | 'picked'>): FileTokenAnswer {
  const refusal = senderRefusal(event, app);
  if (refusal) return { ok: false, error: { kind: 'forbidden', message: `Unexpected sender: ${refusal}.` } };
  if (typeof path !== 'string' || !isAbsolute(path)) {
    return { ok: false, error: { kind: 'invalid_input', message: 'This file has no location on disk. Save it first, then drop or pick it again.' } };
  }
  return { ok: true, value: picked.issue(event.sender, path, 'read') };
}

/** Why a sender may not call the engine, or null when it may. */
export function senderRefusal(event: SenderEvent, app: AppLocation): string | null {
  const frame = event.senderFrame;
  // The frame went away (navigated or closed) before the message was handled: its page is no longer ours to trust.
  if (!frame) return 'the sending frame is gone';
  // Only the top frame runs our code; an iframe could host anything.
  if (frame.parent !== null || frame !== event.sender.mainFrame) return 'not the main frame';
  // A page from anywhere else (a navigation that slipped through, a devtools-opened URL) gets no engine access.
  if (!isAppUrl(frame.url, app)) return 'not the app page';
  return null;
}

/** Sends every engine event to the window; returns a function that stops forwarding. */
export function forwardEvents(engine: ContractEngine, contents: () => Pick<WebContents, 'send' | 'isDestroyed'> | null, channel: string): () => void {
  const unsubscribes = EVENT_NAMES.map((name: EventName) =>
    engine.on(name, (payload) => {
      const target = contents();
      if (target && !target.isDestroyed()) target.send(channel, name, payload);
    }),
  );
  return () => unsubscribes.forEach((unsubscribe) => unsubscribe());
}
