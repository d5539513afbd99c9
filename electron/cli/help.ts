import { CONFIDENCE_THRESHOLD_RANGE, DEFAULT_SETTINGS } from '../../shared/model';
import { EXIT_CODE_HELP } from './exit-codes';

export interface CommandEntry {
  summary: string;
  usage: string;
  run(argv: string[]): Promise<number>;
}

/** The threshold's range and default, as --min-confidence's help gives them. */
const THRESHOLDS = `${CONFIDENCE_THRESHOLD_RANGE.min} to ${CONFIDENCE_THRESHOLD_RANGE.max} (default: the setting, ${DEFAULT_SETTINGS.autoAccept.minConfidence})`;

const CONNECTION_HELP = `
Connection (from a saved profile, or from the environment; secrets are never accepted as arguments):
  --profile ID                  use this saved profile (default: the active one)
  MATCHDESK_BASE_URL, MATCHDESK_ORG_ID and one of
    MATCHDESK_CLIENT_ID + MATCHDESK_CLIENT_SECRET   (service account)
    MATCHDESK_USERNAME + MATCHDESK_PASSWORD         (username and password)
    MATCHDESK_API_KEY                               (API key)
  MATCHDESK_HOME                data folder (default: the OS user-data folder)
`;

export const COMMANDS: Record<string, CommandEntry> = {
  match: {
    summary: 'import a sheet, map it, preview the cost, run it and export the matches, in one go',
    usage: `matchdesk match <input.csv|xlsx> --out <file.csv|xlsx> [options]

  --out FILE                    where to write the sheet with its match columns (.csv or .xlsx)
  --candidates FILE             also write every row's candidates in long form
  --map field=Column            override the detected mapping (fields: fullName firstName lastName email
                                profile company; Column is a header name or a 1-based column number); repeatable
  --strategy LIST               find strategies in order (default email,social,name+company; also: name)
  --sheet NAME                  the worksheet of an XLSX file (default: the first visible one)
  --auto-accept                 accept the rows whose best candidate is confident enough (see --min-confidence),
                                so they export as matches; without it every row with candidates is left for
                                review (match_status to_review). Never accepted alone: namesakes at one company,
                                a name without a company, a near name, an e-mail whose owner has another name
  --min-confidence X            the auto-accept threshold, ${THRESHOLDS}; the run ends
                                with how many rows each threshold would accept (matchdesk accept applies one)
  --offline                     answer from the local cache only; send nothing
  --concurrency N               calls in flight at once (default 4)
  --project N                   go on with project N instead of importing a sheet; a run of it that stopped part-way
                                (Ctrl-C, a crash, the service) goes on under the options it started with
  --fresh                       with --project: drop a run that stopped part-way and start anew with these options
  --matched-only                export only the rows with a match
  --yes                         do not ask before sending (required when not on a terminal)

  Nothing is imported or written until the connection answers (one login, even when everything is cached) and
  every --map column exists. --out (and --candidates) are written beside their targets and put in place only
  once the run has finished; a run that stops part-way leaves them as they were.
${CONNECTION_HELP}
${EXIT_CODE_HELP}`,
    run: async (argv) => (await import('./commands/match')).matchCommand(argv),
  },
  accept: {
    summary: 'accept every row waiting for review whose best candidate is at or above a confidence, in one go',
    usage: `matchdesk accept --project N [--min-confidence X] [--yes]

  --project N                   the project (its number from "matchdesk projects")
  --min-confidence X            ${THRESHOLDS}. Prints how many rows each threshold takes
                                first, and asks before accepting (undo in the app's review screen)
  --yes                         do not ask (required when not on a terminal)
${CONNECTION_HELP}`,
    run: async (argv) => (await import('./commands/accept')).acceptCommand(argv),
  },
  decide: {
    summary: 'record review decisions from a file, as one undoable action, and learn from them',
    usage: `matchdesk decide --project N --file decisions.csv [--learn-from M] [--yes]
       matchdesk decide --project N --learn-from M

  --project N                   the project (its number from "matchdesk projects")
  --file FILE                   a CSV with the columns row (the row number as the app shows it) and person_id
                                (the chosen candidate's id; blank when none of the candidates fits). A row or person
                                not in the project, or other columns, refuse the whole file with the line and why
  --learn-from M                start from what project M learned (a sheet of the same kind only); without --file,
                                nothing is recorded and the project only learns from M
  --yes                         do not ask (required when not on a terminal)

  The decisions are one action: undo it in the app's review screen. The project then learns from its decisions
  and says what it learned and which rows now look like those you accepted (matchdesk accept takes them).
${CONNECTION_HELP}`,
    run: async (argv) => (await import('./commands/decide')).decideCommand(argv),
  },
  search: {
    summary: 'find every person meeting criteria (filters or a template), page to the end and export them',
    usage: `matchdesk search --filters <file.json> --out <file.csv|xlsx> [options]
       matchdesk search --template left-companies --companies-from <sheet>:<column> --since YYYY-MM-DD --out <file>
       matchdesk search --resume <search-id> --out <file>

  --filters FILE                the filters as JSON: an array of {field, type, match_type, string_values,
                                date_from, date_to, job_group}, or the request body {"filters": [...]}
  --template ID                 a ready-made search:
                                  left-companies         --companies (or --companies-from) and --since
                                  function-at-companies  --functions and --companies (or --companies-from)
                                  held-title             --titles
  --companies-from SHEET:COLUMN company profile slugs or company page links from a column of a CSV or XLSX
                                file (COLUMN is a header or a 1-based column number)
  --sheet NAME                  the worksheet of an XLSX file for --companies-from (default: the first visible)
  --companies A,B  --functions A,B  --titles A,B  --since YYYY-MM-DD
                                template values given on the command line
  --name NAME                   name the saved search (default: its filters in words)
  --resume ID                   go on with a stopped search (pages already stored are not asked again)
  --values-per-call N           long value lists are split into calls of at most N values (default 100)
  --refresh                     ask the service even when an identical search is fresh in the cache
  --offline                     answer from stored results only; send nothing
  --no-bom                      write the CSV without a byte-order mark
  --yes                         do not ask before sending (required when not on a terminal)

  Writes one row per person: id, name, current title and company, profile slug, location, and the job that
  satisfied the search (company, title, function, started, ended). Progress goes to standard error. Nothing is
  sent or written until the connection answers; --out is put in place only once the search has finished (or
  was stopped with Ctrl-C).
${CONNECTION_HELP}
${EXIT_CODE_HELP}`,
    run: async (argv) => (await import('./commands/search')).searchCommand(argv),
  },
  import: {
    summary: 'import a sheet into a new project and show its detected mapping',
    usage: `matchdesk import <input.csv|xlsx> [--sheet NAME] [--name NAME]\n`,
    run: async (argv) => (await import('./commands/projects')).importCommand(argv),
  },
  refresh: {
    summary: "ask the service again for the people a project's rows chose, and see who moved or left since",
    usage: `matchdesk refresh --project N [--older-than DAYS] [--yes]
matchdesk refresh --due [--yes]

  --project N                   the project (its number from "matchdesk projects")
  --older-than DAYS             ask only for people whose record is older than this many days
  --due                         refresh every watched project that is due ("matchdesk watch"), each with its own
                                profile and credit ceiling: what the system's scheduler runs. A watch that cannot
                                run (no secret, over its ceiling, out of credits) or whose refresh stops (no
                                network) says why in "matchdesk watch list" and is tried again at the next run;
                                exit 0 either way
  --yes                         do not ask before sending (required when not on a terminal)

  Asks for the chosen person of every matched row (auto and accepted), each once however many rows chose them,
  by their profile, 100 to a call, past the cache; prints the cost first and asks before sending. Every decision
  stays as it is; the person's fields and the job change of each matched row are brought up to date, and what
  each row said before is kept: "matchdesk export N --changes-only" writes the rows that changed. A person no
  longer found keeps what their rows had, and is counted. Ctrl-C pauses: run the command again to go on, asking
  nobody twice.
${CONNECTION_HELP}
${EXIT_CODE_HELP}`,
    run: async (argv) => (await import('./commands/refresh')).refreshCommand(argv),
  },
  export: {
    summary: "export a project's rows with their match columns",
    usage: `matchdesk export <project-id> --out <file.csv|xlsx> [--candidates FILE] [--matched-only] [--changes-only]
matchdesk export <project-id> --out <file.csv|xlsx> --changes-since YYYY-MM-DD

  --changes-only                only the matched rows whose person's job changed at the last refresh
  --changes-since DAY           one row a change found by the refreshes since that day, for a CRM to import: the
                                sheet's columns, then change_person, change_person_id, change_kind (moved, left,
                                title), change_old_company, change_old_title, change_new_company, change_new_title,
                                change_date (as the service wrote it), change_detected_date, change_important
`,
    run: async (argv) => (await import('./commands/projects')).exportCommand(argv),
  },
  watch: {
    summary: 'refresh a project on a schedule, mark the rows that matter, see what changed',
    usage: `matchdesk watch set --project N (--every DAYS | --weekly DAY) [--credit-ceiling N] [--profile ID]
matchdesk watch clear --project N
matchdesk watch list [--json]
matchdesk watch important --project N (--rows 2,5,9 | --column NAME --value VALUE) [--unmark]
matchdesk watch inbox --project N [--mark-seen]
matchdesk watch schedule | unschedule

  set                           refresh the project every DAYS days, or weekly on DAY (monday ... sunday, UTC),
                                with the profile (default: the selected one); --credit-ceiling: a refresh that would
                                ask more people than this is not run, and the watch says so
  list                          each watch: when next, what its last due run did, or why it is blocked
  important                     rows whose person moving or leaving the app announces (sheet row numbers, 1 = the
                                first after the header), or every row with a column's value (e.g. Tier = A)
  inbox                         the changes not marked as seen yet, counted; --mark-seen marks them
  schedule                      has the system run "matchdesk refresh --due --yes" every hour: a systemd user timer
                                (Linux), a launchd agent (macOS) or a Task Scheduler task (Windows); no secret goes
                                in it, the run reads each profile's from the keychain. unschedule removes it
`,
    run: async (argv) => (await import('./commands/watch')).watchCommand(argv),
  },
  projects: {
    summary: 'list projects with their row, matched and to-review counts, or delete one',
    usage: `matchdesk projects [--json]
matchdesk projects delete <project-id> [--yes]

  --json                        the list as JSON
  --yes                         delete without asking (required when not on a terminal)

  A deleted project's rows, plan, decisions and runs go with it; the cached answers stay (a sheet matched again is
  answered from them, "matchdesk cache clear" removes them), and so do files exported from it.
`,
    run: async (argv) => (await import('./commands/projects')).projectsCommand(argv),
  },
  cache: {
    summary: 'show or clear the local lookup cache (stats | clear)',
    usage: `matchdesk cache stats\nmatchdesk cache clear\n`,
    run: async (argv) => (await import('./commands/cache')).cacheCommand(argv),
  },
  login: {
    summary: 'save a connection profile; its secret goes to the OS keychain',
    usage: `matchdesk login --base-url URL --org-id o_... --kind service_account|password|api_key [--login ID] [--name NAME]

  The secret (client secret, password or API key) is read from the terminal without echo, or from standard input
  when it is not a terminal (e.g. printf %s "$SECRET" | matchdesk login ...). It is never accepted as an argument.
`,
    run: async (argv) => (await import('./commands/login')).loginCommand(argv),
  },
  logout: {
    summary: "remove a saved profile and its secret from the keychain",
    usage: `matchdesk logout [--profile ID]   (default: the active profile)\n`,
    run: async (argv) => (await import('./commands/login')).logoutCommand(argv),
  },
  simulator: {
    summary: 'run a local People Data Service with seeded people (for demos, tests and benchmarks)',
    usage: `matchdesk simulator [--port P] [--people N] [--seed S] [--latency-ms L] [--faults PROFILE]
                    [--token-ttl-s T] [--find-shape array|people|results|matches] [--credits N] [--scores]
                    [--move-on SHARE [--move-every S] [--move-seed S]]\n`,
    run: async (argv) => (await import('../simulator/index')).runSimulatorCommand(argv),
  },
  web: {
    summary: 'run the app in your browser (the browser host), for machines where Electron cannot run',
    usage: `matchdesk web [--port P] [--data-dir DIR] [--open]\n`,
    run: async (argv) => (await import('./commands/web')).runWebCommand(argv),
  },
};

export function mainHelp(): string {
  const width = Math.max(...Object.keys(COMMANDS).map((name) => name.length));
  const lines = Object.entries(COMMANDS).map(([name, entry]) => `  ${name.padEnd(width)}  ${entry.summary}`);
  return `Matchdesk: match the people in your spreadsheets against the People Data Service.

Usage: matchdesk <command> [options]

Commands:
${lines.join('\n')}

Run "matchdesk <command> --help" for a command's options.

${EXIT_CODE_HELP}`;
}

export function commandHelp(name: string): string {
  const entry = COMMANDS[name];
  return entry ? `${entry.summary}\n\nUsage: ${entry.usage}` : mainHelp();
}
