// What every spec needs: one browser host per spec file, the page opened at its printed link, page errors
// collected (a page that throws fails its test), files dropped like a user drops them, and screenshots.
import { test as base, expect, type Locator, type Page } from '@playwright/test';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT, startHost, type RunningHost } from './web-host';

export { expect };

export const SCREENSHOT_DIR = join(REPO_ROOT, 'test-results', 'screenshots');
/** The README's pictures are rewritten only when asked (`UPDATE_DOCS_SCREENSHOTS=1`), so a test run leaves the checkout clean. */
export const DOCS_SCREENSHOT_DIR = process.env.UPDATE_DOCS_SCREENSHOTS === '1' ? join(REPO_ROOT, 'docs', 'screenshots') : SCREENSHOT_DIR;

export const test = base.extend<{ pageErrors: string[] }>({
  pageErrors: [
    async ({ page }, use) => {
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(`${error.name}: ${error.message}`));
      page.on('console', (message) => {
        if (message.type() === 'error') errors.push(`console: ${message.text()}`);
      });
      await use(errors);
      expect(errors, 'the page logged errors').toEqual([]);
    },
    { auto: true },
  ],
});

/**
 * Starts the browser host with a fresh data folder before the spec file's first test and stops it after its
 * last; the returned function gives the running host inside tests.
 */
export function useHost(label: string): () => RunningHost {
  let host: RunningHost | null = null;
  test.beforeAll(async () => {
    host = await startHost(label);
  });
  test.afterAll(async () => {
    await host?.stop();
    host = null;
  });
  return () => {
    if (!host) throw new Error('The browser host is not running (beforeAll failed?).');
    return host;
  };
}

/** Opens the printed link and waits for the app to have loaded its data (the nav shows the profile state). */
export async function openApp(page: Page, host: RunningHost, hash = ''): Promise<void> {
  await page.goto(`${host.url}${hash}`);
  await expect(page.getByTestId('active-profile')).not.toContainText('…');
}

export function projectIdFromUrl(page: Page): number {
  const match = /#\/projects\/(\d+)\//.exec(page.url());
  if (!match) throw new Error(`The page is not on a project screen: ${page.url()}`);
  return Number(match[1]);
}

export interface SheetFile {
  name: string;
  mimeType: string;
  buffer: Buffer;
}

interface BrowserFileApi {
  atob(text: string): string;
  DataTransfer: new () => { items: { add(file: unknown): unknown } };
  File: new (parts: Uint8Array[], name: string, options: { type: string }) => unknown;
}

/** Drops a file on `target` the way the OS does: dragenter, dragover, drop, each carrying the same DataTransfer. */
export async function dropFile(page: Page, target: Locator, file: SheetFile): Promise<void> {
  const dataTransfer = await page.evaluateHandle(
    ({ name, type, base64 }) => {
      const browser = globalThis as unknown as BrowserFileApi;
      const bytes = Uint8Array.from(browser.atob(base64), (c) => c.charCodeAt(0));
      const transfer = new browser.DataTransfer();
      transfer.items.add(new browser.File([bytes], name, { type }));
      return transfer;
    },
    { name: file.name, type: file.mimeType, base64: file.buffer.toString('base64') },
  );
  await target.dispatchEvent('dragenter', { dataTransfer });
  await target.dispatchEvent('dragover', { dataTransfer });
  await target.dispatchEvent('drop', { dataTransfer });
  await dataTransfer.dispose();
}

/** Picks a file through the "New from file…" input, as the browser host's open dialog does. */
export async function pickFile(page: Page, file: SheetFile): Promise<void> {
  await page.getByTestId('file-input').setInputFiles({ name: file.name, mimeType: file.mimeType, buffer: file.buffer });
}

export async function screenshot(page: Page, name: string, dir = SCREENSHOT_DIR): Promise<string> {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, `${name}.png`);
  await page.screenshot({ path, animations: 'disabled', caret: 'hide' });
  return path;
}

/** Light or dark, as the nav's theme toggle sets it (it cycles system, light, dark). */
export async function setTheme(page: Page, theme: 'light' | 'dark'): Promise<void> {
  const toggle = page.locator('.nav__theme');
  for (let i = 0; i < 3; i++) {
    if ((await page.locator('html').getAttribute('data-theme')) === theme) return;
    await toggle.click();
  }
  await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
}
