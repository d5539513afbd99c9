// A spec's browser host whose selected profile is a simulator of the spec's own: started before its first test,
// closed after its last. Slow simulators (latency, one call at a time) let a spec catch a run in the act.
import type { Page } from '@playwright/test';
import type { Settings } from '../../../shared/model';
import { startSimulator, type Person, type Simulator, type SimulatorOptions } from '../../../electron/simulator';
import { expect, openApp, projectIdFromUrl, test, useHost } from './app';
import { selectSimulatorProfile } from './profiles';
import type { SheetFile } from './app';
import type { RunningHost } from './web-host';

export interface SimulatorHost {
  host: () => RunningHost;
  simulator: () => Simulator;
}

/** The host (`label`), a simulator started with `options` and selected as the profile `profile`, and `settings`. */
export function useSimulatorHost(label: string, options: SimulatorOptions, profile: string, settings: Partial<Omit<Settings, 'activeProfileId'>> = {}): SimulatorHost {
  const host = useHost(label);
  let simulator: Simulator | null = null;
  test.beforeAll(async () => {
    simulator = await startSimulator(options);
    await selectSimulatorProfile(host(), profile, simulator.baseUrl);
    if (Object.keys(settings).length > 0) await host().value('settings.update', settings);
  });
  test.afterAll(async () => {
    await simulator?.close();
    simulator = null;
  });
  return {
    host,
    simulator: () => {
      if (!simulator) throw new Error('The simulator is not running (beforeAll failed?).');
      return simulator;
    },
  };
}

/** The first `count` people the simulator finds by name alone, each with a current employer. */
export function findableByName(simulator: Simulator, count: number): Person[] {
  const names = new Map<string, number>();
  for (const p of simulator.dataset.people) names.set(p.name, (names.get(p.name) ?? 0) + 1);
  return simulator.dataset.people.filter((p) => p.jobs[0]?.ended_at === null && names.get(p.name) === 1).slice(0, count);
}

/** Imports `file` from the projects screen as a user does (New from file…) and returns the project on its mapping screen. */
export async function importFromFile(page: Page, app: RunningHost, file: SheetFile): Promise<number> {
  await openApp(page, app, '#/projects');
  const choosing = page.waitForEvent('filechooser');
  await page.getByTestId('new-from-file').click();
  await (await choosing).setFiles(file);
  await expect(page).toHaveURL(/#\/projects\/\d+\/mapping$/);
  return projectIdFromUrl(page);
}

/** From the mapping screen: continue with the mapping as detected, run, and wait for the review the run's end opens. */
export async function runToReview(page: Page, projectId: number): Promise<void> {
  await page.getByTestId('mapping-continue').click();
  await page.getByTestId('run-start').click();
  await expect(page).toHaveURL(new RegExp(`#/projects/${projectId}/review$`), { timeout: 60_000 });
}

/**
 * Headless Chromium denies notifications whatever is granted, so the page's Notification is one that records what
 * the app shows and says the user allowed it; everything up to it (the events, the window's focus) is real. Returns
 * what was shown so far.
 */
export async function recordNotifications(page: Page): Promise<() => Promise<{ title: string; body?: string }[]>> {
  await page.addInitScript(() => {
    const browser = globalThis as unknown as { Notification: unknown; shownNotifications: { title: string; body?: string }[] };
    browser.shownNotifications = [];
    browser.Notification = class {
      static permission = 'granted';
      static requestPermission = () => Promise.resolve('granted');
      constructor(title: string, options?: { body?: string }) {
        browser.shownNotifications.push({ title, body: options?.body });
      }
    };
  });
  return () => page.evaluate(() => (globalThis as unknown as { shownNotifications: { title: string; body?: string }[] }).shownNotifications);
}
