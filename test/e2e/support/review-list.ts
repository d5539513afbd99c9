// What the review's list shows, as the specs that check its room at a window size read it.
import type { Page } from '@playwright/test';

/** How many whole rows of the list are in view: inside the list's box and the window. */
export async function rowsInView(page: Page): Promise<number> {
  const list = (await page.getByTestId('review-table').boundingBox())!;
  const viewport = page.viewportSize()!;
  let whole = 0;
  for (const row of await page.getByTestId('review-row').all()) {
    const box = await row.boundingBox();
    if (box && box.y >= list.y && box.y + box.height <= Math.min(list.y + list.height, viewport.height) + 1) whole++;
  }
  return whole;
}
