// Every contract call enters the main process here, through one handler (guide/style.md item 2): the sender is
// checked, then the call is routed to the engine (which parses the input) or to a native dialog.
import type { IpcMain, IpcMainInvokeEvent, WebContents } from 'electron';
import { EVENT_NAMES, type CallName, type CallResult, type EventName } from '../../shared/contract';
import { routeCall, type ContractEngine, type HostCalls } from '../web/route-call';
import { CALL_CHANNEL } from './ipc-channels';
import { isAppUrl, type AppLocation } from './security';

export interface IpcOptions {
  ipcMain: Pick<IpcMain, 'handle' | 'removeHandler'>;
  engine: ContractEngine;
  hostCalls: HostCalls;
  app: AppLocation;
}

type SenderEvent = Pick<IpcMainInvokeEvent, 'senderFrame' | 'sender'>;

/** Registers the one call handler; returns a function that removes it. */
export function registerIpc({ ipcMain, engine, hostCalls, app }: IpcOptions): () => void {
  ipcMain.handle(CALL_CHANNEL, (event, name: unknown, input: unknown) => handleIpcCall(event, name, input, { engine, hostCalls, app }));
  return () => ipcMain.removeHandler(CALL_CHANNEL);
}

export async function handleIpcCall(
  event: SenderEvent,
  name: unknown,
  input: unknown,
  { engine, hostCalls, app }: Omit<IpcOptions, 'ipcMain'>,
): Promise<CallResult<CallName>> {
  const refusal = senderRefusal(event, app);
  if (refusal) return { ok: false, error: { kind: 'forbidden', message: `Unexpected sender: ${refusal}.` } };
  return routeCall(engine, hostCalls, name, input);
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
