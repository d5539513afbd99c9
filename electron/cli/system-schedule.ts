// The system's scheduler running `matchdesk refresh --due --yes` (issue 45): a systemd user timer on Linux, a launchd
// agent on macOS, a Task Scheduler task on Windows. Matchdesk writes them on request and removes them; each runs the
// command every so often, and the watches themselves decide what is due. The command line holds no secret: the
// scheduled run reads each watch's profile secret from the keychain, as the app does.
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

export const SCHEDULE_NAME = 'matchdesk-watch';
export const LAUNCHD_LABEL = 'app.matchdesk.watch';
export const TASK_NAME = 'Matchdesk watch';

/** What the scheduler runs: this Node and this CLI, with the data folder it uses when one was chosen. */
export interface ScheduledCommand {
  node: string;
  script: string;
  /** MATCHDESK_HOME, when set: the scheduled run uses the same data. */
  home: string | null;
}

export const DUE_ARGS = ['refresh', '--due', '--yes'] as const;

/** Names of the environment that may hold a secret: never written into a scheduler's file. */
const SECRET_ENV = /SECRET|PASSWORD|TOKEN|KEY/i;

/** Refuses a command that would carry a secret (a data folder named after one is a mistake worth stopping). */
export function checkNoSecret(command: ScheduledCommand, env: NodeJS.ProcessEnv): void {
  const text = [command.node, command.script, command.home ?? ''].join('\n');
  for (const [name, value] of Object.entries(env)) {
    if (value && value.length >= 4 && SECRET_ENV.test(name) && text.includes(value)) {
      throw new Error(`The scheduled command would hold the value of ${name}: choose paths that do not contain it.`);
    }
  }
}

/** One word of a systemd command line, quoted as systemd reads it. */
function systemdWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `"${word.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/%/g, '%%')}"`;
}

/** The service and timer of a systemd user timer running the due watches every `everyMinutes`, and after a missed run. */
export function systemdUnits(command: ScheduledCommand, everyMinutes: number): { service: string; timer: string } {
  const exec = [command.node, command.script, ...DUE_ARGS].map(systemdWord).join(' ');
  const env = command.home === null ? '' : `Environment=${systemdWord(`MATCHDESK_HOME=${command.home}`)}\n`;
  return {
    service: `[Unit]
Description=Matchdesk: refresh the watched projects that are due
After=network-online.target

[Service]
Type=oneshot
${env}ExecStart=${exec}
`,
    timer: `[Unit]
Description=Matchdesk: look for due watches every ${everyMinutes} minutes

[Timer]
OnBootSec=5min
OnUnitActiveSec=${everyMinutes}min
Persistent=true

[Install]
WantedBy=timers.target
`,
  };
}

function xmlText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** A launchd agent (~/Library/LaunchAgents) running the due watches every `everyMinutes`, and once at login. */
export function launchdPlist(command: ScheduledCommand, everyMinutes: number, logDir: string): string {
  const args = [command.node, command.script, ...DUE_ARGS].map((a) => `    <string>${xmlText(a)}</string>`).join('\n');
  const env =
    command.home === null
      ? ''
      : `  <key>EnvironmentVariables</key>\n  <dict>\n    <key>MATCHDESK_HOME</key>\n    <string>${xmlText(command.home)}</string>\n  </dict>\n`;
  return `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<plist version="1.0">
<dict>
  <key>Label</key>
  <string>${LAUNCHD_LABEL}</string>
  <key>ProgramArguments</key>
  <array>
${args}
  </array>
${env}  <key>StartInterval</key>
  <integer>${everyMinutes * 60}</integer>
  <key>RunAtLoad</key>
  <true/>
  <key>StandardErrorPath</key>
  <string>${xmlText(join(logDir, `${SCHEDULE_NAME}.log`))}</string>
</dict>
</plist>
`;
}

/** One argument of a Windows command line, quoted as CommandLineToArgvW reads it. */
function windowsArg(arg: string): string {
  if (arg !== '' && !/[\s"]/.test(arg)) return arg;
  return `"${arg.replace(/(\\*)"/g, '$1$1\\"').replace(/(\\+)$/, '$1$1')}"`;
}

/**
 * A Task Scheduler task (schtasks /Create /XML) running the due watches every `everyMinutes` while the user is logged
 * on, and as soon as it can after a missed start. MATCHDESK_HOME goes through cmd's `set`, the only way a task sets
 * an environment variable.
 */
export function taskSchedulerXml(command: ScheduledCommand, everyMinutes: number, startBoundary: string): string {
  const run = [command.node, command.script, ...DUE_ARGS].map(windowsArg).join(' ');
  const [program, args] =
    command.home === null
      ? [command.node, [command.script, ...DUE_ARGS].map(windowsArg).join(' ')]
      : ['cmd.exe', `/d /s /c "set "MATCHDESK_HOME=${command.home}" && ${run}"`];
  return `<?xml version="1.0" encoding="UTF-16"?>
<Task version="1.2" xmlns="http://schemas.microsoft.com/windows/2004/02/mit/task">
  <RegistrationInfo>
    <Description>Matchdesk: refresh the watched projects that are due</Description>
  </RegistrationInfo>
  <Triggers>
    <TimeTrigger>
      <Repetition>
        <Interval>PT${everyMinutes}M</Interval>
        <StopAtDurationEnd>false</StopAtDurationEnd>
      </Repetition>
      <StartBoundary>${xmlText(startBoundary)}</StartBoundary>
      <Enabled>true</Enabled>
    </TimeTrigger>
  </Triggers>
  <Principals>
    <Principal id="Author">
      <LogonType>InteractiveToken</LogonType>
      <RunLevel>LeastPrivilege</RunLevel>
    </Principal>
  </Principals>
  <Settings>
    <MultipleInstancesPolicy>IgnoreNew</MultipleInstancesPolicy>
    <StartWhenAvailable>true</StartWhenAvailable>
    <RunOnlyIfNetworkAvailable>true</RunOnlyIfNetworkAvailable>
    <DisallowStartIfOnBatteries>false</DisallowStartIfOnBatteries>
    <ExecutionTimeLimit>PT12H</ExecutionTimeLimit>
    <Enabled>true</Enabled>
  </Settings>
  <Actions Context="Author">
    <Exec>
      <Command>${xmlText(program)}</Command>
      <Arguments>${xmlText(args)}</Arguments>
    </Exec>
  </Actions>
</Task>
`;
}

/** Runs a command of the system (systemctl, launchctl, schtasks); throws with its words when it fails. */
export type RunCommand = (program: string, args: string[]) => void;

export interface ScheduleTarget {
  platform: NodeJS.Platform;
  /** The user's home folder (~). */
  home: string;
  /** XDG_CONFIG_HOME on Linux, when set. */
  xdgConfigHome?: string;
  /** Where files that only feed a command are written (the Windows task's XML). */
  tempDir: string;
}

/** The files a schedule is made of on this system. */
export function scheduleFiles(target: ScheduleTarget): string[] {
  if (target.platform === 'darwin') return [join(target.home, 'Library', 'LaunchAgents', `${LAUNCHD_LABEL}.plist`)];
  if (target.platform === 'win32') return [];
  const units = join(target.xdgConfigHome || join(target.home, '.config'), 'systemd', 'user');
  return [join(units, `${SCHEDULE_NAME}.service`), join(units, `${SCHEDULE_NAME}.timer`)];
}

/**
 * Writes the schedule's files and turns it on through `run`; what it wrote. Every `everyMinutes` the scheduled run
 * looks for due watches (a watch is due every few days: an hour's wait is the most it adds).
 */
export function installSchedule(target: ScheduleTarget, command: ScheduledCommand, everyMinutes: number, run: RunCommand, now = new Date()): string[] {
  checkNoSecret(command, process.env);
  const write = (path: string, text: string) => {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text, { mode: 0o644 });
  };
  if (target.platform === 'darwin') {
    const [plist] = scheduleFiles(target) as [string];
    const logs = join(target.home, 'Library', 'Logs');
    write(plist, launchdPlist(command, everyMinutes, logs));
    try {
      // A schedule set before is replaced; none loaded is no failure.
      run('launchctl', ['unload', plist]);
    } catch {
      // Nothing was loaded.
    }
    run('launchctl', ['load', '-w', plist]);
    return [plist];
  }
  if (target.platform === 'win32') {
    const xml = join(target.tempDir, `${SCHEDULE_NAME}.xml`);
    // Task Scheduler reads its XML as UTF-16 with a byte-order mark.
    mkdirSync(target.tempDir, { recursive: true });
    writeFileSync(xml, Buffer.from(`\ufeff${taskSchedulerXml(command, everyMinutes, now.toISOString().slice(0, 19))}`, 'utf16le'));
    try {
      run('schtasks', ['/Create', '/F', '/TN', TASK_NAME, '/XML', xml]);
    } finally {
      rmSync(xml, { force: true });
    }
    return [];
  }
  const [service, timer] = scheduleFiles(target) as [string, string];
  const units = systemdUnits(command, everyMinutes);
  write(service, units.service);
  write(timer, units.timer);
  run('systemctl', ['--user', 'daemon-reload']);
  run('systemctl', ['--user', 'enable', '--now', `${SCHEDULE_NAME}.timer`]);
  return [service, timer];
}

/** Turns the schedule off and removes its files; the files it removed. */
export function removeSchedule(target: ScheduleTarget, run: RunCommand): string[] {
  const files = scheduleFiles(target).filter((f) => existsSync(f));
  if (target.platform === 'darwin') {
    for (const f of files) run('launchctl', ['unload', '-w', f]);
  } else if (target.platform === 'win32') {
    run('schtasks', ['/Delete', '/F', '/TN', TASK_NAME]);
  } else if (files.length > 0) {
    run('systemctl', ['--user', 'disable', '--now', `${SCHEDULE_NAME}.timer`]);
  }
  for (const f of files) rmSync(f, { force: true });
  if (target.platform === 'linux' && files.length > 0) run('systemctl', ['--user', 'daemon-reload']);
  return files;
}
