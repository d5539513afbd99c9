// Electron's main process on Linux gets the memory settings the CLI and the browser host start with (two malloc
// arenas, V8's young generation capped) by starting itself again once, as a packaged app. Electron's binary cannot run
// here: the app is the object the function is handed.
import { describe, expect, it } from 'vitest';
import { MEMORY_ENV, YOUNG_GENERATION_FLAG, memoryRestart, restartWithMemorySettings } from '../../electron/main/start-settings';

const APP_BINARY = '/opt/Matchdesk/matchdesk';

describe('memoryRestart', () => {
  it('starts a Linux app without the settings again with both, keeping its arguments', () => {
    const restart = memoryRestart('linux', { HOME: '/home/u' }, [APP_BINARY, '--some-switch', '/home/u/sheet.csv'], APP_BINARY);
    expect(restart).toEqual({
      execPath: APP_BINARY,
      args: [`--js-flags=${YOUNG_GENERATION_FLAG}`, '--some-switch', '/home/u/sheet.csv'],
      env: { MALLOC_ARENA_MAX: '2', MALLOC_MMAP_THRESHOLD_: '131072', MATCHDESK_RESTARTED: '1' },
    });
  });

  it('adds the young generation cap to V8 flags it was given, and keeps an arena count it was given', () => {
    const restart = memoryRestart('linux', { MALLOC_ARENA_MAX: '1' }, [APP_BINARY, '--js-flags=--expose-gc'], APP_BINARY);
    expect(restart?.args).toEqual([`--js-flags=--expose-gc ${YOUNG_GENERATION_FLAG}`]);
    expect(restart?.env).toEqual({ MALLOC_MMAP_THRESHOLD_: '131072', MATCHDESK_RESTARTED: '1' });
  });

  it('leaves a process that has both, or was started again already, or is not on Linux', () => {
    const flags = [APP_BINARY, `--js-flags=${YOUNG_GENERATION_FLAG}`];
    expect(memoryRestart('linux', { ...MEMORY_ENV }, flags, APP_BINARY)).toBeNull();
    expect(memoryRestart('linux', { MATCHDESK_RESTARTED: '1' }, [APP_BINARY], APP_BINARY)).toBeNull();
    expect(memoryRestart('darwin', {}, [APP_BINARY], APP_BINARY)).toBeNull();
    expect(memoryRestart('win32', {}, [APP_BINARY], APP_BINARY)).toBeNull();
  });

  it("starts an AppImage's own file, not the binary inside its mount", () => {
    const inside = '/tmp/.mount_MatchdXyz/matchdesk';
    expect(memoryRestart('linux', { APPIMAGE: '/home/u/Matchdesk.AppImage' }, [inside], inside)?.execPath).toBe('/home/u/Matchdesk.AppImage');
  });
});

describe('restartWithMemorySettings', () => {
  const fakeApp = (isPackaged: boolean) => {
    const seen = { relaunched: null as null | { execPath?: string; args?: string[] }, exitCode: null as number | null };
    return { seen, app: { isPackaged, relaunch: (options?: { execPath?: string; args?: string[] }) => void (seen.relaunched = options ?? {}), exit: (code?: number) => void (seen.exitCode = code ?? 0) } };
  };

  it('relaunches a packaged app with the settings in its environment, and ends this process', () => {
    const { seen, app } = fakeApp(true);
    const proc = { platform: 'linux' as const, env: {} as NodeJS.ProcessEnv, argv: [APP_BINARY], execPath: APP_BINARY };
    expect(restartWithMemorySettings(app, proc)).toBe(true);
    expect(seen.relaunched).toEqual({ execPath: APP_BINARY, args: [`--js-flags=${YOUNG_GENERATION_FLAG}`] });
    expect(seen.exitCode).toBe(0);
    // The relaunched process inherits this environment.
    expect(proc.env.MALLOC_ARENA_MAX).toBe('2');
    expect(proc.env.MALLOC_MMAP_THRESHOLD_).toBe('131072');
    expect(proc.env.MATCHDESK_RESTARTED).toBe('1');
    // Started again, it goes on.
    const again = fakeApp(true);
    expect(restartWithMemorySettings(again.app, { ...proc, argv: [APP_BINARY, ...seen.relaunched!.args!] })).toBe(false);
    expect(again.seen.relaunched).toBeNull();
  });

  it('leaves an unpackaged app as it was started (npm start gives the flag; a test follows the process it started)', () => {
    const { seen, app } = fakeApp(false);
    const proc = { platform: 'linux' as const, env: {} as NodeJS.ProcessEnv, argv: [APP_BINARY], execPath: APP_BINARY };
    expect(restartWithMemorySettings(app, proc)).toBe(false);
    expect(seen.relaunched).toBeNull();
    expect(proc.env).toEqual({});
  });
});
