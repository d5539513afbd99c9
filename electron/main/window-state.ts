// The main window's size and position between launches: a small JSON file in the user-data folder.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

export interface Rectangle {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface WindowState {
  /** Absent on first launch: the OS centres the window. */
  bounds: Partial<Rectangle> & { width: number; height: number };
  maximized: boolean;
}

export const DEFAULT_WINDOW_STATE: WindowState = { bounds: { width: 1280, height: 800 }, maximized: false };
export const MIN_WIDTH = 900;
export const MIN_HEIGHT = 600;
/** How much of the title bar must stay on a display for the user to grab the window again. */
const MIN_VISIBLE = 100;

export function loadWindowState(file: string, workAreas: Rectangle[]): WindowState {
  let saved: unknown;
  try {
    saved = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    // First launch, or a damaged file: start from the defaults rather than refuse to open.
    return DEFAULT_WINDOW_STATE;
  }
  return clampToDisplays(parseWindowState(saved), workAreas);
}

export function saveWindowState(file: string, state: WindowState): void {
  mkdirSync(dirname(file), { recursive: true });
  // Write then rename, so a crash mid-write never leaves half a file.
  const temp = `${file}.tmp`;
  // It lives in the data folder, where Matchdesk's files are owner-only (README).
  writeFileSync(temp, JSON.stringify(state), { mode: 0o600 });
  renameSync(temp, file);
}

function parseWindowState(value: unknown): WindowState {
  if (typeof value !== 'object' || value === null) return DEFAULT_WINDOW_STATE;
  const { bounds, maximized } = value as { bounds?: Record<string, unknown>; maximized?: unknown };
  const width = finite(bounds?.width);
  const height = finite(bounds?.height);
  if (width === null || height === null) return DEFAULT_WINDOW_STATE;
  const x = finite(bounds?.x);
  const y = finite(bounds?.y);
  return {
    bounds: x === null || y === null ? { width, height } : { x, y, width, height },
    maximized: maximized === true,
  };
}

function finite(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? Math.round(value) : null;
}

/**
 * Keeps a remembered window where the user can see it: a display may have been unplugged or resized since.
 * The size shrinks to the largest work area; a window not visible enough on any display is re-centred.
 */
export function clampToDisplays(state: WindowState, workAreas: Rectangle[]): WindowState {
  if (workAreas.length === 0) return state;
  const largest = workAreas.reduce((a, b) => (b.width * b.height > a.width * a.height ? b : a));
  const width = Math.max(MIN_WIDTH, Math.min(state.bounds.width, largest.width));
  const height = Math.max(MIN_HEIGHT, Math.min(state.bounds.height, largest.height));
  const { x, y } = state.bounds;
  if (x === undefined || y === undefined) return { ...state, bounds: { width, height } };
  const placed = { x, y, width, height };
  if (workAreas.some((area) => titleBarVisible(placed, area))) return { ...state, bounds: placed };
  return { ...state, bounds: { width, height } };
}

function titleBarVisible(window: Rectangle, area: Rectangle): boolean {
  const overlapX = Math.min(window.x + window.width, area.x + area.width) - Math.max(window.x, area.x);
  const titleInside = window.y >= area.y && window.y < area.y + area.height - MIN_VISIBLE / 2;
  return overlapX >= MIN_VISIBLE && titleInside;
}
