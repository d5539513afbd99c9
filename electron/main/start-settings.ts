import type { App } from 'electron';

/**
 * The environment the app's processes start with on Linux, which glibc's malloc reads only as a process starts
 * (docs/performance.md, "Memory"). Two arenas: else each thread that allocates (the verdict worker, V8's and libuv's
 * threads) gets one of its own, and memory freed in one stays there. Blocks from 128 KiB mapped on their own, always:
 * glibc raises that bound to the largest block freed (up to 32 MB), after which a large step's big blocks (typed
 * arrays, SQLite's sorts) came from the main heap, which gives back only what is freed at its top. bin/matchdesk.mjs
 * gives the CLI and the browser host the same; the bench's engine process, which stands for this one, starts with it.
 */
export const MEMORY_ENV: Readonly<Record<string, string>> = { MALLOC_ARENA_MAX: '2', MALLOC_MMAP_THRESHOLD_: '131072' };

/** V8's young generation capped, as bin/matchdesk.mjs and `npm start` start the app; V8 reads it only at start-up. */
export const YOUNG_GENERATION_FLAG = '--max-semi-space-size=8';

/** Set on the process started again, so it never starts itself once more (its settings did not take). */
const RESTARTED_MARK = 'MATCHDESK_RESTARTED';

export interface Restart {
  execPath: string;
  args: string[];
  /** What to add to the environment the new process inherits. */
  env: Record<string, string>;
}

/**
 * How Electron's main process must be started again to have the settings above, or null when it has them, already
 * started itself again, or runs where glibc's settings do not apply (macOS, Windows). `argv` is process.argv. An
 * AppImage's own binary is started, not the copy inside its mount, which goes away as this process ends.
 */
export function memoryRestart(platform: NodeJS.Platform, env: NodeJS.ProcessEnv, argv: readonly string[], execPath: string): Restart | null {
  if (platform !== 'linux' || env[RESTARTED_MARK]) return null;
  const missing = Object.fromEntries(Object.entries(MEMORY_ENV).filter(([name]) => !env[name]));
  const args = argv.slice(1);
  const jsFlags = args.findIndex((arg) => arg.startsWith('--js-flags='));
  const capped = jsFlags >= 0 && args[jsFlags]!.includes('--max-semi-space-size');
  if (Object.keys(missing).length === 0 && capped) return null;
  if (jsFlags < 0) args.unshift(`--js-flags=${YOUNG_GENERATION_FLAG}`);
  else if (!capped) args[jsFlags] = `${args[jsFlags]} ${YOUNG_GENERATION_FLAG}`;
  return { execPath: env.APPIMAGE || execPath, args, env: { ...missing, [RESTARTED_MARK]: '1' } };
}

/**
 * A packaged app on Linux started without the settings (from its menu entry, a file manager) starts itself again with
 * them and ends: true when it does, and the caller then does nothing more. Electron's main process can set neither
 * once running (`app.commandLine` reaches only the processes it starts). An unpackaged app (`npm start`, which gives
 * the flag, or a test driving the app, which follows the process it started) runs as it was started.
 */
export function restartWithMemorySettings(app: Pick<App, 'isPackaged' | 'relaunch' | 'exit'>, proc: Pick<NodeJS.Process, 'platform' | 'env' | 'argv' | 'execPath'> = process): boolean {
  if (!app.isPackaged) return false;
  const restart = memoryRestart(proc.platform, proc.env, proc.argv, proc.execPath);
  if (!restart) return false;
  // The new process is started as this one ends, with this one's environment.
  Object.assign(proc.env, restart.env);
  app.relaunch({ execPath: restart.execPath, args: restart.args });
  app.exit(0);
  return true;
}
