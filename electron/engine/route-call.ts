// Where a host sends one contract call: host calls (native dialogs) to the host, everything else to the engine.
// Both hosts route through here, so a name or input is handled the same whichever transport carried it.
import {
  HOST_CALLS,
  isCallName,
  type CallName,
  type CallOutput,
  type CallParsedInput,
  type CallResult,
  type EventName,
  type Events,
} from '../../shared/contract';
import { dispatch, type Handlers } from './dispatch';
import { toContractError } from './engine-errors';

/** What a host needs of the engine: the facade in electron/engine/engine.ts satisfies it. */
export interface ContractEngine {
  call<K extends CallName>(name: K, input: unknown): Promise<CallResult<K>>;
  on<E extends EventName>(event: E, listener: (payload: Events[E]) => void): () => void;
  /** Holds the engine's background work back during a host's own transfer (a download, an upload). */
  holdBackground?(): () => void;
}

export type HostCallName = (typeof HOST_CALLS)[number];
export type HostCalls = { [K in HostCallName]: (input: CallParsedInput<K>) => Promise<CallOutput<K>> | CallOutput<K> };

export function isHostCall(name: unknown): name is HostCallName {
  return (HOST_CALLS as readonly unknown[]).includes(name);
}

export async function routeCall(engine: ContractEngine, hostCalls: HostCalls, name: unknown, input: unknown): Promise<CallResult<CallName>> {
  // Host calls go through the same dispatch as the engine's, so their inputs are parsed with the contract too.
  if (isHostCall(name)) return dispatch(hostCalls as Handlers, [], name, input);
  // An unknown name gets dispatch's "Unknown call" answer without bothering the engine.
  if (!isCallName(name)) return dispatch({}, [], name, input);
  try {
    return await engine.call(name, input);
  } catch (err) {
    // The engine promises never to throw; if it does anyway, the renderer still gets a value, not a rejection.
    return { ok: false, error: toContractError(err, []) };
  }
}
