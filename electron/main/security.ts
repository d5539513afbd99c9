// The shell's security guards, in one place. Each takes what it acts on as a parameter so
// it runs and is tested in plain Node.
import type { Session, WebContents } from 'electron';

export type OpenExternal = (url: string) => Promise<void> | void;

export class ExternalLinkRefused extends Error {
  constructor(reason: string) {
    super(`Matchdesk did not open this link: ${reason}`);
    this.name = 'ExternalLinkRefused';
  }
}

/**
 * The only way a link leaves the app. Returns whether it was opened; a refused link is never passed to `open`.
 */
export async function openExternalUrl(value: unknown, open: OpenExternal): Promise<boolean> {
  const url = checkExternalUrl(value);
  if (!url) return false;
  await open(url);
  return true;
}

/** The normalized URL when it is safe to hand to the OS, null otherwise. */
export function checkExternalUrl(value: unknown): string | null {
  // Only strings: a URL-like object could stringify differently later.
  if (typeof value !== 'string' || value.length > 2048) return null;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return null;
  }
  // https only: file:, javascript:, data:, http: and custom schemes can run code or leak data through the OS handler.
  if (url.protocol !== 'https:') return null;
  // Credentials in a link are a phishing trick ("https://bank.com@evil.example") and never needed here.
  if (url.username !== '' || url.password !== '') return null;
  if (!url.hostname) return null;
  return url.href;
}

/** Where the app's own pages live: `app://matchdesk/` when packaged, the dev server's URL in development. */
export interface AppLocation {
  /** e.g. "app:" or "http:" */
  protocol: string;
  /** host with port, e.g. "matchdesk" or "localhost:5173" */
  host: string;
}

export function appLocationOf(url: string): AppLocation {
  const parsed = new URL(url);
  return { protocol: parsed.protocol, host: parsed.host };
}

/** Compares scheme and host by hand: WHATWG URL gives custom schemes an opaque "null" origin. */
export function isAppUrl(value: string | undefined | null, app: AppLocation): boolean {
  if (!value) return false;
  try {
    const url = new URL(value);
    return url.protocol === app.protocol && url.host === app.host && url.username === '' && url.password === '';
  } catch {
    return false;
  }
}

interface PreventableEvent {
  preventDefault(): void;
}

/** Navigation and redirects stay inside the app: a dropped file or a hostile link would otherwise replace it. */
export function guardNavigation(event: PreventableEvent, url: string, app: AppLocation): void {
  if (!isAppUrl(url, app)) event.preventDefault();
}

/**
 * No new windows, ever: a new window would not have this window's guards. An https link the user clicked opens
 * in the default browser instead.
 */
export function handleWindowOpen(details: { url: string }, open: OpenExternal): { action: 'deny' } {
  void openExternalUrl(details.url, open).catch(() => undefined);
  return { action: 'deny' };
}

/**
 * Installs every guard on one WebContents. Called for each one the app creates, so a future window or frame
 * cannot forget them.
 */
export function guardWebContents(contents: WebContents, app: AppLocation, open: OpenExternal): void {
  // Navigation away from the app would give a foreign page the preload's bridge.
  contents.on('will-navigate', (event, url) => guardNavigation(event, url, app));
  // A redirect is a navigation the page did not ask for: same rule.
  contents.on('will-redirect', (event, url) => guardNavigation(event, url, app));
  // Frames too: an iframe navigating to a foreign page must not happen either.
  contents.on('will-frame-navigate', (event) => guardNavigation(event, event.url, app));
  // <webview> bypasses every preference of the host window.
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler((details) => handleWindowOpen(details, open));
}

/** Camera, microphone, notifications, geolocation, clipboard-read...: the app needs none of them. */
export function denyAllPermissions(session: Pick<Session, 'setPermissionRequestHandler' | 'setPermissionCheckHandler'>): void {
  session.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  session.setPermissionCheckHandler(() => false);
}
