import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { clampToDisplays, DEFAULT_WINDOW_STATE, loadWindowState, saveWindowState } from '../../electron/main/window-state';

const laptop = { x: 0, y: 0, width: 1440, height: 870 };
const rightMonitor = { x: 1440, y: 0, width: 2560, height: 1400 };
let dir: string | null = null;

afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = null;
});

function tempFile(): string {
  dir = mkdtempSync(join(tmpdir(), 'matchdesk-window-'));
  return join(dir, 'window-state.json');
}

describe('window state', () => {
  it('round-trips through its file', () => {
    const file = tempFile();
    const state = { bounds: { x: 100, y: 80, width: 1200, height: 760 }, maximized: true };
    saveWindowState(file, state);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual(state);
    expect(loadWindowState(file, [laptop])).toEqual(state);
  });

  it('starts from the defaults with no file or a damaged one', () => {
    const file = tempFile();
    expect(loadWindowState(file, [laptop])).toEqual(DEFAULT_WINDOW_STATE);
    writeFileSync(file, '{"bounds": {"width": "wide"');
    expect(loadWindowState(file, [laptop])).toEqual(DEFAULT_WINDOW_STATE);
    writeFileSync(file, JSON.stringify({ bounds: { width: 'wide', height: 3 } }));
    expect(loadWindowState(file, [laptop])).toEqual(DEFAULT_WINDOW_STATE);
  });

  it('re-centres a window left on a monitor that is gone', () => {
    const onRight = { bounds: { x: 2000, y: 100, width: 1600, height: 1000 }, maximized: false };
    expect(clampToDisplays(onRight, [laptop, rightMonitor]).bounds).toEqual(onRight.bounds);
    expect(clampToDisplays(onRight, [laptop]).bounds).toEqual({ width: 1440, height: 870 });
  });

  it('re-centres a window whose title bar is above the screen', () => {
    const above = { bounds: { x: 100, y: -500, width: 1000, height: 700 }, maximized: false };
    expect(clampToDisplays(above, [laptop]).bounds).toEqual({ width: 1000, height: 700 });
  });

  it('shrinks to the display and never below the minimum size', () => {
    const huge = { bounds: { x: 0, y: 0, width: 5000, height: 4000 }, maximized: false };
    expect(clampToDisplays(huge, [laptop]).bounds).toEqual({ x: 0, y: 0, width: 1440, height: 870 });
    const tiny = { bounds: { x: 10, y: 10, width: 50, height: 50 }, maximized: false };
    expect(clampToDisplays(tiny, [laptop]).bounds).toMatchObject({ width: 900, height: 600 });
  });
});
