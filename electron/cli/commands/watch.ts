import { tmpdir, homedir } from 'node:os';
import { resolve } from 'node:path';
import { execFileSync } from 'node:child_process';
import type { ChangesInbox, WatchSummary } from '../../../shared/contract';
import { parseCommandArgs, positiveInt } from '../args';
import { CliError } from '../cli-error';
import { openCliSession, selectProfile } from '../connect';
import { EXIT_CODES } from '../exit-codes';
import { installSchedule, removeSchedule, type RunCommand, type ScheduleTarget } from '../system-schedule';

const WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];
const SCHEDULE_EVERY_MINUTES = 60;

/**
 * `matchdesk watch set|clear|list|important|inbox|schedule|unschedule`: a project refreshed on a schedule, the rows
 * that matter, the changes not seen yet, and the system scheduler that runs `matchdesk refresh --due --yes`.
 */
export async function watchCommand(argv: string[]): Promise<number> {
  const [action, ...rest] = argv;
  switch (action) {
    case 'set':
      return setWatch(rest);
    case 'clear':
      return clearWatch(rest);
    case 'list':
    case undefined:
      return listWatches(rest);
    case 'important':
      return markImportant(rest);
    case 'inbox':
      return inbox(rest);
    case 'schedule':
      return schedule(rest, true);
    case 'unschedule':
      return schedule(rest, false);
    default:
      throw CliError.usage(`"${action}" is not a watch command: say set, clear, list, important, inbox, schedule or unschedule.`);
  }
}

function projectOf(value: string | undefined, example: string): number {
  const projectId = positiveInt(value, '--project');
  if (!projectId) throw CliError.usage(`Name the project: ${example}.`);
  return projectId;
}

async function setWatch(argv: string[]): Promise<number> {
  const { values } = parseCommandArgs(argv, {
    project: { type: 'string' },
    every: { type: 'string' },
    weekly: { type: 'string' },
    'credit-ceiling': { type: 'string' },
    profile: { type: 'string' },
  });
  const projectId = projectOf(values.project, 'matchdesk watch set --project N --every DAYS');
  if ((values.every === undefined) === (values.weekly === undefined)) throw CliError.usage('Say how often, one way: --every DAYS (e.g. 30) or --weekly DAY (e.g. monday).');
  const everyDays = values.every === undefined ? undefined : positiveInt(values.every, '--every');
  if (everyDays !== undefined && everyDays > 366) throw CliError.usage(`--every takes a number of days from 1 to 366, not "${values.every}".`);
  const weekday = values.weekly === undefined ? undefined : WEEKDAYS.findIndex((d) => d.startsWith(values.weekly!.trim().toLowerCase()) && values.weekly!.trim().length >= 2);
  if (weekday === -1) throw CliError.usage(`--weekly takes a day of the week (monday ... sunday), not "${values.weekly}".`);
  const ceiling = values['credit-ceiling'];
  const creditCeiling = ceiling === undefined ? null : /^\d+$/.test(ceiling) ? Number(ceiling) : null;
  if (ceiling !== undefined && creditCeiling === null) throw CliError.usage(`--credit-ceiling takes a whole number of credits, not "${ceiling}".`);
  const cli = await openCliSession();
  try {
    const profile = await selectProfile(cli, values.profile);
    const watch = await cli.call('watch.set', {
      projectId,
      creditCeiling,
      profileId: profile.id,
      ...(everyDays !== undefined ? { everyDays: everyDays! } : { weekday: weekday! }),
    });
    process.stdout.write(`Watching "${watch.projectName}": ${scheduleWords(watch)}, with the profile "${profile.name}"; next refresh ${watch.nextRefreshAt}.\n`);
    process.stdout.write('"matchdesk refresh --due" runs the due watches; "matchdesk watch schedule" has the system run it every hour.\n');
    return EXIT_CODES.ok;
  } finally {
    await cli.close();
  }
}

async function clearWatch(argv: string[]): Promise<number> {
  const { values } = parseCommandArgs(argv, { project: { type: 'string' } });
  const projectId = projectOf(values.project, 'matchdesk watch clear --project N');
  const cli = await openCliSession();
  try {
    await cli.call('watch.clear', { projectId });
    process.stdout.write(`Project ${projectId} is not watched any more.\n`);
    return EXIT_CODES.ok;
  } finally {
    await cli.close();
  }
}

function scheduleWords(w: WatchSummary): string {
  const when = w.everyDays !== null ? `every ${w.everyDays} day${w.everyDays === 1 ? '' : 's'}` : `weekly on ${WEEKDAYS[w.weekday!]} (UTC)`;
  return w.creditCeiling === null ? when : `${when}, up to ${w.creditCeiling} credits a refresh`;
}

async function listWatches(argv: string[]): Promise<number> {
  const { values } = parseCommandArgs(argv, { json: { type: 'boolean' } });
  const cli = await openCliSession();
  try {
    const watches = await cli.call('watch.list', {});
    if (values.json) {
      process.stdout.write(`${JSON.stringify(watches, null, 2)}\n`);
      return EXIT_CODES.ok;
    }
    if (watches.length === 0) process.stdout.write('No project is watched: "matchdesk watch set --project N --every DAYS".\n');
    for (const w of watches) {
      process.stdout.write(`${w.projectId}  ${w.projectName}: ${scheduleWords(w)}; ${w.due ? 'due now' : `next ${w.nextRefreshAt}`}\n`);
      if (w.blocked) process.stdout.write(`    blocked: ${w.blocked}\n`);
      else if (w.lastResult) process.stdout.write(`    last (${w.lastRunAt}): ${w.lastResult}\n`);
    }
    return EXIT_CODES.ok;
  } finally {
    await cli.close();
  }
}

async function markImportant(argv: string[]): Promise<number> {
  const { values } = parseCommandArgs(argv, {
    project: { type: 'string' },
    rows: { type: 'string' },
    column: { type: 'string' },
    value: { type: 'string' },
    unmark: { type: 'boolean' },
  });
  const projectId = projectOf(values.project, 'matchdesk watch important --project N --rows 2,5 (or --column Tier --value A)');
  if ((values.rows === undefined) === (values.column === undefined)) throw CliError.usage('Mark rows one way: --rows 2,5,9 (sheet rows, 1 = the first after the header) or --column NAME --value VALUE.');
  if (values.column !== undefined && values.value === undefined) throw CliError.usage('--column goes with --value: the value that makes a row important (e.g. --column Tier --value A).');
  const cli = await openCliSession();
  try {
    let input;
    if (values.rows !== undefined) {
      const rows = values.rows.split(',').map((r) => positiveInt(r.trim(), '--rows')!);
      input = { projectId, rows: rows.map((r) => r - 1), important: !values.unmark };
    } else {
      const headers = (await cli.call('projects.get', { projectId })).headers;
      const columnIndex = headers.findIndex((h) => h === values.column);
      if (columnIndex < 0) throw CliError.usage(`The sheet has no column "${values.column}": its columns are ${headers.map((h) => `"${h}"`).join(', ')}.`);
      input = { projectId, column: { columnIndex, value: values.value! }, important: !values.unmark };
    }
    const marks = await cli.call('watch.markImportant', input);
    const headers = (await cli.call('projects.get', { projectId })).headers;
    process.stdout.write(`Important: ${marks.rows.length} row${marks.rows.length === 1 ? '' : 's'} by hand${marks.values.map((v) => `, ${headers[v.columnIndex]} = ${v.value}`).join('')}.\n`);
    return EXIT_CODES.ok;
  } finally {
    await cli.close();
  }
}

function inboxLine(box: ChangesInbox): string {
  return `${box.unseen} change${box.unseen === 1 ? '' : 's'} not seen: ${box.counts.moved} moved, ${box.counts.left} left, ${box.counts.title} changed title; ${box.important} important.`;
}

async function inbox(argv: string[]): Promise<number> {
  const { values } = parseCommandArgs(argv, { project: { type: 'string' }, 'mark-seen': { type: 'boolean' } });
  const projectId = projectOf(values.project, 'matchdesk watch inbox --project N [--mark-seen]');
  const cli = await openCliSession();
  try {
    const box = await cli.call('watch.inbox', { projectId });
    process.stdout.write(`${inboxLine(box)}\n`);
    for (const c of box.changes) {
      const from = [c.from.title, c.from.company].filter(Boolean).join(' at ') || 'no job';
      const to = [c.to.title, c.to.company].filter(Boolean).join(' at ') || 'no job';
      process.stdout.write(`${c.important ? '! ' : '  '}row ${c.rowNumber}  ${c.personName ?? '(no name)'}  ${c.kind}: ${from} -> ${to}  (found ${c.detectedAt.slice(0, 10)})\n`);
    }
    if (values['mark-seen']) {
      await cli.call('watch.markSeen', { projectId });
      process.stdout.write('Marked as seen.\n');
    }
    return EXIT_CODES.ok;
  } finally {
    await cli.close();
  }
}

/** The system's scheduler, set up or removed for this user; the real one is never touched by tests (they call system-schedule.ts). */
async function schedule(argv: string[], on: boolean): Promise<number> {
  parseCommandArgs(argv, {});
  const target: ScheduleTarget = { platform: process.platform, home: homedir(), xdgConfigHome: process.env.XDG_CONFIG_HOME, tempDir: tmpdir() };
  const run: RunCommand = (program, args) => {
    try {
      execFileSync(program, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    } catch (error) {
      const words = (error as { stderr?: Buffer }).stderr?.toString().trim();
      throw new CliError(`${program} ${args.join(' ')} failed${words ? `: ${words}` : ''}.`);
    }
  };
  if (!on) {
    const removed = removeSchedule(target, run);
    process.stdout.write(removed.length > 0 || process.platform === 'win32' ? `The scheduled refresh is removed${removed.length ? `: ${removed.join(', ')}` : ''}.\n` : 'No scheduled refresh was set up.\n');
    return EXIT_CODES.ok;
  }
  const command = { node: process.execPath, script: resolve(process.argv[1]!), home: process.env.MATCHDESK_HOME ? resolve(process.env.MATCHDESK_HOME) : null };
  const files = installSchedule(target, command, SCHEDULE_EVERY_MINUTES, run);
  process.stdout.write(`Every ${SCHEDULE_EVERY_MINUTES} minutes the system runs "matchdesk refresh --due --yes"${files.length ? ` (${files.join(', ')})` : ' (Task Scheduler: "Matchdesk watch")'}.\n`);
  process.stdout.write('Remove it with "matchdesk watch unschedule".\n');
  return EXIT_CODES.ok;
}
