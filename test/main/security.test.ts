import { EventEmitter } from 'node:events';
import { describe, expect, it, vi } from 'vitest';
import {
  appLocationOf,
  checkExternalUrl,
  denyAllPermissions,
  guardWebContents,
  handleWindowOpen,
  isAppUrl,
  openExternalUrl,
} from '../../electron/main/security';

const packaged = appLocationOf('app://matchdesk/index.html');
const dev = appLocationOf('http://localhost:5173/');

describe('openExternalUrl', () => {
  it('opens an https link, once, as the normalized URL', async () => {
    const opened: string[] = [];
    await expect(openExternalUrl('https://example.com/docs?a=1#x', (url) => void opened.push(url))).resolves.toBe(true);
    expect(opened).toEqual(['https://example.com/docs?a=1#x']);
  });

  it.each([
    ['javascript:', 'javascript:alert(1)'],
    ['file:', 'file:///etc/passwd'],
    ['http:', 'http://example.com/'],
    ['data:', 'data:text/html,<script>alert(1)</script>'],
    ['a custom scheme', 'ms-msdt:/id PCWDiagnostic'],
    ['smb:', 'smb://attacker/share'],
    ['credentials in the URL', 'https://bank.example@evil.example/'],
    ['a user name only', 'https://user@example.com/'],
    ['not a URL', 'example.com'],
    ['an empty string', ''],
    ['a relative path', '/docs'],
    ['mixed-case javascript', 'JaVaScRiPt:alert(1)'],
    ['leading spaces before javascript:', '  javascript:alert(1)'],
  ])('refuses %s', async (_label, url) => {
    const open = vi.fn();
    await expect(openExternalUrl(url, open)).resolves.toBe(false);
    expect(open).not.toHaveBeenCalled();
  });

  it('refuses values that are not strings', async () => {
    const open = vi.fn();
    for (const value of [undefined, null, 42, { toString: () => 'https://example.com' }, new URL('https://example.com')]) {
      await expect(openExternalUrl(value, open)).resolves.toBe(false);
    }
    expect(open).not.toHaveBeenCalled();
  });

  it('refuses overlong links', () => {
    expect(checkExternalUrl(`https://example.com/${'a'.repeat(3000)}`)).toBeNull();
  });
});

describe('isAppUrl', () => {
  it('accepts the app pages and nothing else', () => {
    expect(isAppUrl('app://matchdesk/index.html', packaged)).toBe(true);
    expect(isAppUrl('app://matchdesk/index.html#/review', packaged)).toBe(true);
    expect(isAppUrl('app://evil/index.html', packaged)).toBe(false);
    expect(isAppUrl('file:///tmp/index.html', packaged)).toBe(false);
    expect(isAppUrl('https://matchdesk/index.html', packaged)).toBe(false);
    expect(isAppUrl('http://localhost:5173/', dev)).toBe(true);
    expect(isAppUrl('http://localhost:5174/', dev)).toBe(false);
    expect(isAppUrl('http://user:pw@localhost:5173/', dev)).toBe(false);
    expect(isAppUrl('not a url', dev)).toBe(false);
    expect(isAppUrl(undefined, dev)).toBe(false);
  });
});

/** Just enough of a WebContents to record what the guards install: a real EventEmitter. */
class FakeContents extends EventEmitter {
  windowOpenHandler: ((details: { url: string }) => { action: string }) | null = null;
  setWindowOpenHandler(handler: (details: { url: string }) => { action: string }) {
    this.windowOpenHandler = handler;
  }
}

function preventable(extra: Record<string, unknown> = {}) {
  return { defaultPrevented: false, preventDefault() { this.defaultPrevented = true; }, ...extra };
}

describe('guardWebContents', () => {
  function guarded() {
    const contents = new FakeContents();
    const opened: string[] = [];
    guardWebContents(contents as never, packaged, (url) => void opened.push(url));
    return { contents, opened };
  }

  it('blocks navigation away from the app and lets app pages load', () => {
    const { contents } = guarded();
    const away = preventable();
    contents.emit('will-navigate', away, 'https://evil.example/');
    expect(away.defaultPrevented).toBe(true);
    const dropped = preventable();
    contents.emit('will-navigate', dropped, 'file:///home/user/people.csv');
    expect(dropped.defaultPrevented).toBe(true);
    const inside = preventable();
    contents.emit('will-navigate', inside, 'app://matchdesk/index.html');
    expect(inside.defaultPrevented).toBe(false);
  });

  it('blocks redirects and frame navigations away from the app', () => {
    const { contents } = guarded();
    const redirect = preventable();
    contents.emit('will-redirect', redirect, 'https://evil.example/');
    expect(redirect.defaultPrevented).toBe(true);
    const frame = preventable({ url: 'https://evil.example/frame' });
    contents.emit('will-frame-navigate', frame);
    expect(frame.defaultPrevented).toBe(true);
  });

  it('refuses to attach a webview', () => {
    const { contents } = guarded();
    const attach = preventable();
    contents.emit('will-attach-webview', attach, {}, {});
    expect(attach.defaultPrevented).toBe(true);
  });

  it('denies every new window, opening only https links outside', async () => {
    const { contents, opened } = guarded();
    expect(contents.windowOpenHandler!({ url: 'https://example.com/help' })).toEqual({ action: 'deny' });
    expect(contents.windowOpenHandler!({ url: 'javascript:alert(1)' })).toEqual({ action: 'deny' });
    expect(contents.windowOpenHandler!({ url: 'app://matchdesk/index.html' })).toEqual({ action: 'deny' });
    await new Promise((resolve) => setImmediate(resolve));
    expect(opened).toEqual(['https://example.com/help']);
  });

  it('denies even when opening the link outside fails', async () => {
    expect(handleWindowOpen({ url: 'https://example.com/' }, () => Promise.reject(new Error('no browser')))).toEqual({ action: 'deny' });
    await new Promise((resolve) => setImmediate(resolve));
  });
});

describe('denyAllPermissions', () => {
  it('answers no to every permission request and check', () => {
    let request: ((contents: unknown, permission: string, callback: (granted: boolean) => void) => void) | null = null;
    let check: ((...args: unknown[]) => boolean) | null = null;
    denyAllPermissions({
      setPermissionRequestHandler: (handler) => void (request = handler as never),
      setPermissionCheckHandler: (handler) => void (check = handler as never),
    });
    for (const permission of ['media', 'geolocation', 'notifications', 'clipboard-read', 'openExternal']) {
      const answers: boolean[] = [];
      request!({}, permission, (granted) => answers.push(granted));
      expect(answers).toEqual([false]);
      expect(check!({}, permission, 'app://matchdesk', {})).toBe(false);
    }
  });
});
