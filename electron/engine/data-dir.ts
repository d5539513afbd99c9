import { homedir } from 'node:os';
import { join } from 'node:path';

export const APP_FOLDER_NAME = 'Matchdesk';

/**
 * Where Matchdesk keeps its database when no folder is given: MATCHDESK_HOME, else the OS user-data folder the
 * Electron app uses too, so the desktop app, the browser host and the CLI share one set of projects.
 */
export function defaultDataDir(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
  home: string = homedir(),
): string {
  if (env.MATCHDESK_HOME) return env.MATCHDESK_HOME;
  return join(appDataDir(env, platform, home), APP_FOLDER_NAME);
}

/** The per-user folder applications write their data into, as Electron's `app.getPath('appData')` reports it. */
export function appDataDir(env: NodeJS.ProcessEnv, platform: NodeJS.Platform, home: string): string {
  if (platform === 'darwin') return join(home, 'Library', 'Application Support');
  if (platform === 'win32') return env.APPDATA || join(home, 'AppData', 'Roaming');
  return env.XDG_CONFIG_HOME || join(home, '.config');
}
