// The scheduler files `matchdesk watch schedule` writes, built here for each system. The Linux ones are written into a
// temporary XDG config folder and checked by systemd itself (systemd-analyze verify) where it is installed; the
// user's own systemd is never touched: the commands that would turn the timer on are recorded, not run.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  LAUNCHD_LABEL,
  TASK_NAME,
  checkNoSecret,
  installSchedule,
  launchdPlist,
  removeSchedule,
  systemdUnits,
  taskSchedulerXml,
  type ScheduledCommand,
} from '../../electron/cli/system-schedule';

const SECRET = 'sa-secret-never-in-a-file';
// Apple's property-list format read by the parser electron-builder uses for macOS builds (untyped).
const parsePlist = (createRequire(import.meta.url)('plist') as { parse(xml: string): unknown }).parse;
let dir: string | undefined;
const temp = () => (dir = mkdtempSync(join(tmpdir(), 'matchdesk-schedule-')));
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
  delete process.env.MATCHDESK_CLIENT_SECRET;
});

/** This Node and a script path with a space and a quote, so quoting is put to the test. */
const command = (home: string | null): ScheduledCommand => ({ node: process.execPath, script: '/opt/Match desk/bin/matchdesk "cli".mjs', home });

function hasSystemdAnalyze(): boolean {
  try {
    execFileSync('systemd-analyze', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** A unit file's `key=value` lines, by section. */
function sections(text: string): Record<string, Record<string, string>> {
  const out: Record<string, Record<string, string>> = {};
  let section = '';
  for (const line of text.split('\n')) {
    const header = /^\[(\w+)\]$/.exec(line);
    if (header) out[(section = header[1]!)] = {};
    else if (line.includes('=')) out[section]![line.slice(0, line.indexOf('='))] = line.slice(line.indexOf('=') + 1);
  }
  return out;
}

describe('the systemd user timer (Linux)', () => {
  it('is written under XDG_CONFIG_HOME, runs "refresh --due --yes" hourly and after a missed run, holds no secret, and systemd accepts it', () => {
    const xdg = join(temp(), 'config');
    const home = join(dir!, 'data folder');
    process.env.MATCHDESK_CLIENT_SECRET = SECRET;
    const ran: string[] = [];
    const files = installSchedule({ platform: 'linux', home: join(dir!, 'home'), xdgConfigHome: xdg, tempDir: dir! }, command(home), 60, (p, a) => void ran.push([p, ...a].join(' ')));
    expect(files).toEqual([join(xdg, 'systemd/user/matchdesk-watch.service'), join(xdg, 'systemd/user/matchdesk-watch.timer')]);
    expect(ran).toEqual(['systemctl --user daemon-reload', 'systemctl --user enable --now matchdesk-watch.timer']);
    const [service, timer] = files.map((f) => readFileSync(f, 'utf8')) as [string, string];
    for (const text of [service, timer]) expect(text).not.toContain(SECRET);

    const s = sections(service);
    expect(s.Service).toMatchObject({ Type: 'oneshot', Environment: `"MATCHDESK_HOME=${home}"` });
    expect(s.Service!.ExecStart).toBe(`${process.execPath} "/opt/Match desk/bin/matchdesk \\"cli\\".mjs" refresh --due --yes`);
    expect(sections(timer)).toMatchObject({ Timer: { OnUnitActiveSec: '60min', Persistent: 'true' }, Install: { WantedBy: 'timers.target' } });

    if (hasSystemdAnalyze()) {
      // The script must exist for systemd to accept the command: the same units for this CLI's own entry point.
      const real = systemdUnits({ node: process.execPath, script: join(__dirname, '../../bin/matchdesk.mjs'), home }, 60);
      const check = installSchedule({ platform: 'linux', home: dir!, xdgConfigHome: join(dir!, 'real'), tempDir: dir! }, { node: process.execPath, script: join(__dirname, '../../bin/matchdesk.mjs'), home }, 60, () => undefined);
      expect(readFileSync(check[0]!, 'utf8')).toBe(real.service);
      // systemd says what it ignores (an unknown key, a bad value) on stderr and still exits 0: both must be empty.
      const verified = spawnSync('systemd-analyze', ['verify', '--man=no', ...check], { encoding: 'utf8' });
      expect({ status: verified.status, out: `${verified.stdout}${verified.stderr}`.trim() }).toEqual({ status: 0, out: '' });
    }
  });

  it('is removed with its files, and removing none is no failure', () => {
    const xdg = join(temp(), 'config');
    const target = { platform: 'linux' as const, home: dir!, xdgConfigHome: xdg, tempDir: dir! };
    const files = installSchedule(target, command(null), 60, () => undefined);
    const ran: string[] = [];
    expect(removeSchedule(target, (p, a) => void ran.push([p, ...a].join(' ')))).toEqual(files);
    expect(files.some((f) => existsSync(f))).toBe(false);
    expect(ran).toEqual(['systemctl --user disable --now matchdesk-watch.timer', 'systemctl --user daemon-reload']);
    expect(removeSchedule(target, () => expect.unreachable('nothing to turn off'))).toEqual([]);
  });

  it('refuses a command that would carry a secret of the environment', () => {
    expect(() => checkNoSecret(command(`/data/${SECRET}`), { MATCHDESK_CLIENT_SECRET: SECRET })).toThrow(/MATCHDESK_CLIENT_SECRET/);
    expect(() => checkNoSecret(command('/data'), { MATCHDESK_CLIENT_SECRET: SECRET })).not.toThrow();
  });
});

describe('the launchd agent (macOS)', () => {
  it('is a property list that runs the CLI with "refresh --due --yes" every hour and at login, with MATCHDESK_HOME', () => {
    const parsed = parsePlist(launchdPlist(command('/Users/a/Data & more'), 60, '/Users/a/Library/Logs')) as Record<string, unknown>;
    expect(parsed).toEqual({
      Label: LAUNCHD_LABEL,
      ProgramArguments: [process.execPath, '/opt/Match desk/bin/matchdesk "cli".mjs', 'refresh', '--due', '--yes'],
      EnvironmentVariables: { MATCHDESK_HOME: '/Users/a/Data & more' },
      StartInterval: 3600,
      RunAtLoad: true,
      StandardErrorPath: '/Users/a/Library/Logs/matchdesk-watch.log',
    });
  });

  it('is written to ~/Library/LaunchAgents and loaded, replacing one loaded before', () => {
    const home = temp();
    const ran: string[] = [];
    const [plist] = installSchedule({ platform: 'darwin', home, tempDir: home }, command(null), 60, (p, a) => {
      ran.push([p, ...a].join(' '));
      if (a[0] === 'unload') throw new Error('Could not find specified service');
    });
    expect(plist).toBe(join(home, 'Library/LaunchAgents', `${LAUNCHD_LABEL}.plist`));
    expect(ran).toEqual([`launchctl unload ${plist}`, `launchctl load -w ${plist}`]);
    expect((parsePlist(readFileSync(plist!, 'utf8')) as { EnvironmentVariables?: unknown }).EnvironmentVariables).toBeUndefined();
  });
});

describe('the Task Scheduler task (Windows)', () => {
  it('runs the CLI every hour while the user is logged on, as soon as it can after a missed start, with arguments quoted for Windows', () => {
    const xml = taskSchedulerXml({ node: 'C:\\Program Files\\nodejs\\node.exe', script: 'C:\\Apps\\Matchdesk\\bin\\matchdesk.mjs', home: null }, 60, '2026-11-29T09:00:00');
    expect(xml).toContain('<Interval>PT60M</Interval>');
    expect(xml).toContain('<StartWhenAvailable>true</StartWhenAvailable>');
    expect(xml).toContain('<LogonType>InteractiveToken</LogonType>');
    expect(xml).toContain('<Command>C:\\Program Files\\nodejs\\node.exe</Command>');
    expect(xml).toContain('<Arguments>C:\\Apps\\Matchdesk\\bin\\matchdesk.mjs refresh --due --yes</Arguments>');
    const withHome = taskSchedulerXml({ node: 'C:\\node.exe', script: 'C:\\My Apps\\matchdesk.mjs', home: 'D:\\Data "x"' }, 30, '2026-11-29T09:00:00');
    expect(withHome).toContain('<Command>cmd.exe</Command>');
    expect(withHome).toContain('<Arguments>/d /s /c &quot;set &quot;MATCHDESK_HOME=D:\\Data &quot;x&quot;&quot; &amp;&amp; C:\\node.exe &quot;C:\\My Apps\\matchdesk.mjs&quot; refresh --due --yes&quot;</Arguments>');
  });

  it('is registered from a UTF-16 file through schtasks, the file removed after, and deleted by name', () => {
    const tmp = temp();
    const ran: string[][] = [];
    let written = '';
    installSchedule({ platform: 'win32', home: tmp, tempDir: tmp }, command(null), 60, (p, a) => {
      ran.push([p, ...a]);
      const file = a[a.indexOf('/XML') + 1]!;
      const bytes = readFileSync(file);
      expect([...bytes.subarray(0, 2)]).toEqual([0xff, 0xfe]);
      written = bytes.toString('utf16le');
    });
    expect(ran[0]!.slice(0, 4)).toEqual(['schtasks', '/Create', '/F', '/TN']);
    expect(ran[0]![4]).toBe(TASK_NAME);
    expect(written).toContain('refresh --due --yes');
    expect(existsSync(ran[0]![6]!)).toBe(false);
    const removed: string[][] = [];
    removeSchedule({ platform: 'win32', home: tmp, tempDir: tmp }, (p, a) => void removed.push([p, ...a]));
    expect(removed).toEqual([['schtasks', '/Delete', '/F', '/TN', TASK_NAME]]);
  });
});
