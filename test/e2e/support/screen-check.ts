// Every screen is looked at in the two window sizes the app must work in, and run through axe-core there: a
// screenshot of each for a person to look at, and no accessibility violation allowed.
import AxeBuilder from '@axe-core/playwright';
import type { Locator, Page } from '@playwright/test';
import { expect, screenshot } from './app';

export const WINDOW_SIZES = [
  { width: 1280, height: 800 },
  { width: 800, height: 600 },
] as const;

/** The axe violations on the page, one line each: rule, impact, and the first few elements it names. */
export async function axeViolations(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page }).analyze();
  return result.violations.map((v) => `${v.id} (${v.impact}): ${v.help}; at ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`);
}

interface ScrollBox {
  scrollWidth: number;
  clientWidth: number;
}

/**
 * What is wider than the room it has, and so scrolls sideways: the page, and the screen's own scrolling area (the
 * main column). Each as "what: scrollWidth > clientWidth"; none is allowed.
 */
export async function sidewaysOverflow(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const doc = (globalThis as unknown as { document: { documentElement: ScrollBox; querySelector(selector: string): ScrollBox | null } }).document;
    const boxes: [string, ScrollBox | null][] = [
      ['the page', doc.documentElement],
      ['the main column', doc.querySelector('.main')],
    ];
    return boxes.filter(([, box]) => box && box.scrollWidth > box.clientWidth).map(([what, box]) => `${what}: ${box!.scrollWidth} > ${box!.clientWidth}`);
  });
}

/**
 * Shows the screen at each window size, saves `<name>-<w>x<h>.png` and checks it with axe; `ready` waits for
 * what must be on screen at a size before the picture is taken. Leaves the page at the first size.
 */
export async function checkScreen(page: Page, name: string, ready: () => Promise<void> = async () => {}): Promise<void> {
  for (const size of WINDOW_SIZES) {
    await page.setViewportSize(size);
    try {
      await ready();
    } catch (error) {
      await screenshot(page, `${name}-${size.width}x${size.height}-not-ready`);
      throw error;
    }
    // Two frames: the resize observers' layout settles before the picture and the audit.
    await page.evaluate(() => {
      const frame = (globalThis as unknown as { requestAnimationFrame(callback: () => void): void }).requestAnimationFrame;
      return new Promise<void>((resolve) => frame(() => frame(resolve)));
    });
    await screenshot(page, `${name}-${size.width}x${size.height}`);
    expect(await axeViolations(page), `axe on ${name} at ${size.width}x${size.height}`).toEqual([]);
    expect(await sidewaysOverflow(page), `sideways overflow on ${name} at ${size.width}x${size.height}`).toEqual([]);
  }
  await page.setViewportSize(WINDOW_SIZES[0]);
}

/**
 * Reaches `list` with the Tab key, as a keyboard user does, and checks that the focus shows: the browser treats it
 * as keyboard focus (:focus-visible) and draws an outline of some width around it.
 */
export async function expectVisibleKeyboardFocus(page: Page, list: Locator, maxTabs = 40): Promise<void> {
  const focused = () => list.evaluate((element) => element === element.ownerDocument.activeElement);
  for (let i = 0; i < maxTabs && !(await focused()); i++) await page.keyboard.press('Tab');
  await expect(list, 'reached with the Tab key').toBeFocused();
  const shown = await list.evaluate((element) => {
    const style = element.ownerDocument.defaultView!.getComputedStyle(element);
    return { focusVisible: element.matches(':focus-visible'), outline: style.outlineStyle, width: parseFloat(style.outlineWidth) };
  });
  expect(shown.focusVisible, 'keyboard focus').toBe(true);
  expect(shown.outline, 'an outline is drawn').not.toBe('none');
  expect(shown.width, 'an outline is drawn').toBeGreaterThan(0);
}

/**
 * Checks that a flex row's visible items sit on one line: every item's box overlaps every other's, the lowest top above
 * the highest bottom (items of no height, a spacer, left out).
 */
export async function expectOneLine(row: Locator): Promise<void> {
  const boxes = await row.evaluate((element) =>
    [...element.children].map((c) => c.getBoundingClientRect()).filter((r) => r.width > 0 && r.height > 0).map((r) => [r.top, r.bottom] as const),
  );
  expect(Math.max(...boxes.map(([top]) => top)), 'the items sit on one line').toBeLessThan(Math.min(...boxes.map(([, bottom]) => bottom)));
}
