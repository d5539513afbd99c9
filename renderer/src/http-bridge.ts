// The contract over the browser host's loopback HTTP and WebSocket: the same MatchdeskBridge the Electron
// preload exposes, so the screens cannot tell the hosts apart except by how files arrive. Uses only fetch,
// WebSocket and timers (passed in), so it runs in the page and in Node tests alike.
import {
  isEventName,
  type CallInput,
  type CallName,
  type CallResult,
  type ContractError,
  type EventName,
  type Events,
  type MatchdeskBridge,
} from '../../shared/contract';

export const TOKEN_HEADER = 'x-matchdesk-token';
export const FILE_NAME_HEADER = 'x-matchdesk-file-name';

/** A call that failed, carrying the contract's error value (thrown by `callOrThrow` and `pathForFile`). */
export class ContractCallError extends Error {
  constructor(
    readonly call: string,
    readonly error: ContractError,
  ) {
    super(error.message);
    this.name = 'ContractCallError';
  }

  get kind(): ContractError['kind'] {
    return this.error.kind;
  }
}

type WebSocketLike = {
  onopen: ((event: unknown) => void) | null;
  onmessage: ((event: { data: unknown }) => void) | null;
  onclose: ((event: unknown) => void) | null;
  onerror: ((event: unknown) => void) | null;
  close(): void;
};

export interface HttpBridgeOptions {
  /** The host's origin, e.g. http://127.0.0.1:5123 */
  origin: string;
  token: string | null;
  fetch?: typeof fetch;
  openSocket?: (url: string) => WebSocketLike;
  setTimeout?: (run: () => void, ms: number) => unknown;
  /** Reconnect delays grow from here ... */
  minReconnectMs?: number;
  /** ... up to here. */
  maxReconnectMs?: number;
}

export interface HttpBridge extends MatchdeskBridge {
  /** Where the browser fetches an export; the host's cookie authorizes it. */
  downloadUrl(downloadRef: string): string;
  /** Stops the event stream for good (tests, page unload). */
  close(): void;
}

const UNREACHABLE: ContractError = {
  kind: 'internal',
  message: 'Matchdesk\'s local server is not answering. Check that "matchdesk web" is still running, then reload the page.',
  code: 'host_unreachable',
};

const NO_TOKEN: ContractError = {
  kind: 'forbidden',
  message: 'This page has no valid access token. Open the link that "matchdesk web" printed (it ends in ?token=...).',
  code: 'token',
};

export function createHttpBridge(options: HttpBridgeOptions): HttpBridge {
  const origin = options.origin.replace(/\/+$/, '');
  const doFetch = options.fetch ?? ((input, init) => fetch(input, init));
  const schedule = options.setTimeout ?? ((run, ms) => setTimeout(run, ms));
  const openSocket = options.openSocket ?? ((url: string) => new WebSocket(url) as unknown as WebSocketLike);
  const minDelay = options.minReconnectMs ?? 500;
  const maxDelay = options.maxReconnectMs ?? 15_000;
  const token = options.token;

  function headers(extra: Record<string, string> = {}): Record<string, string> {
    return token ? { [TOKEN_HEADER]: token, ...extra } : extra;
  }

  async function call<K extends CallName>(name: K, input: CallInput<K>): Promise<CallResult<K>> {
    if (!token) return { ok: false, error: NO_TOKEN };
    let response: Response;
    try {
      response = await doFetch(`${origin}/api/call/${encodeURIComponent(name)}`, {
        method: 'POST',
        headers: headers({ 'content-type': 'application/json' }),
        body: JSON.stringify(input ?? {}),
      });
    } catch {
      return { ok: false, error: UNREACHABLE };
    }
    const body: unknown = await response.json().catch(() => null);
    if (isCallResult(body)) return body as CallResult<K>;
    if (response.status === 403) return { ok: false, error: NO_TOKEN };
    return { ok: false, error: { kind: 'internal', message: `Matchdesk's local server answered ${response.status} to "${name}".` } };
  }

  async function pathForFile(file: File): Promise<string> {
    if (!token) throw new ContractCallError('upload', NO_TOKEN);
    let response: Response;
    try {
      response = await doFetch(`${origin}/api/upload`, {
        method: 'POST',
        headers: headers({ 'content-type': 'application/octet-stream', [FILE_NAME_HEADER]: encodeURIComponent(file.name) }),
        body: file,
      });
    } catch {
      throw new ContractCallError('upload', UNREACHABLE);
    }
    const body = (await response.json().catch(() => null)) as { ref?: unknown; error?: ContractError } | null;
    if (response.ok && typeof body?.ref === 'string') return body.ref;
    if (body?.error && typeof body.error.message === 'string') throw new ContractCallError('upload', body.error);
    throw new ContractCallError('upload', response.status === 403 ? NO_TOKEN : { kind: 'internal', message: `Uploading "${file.name}" failed (${response.status}).` });
  }

  // ---- events: one WebSocket, opened while anyone listens, reopened with growing delays when it drops ----
  const listeners = new Map<EventName, Set<(payload: never) => void>>();
  let socket: WebSocketLike | null = null;
  let delay = minDelay;
  let reconnectPending = false;
  let closed = false;

  function listening(): boolean {
    for (const set of listeners.values()) if (set.size > 0) return true;
    return false;
  }

  function connect(): void {
    if (socket || closed || !token || !listening()) return;
    const wsOrigin = origin.replace(/^http/, 'ws');
    const current = openSocket(`${wsOrigin}/api/events?token=${encodeURIComponent(token)}`);
    socket = current;
    current.onopen = () => {
      delay = minDelay;
    };
    current.onmessage = (event) => deliver(event.data);
    current.onerror = () => undefined;
    current.onclose = () => {
      if (socket !== current) return;
      socket = null;
      reconnectLater();
    };
  }

  function reconnectLater(): void {
    if (closed || reconnectPending || !listening()) return;
    reconnectPending = true;
    const wait = delay;
    delay = Math.min(delay * 2, maxDelay);
    schedule(() => {
      reconnectPending = false;
      connect();
    }, wait);
  }

  function deliver(data: unknown): void {
    if (typeof data !== 'string') return;
    let message: { event?: unknown; payload?: unknown };
    try {
      message = JSON.parse(data) as typeof message;
    } catch {
      return;
    }
    if (!isEventName(message.event)) return;
    for (const listener of [...(listeners.get(message.event) ?? [])]) listener(message.payload as never);
  }

  function on<E extends EventName>(event: E, listener: (payload: Events[E]) => void): () => void {
    if (!isEventName(event)) throw new TypeError(`Unknown event "${String(event)}".`);
    const set = listeners.get(event) ?? new Set();
    listeners.set(event, set);
    set.add(listener as (payload: never) => void);
    connect();
    return () => {
      set.delete(listener as (payload: never) => void);
      if (!listening() && socket) {
        const current = socket;
        socket = null;
        current.close();
      }
    };
  }

  return {
    call,
    on,
    pathForFile,
    downloadUrl: (downloadRef) => `${origin}/api/download/${encodeURIComponent(downloadRef)}`,
    close() {
      closed = true;
      listeners.clear();
      socket?.close();
      socket = null;
    },
  };
}

function isCallResult(value: unknown): value is CallResult<CallName> {
  if (typeof value !== 'object' || value === null || !('ok' in value)) return false;
  const result = value as { ok: unknown; error?: { kind?: unknown; message?: unknown } };
  // A void call's value vanishes in JSON, so `ok: true` alone is a valid answer.
  if (result.ok === true) return true;
  return result.ok === false && typeof result.error?.kind === 'string' && typeof result.error.message === 'string';
}
