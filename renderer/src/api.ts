// The renderer's one way to the engine. In Electron the preload has put `window.matchdesk` in place; in a browser
// the same bridge is built over the browser host's HTTP API. Screens import `api` and never ask which one it is,
// except where files come and go (`pathForFile`, `downloadExport`).
import type { CallInput, CallName, CallOutput, CallResult, EventName, Events, ExportResult, MatchdeskBridge } from '../../shared/contract';
import { ContractCallError, createHttpBridge, type HttpBridge } from './http-bridge';

export { ContractCallError } from './http-bridge';

declare global {
  interface Window {
    matchdesk?: MatchdeskBridge;
  }
}

const TOKEN_KEY = 'matchdesk.token';

/**
 * The browser host's token: from the printed link's `?token=` on first load, kept in sessionStorage so a reload
 * works, and taken out of the visible URL so it is not copied, bookmarked or shown in screenshots.
 */
function takePageToken(): string | null {
  const url = new URL(window.location.href);
  const fromUrl = url.searchParams.get('token');
  if (fromUrl) {
    try {
      sessionStorage.setItem(TOKEN_KEY, fromUrl);
    } catch {
      // Storage blocked: the token still works for this page load.
    }
    url.searchParams.delete('token');
    window.history.replaceState(window.history.state, '', `${url.pathname}${url.search}${url.hash}`);
    return fromUrl;
  }
  try {
    return sessionStorage.getItem(TOKEN_KEY);
  } catch {
    return null;
  }
}

const preloadBridge = window.matchdesk;
const httpBridge: HttpBridge | null = preloadBridge ? null : createHttpBridge({ origin: window.location.origin, token: takePageToken() });
const bridge: MatchdeskBridge = preloadBridge ?? httpBridge!;

export const api = {
  /** Which host carries the contract; only file handling differs between them. */
  host: preloadBridge ? ('electron' as const) : ('web' as const),

  call<K extends CallName>(name: K, input: CallInput<K>): Promise<CallResult<K>> {
    return bridge.call(name, input);
  },

  /** The call's value, or a thrown ContractCallError carrying the contract's error. */
  async callOrThrow<K extends CallName>(name: K, input: CallInput<K>): Promise<CallOutput<K>> {
    const result = await bridge.call(name, input);
    if (!result.ok) throw new ContractCallError(name, result.error);
    return result.value;
  },

  on<E extends EventName>(event: E, listener: (payload: Events[E]) => void): () => void {
    return bridge.on(event, listener);
  },

  /**
   * What `projects.import` and `projects.sheets` accept for a dropped or picked file: a `picked:` token for it in
   * Electron (its path stays in the main process), an uploaded copy's `upload:` reference in the browser.
   */
  pathForFile(file: File): Promise<string> {
    return bridge.pathForFile(file);
  },

  /**
   * Hands a finished export (and its candidates file, when there is one) to the browser as downloads. In Electron
   * the files are already where the user chose.
   */
  downloadExport(result: ExportResult): void {
    if (!httpBridge) return;
    const files = [result, result.candidates].filter((file): file is NonNullable<typeof file> => Boolean(file?.downloadRef));
    files.forEach((file, index) => {
      // Spaced out: browsers drop a second download started in the same instant.
      setTimeout(() => startDownload(httpBridge.downloadUrl(file.downloadRef!), file.fileName), index * 400);
    });
  },
};

export type Api = typeof api;

function startDownload(url: string, fileName: string): void {
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.rel = 'noopener';
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
}
