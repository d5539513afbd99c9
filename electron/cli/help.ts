export interface CommandEntry {
  summary: string;
  usage: string;
  run(argv: string[]): Promise<number>;
}

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
  --auto-accept                 accept the rows the auto-accept rule allows (single exact e-mail/profile match,
                                or a clear top score), so they export as matches
  --offline                     answer from the local cache only; send nothing
  --concurrency N               calls in flight at once (default 4)
  --matched-only                export only the rows with a match
  --yes                         do not ask before sending (required when not on a terminal)
${CONNECTION_HELP}`,
    run: async (argv) => (await import('./commands/match')).matchCommand(argv),
  },
  import: {
    summary: 'import a sheet into a new project and show its detected mapping',
    usage: `matchdesk import <input.csv|xlsx> [--sheet NAME] [--name NAME]\n`,
    run: async (argv) => (await import('./commands/projects')).importCommand(argv),
  },
  export: {
    summary: "export a project's rows with their match columns",
    usage: `matchdesk export <project-id> --out <file.csv|xlsx> [--candidates FILE] [--matched-only]\n`,
    run: async (argv) => (await import('./commands/projects')).exportCommand(argv),
  },
  projects: {
    summary: 'list projects with their row, matched and to-review counts',
    usage: `matchdesk projects [--json]\n`,
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
                    [--token-ttl-s T] [--find-shape array|people|results|matches] [--credits N]\n`,
    run: async (argv) => (await import('../simulator/index')).runSimulatorCommand(argv),
  },
  web: {
    summary: 'run the app in your browser (the browser host), for machines where Electron cannot run',
    usage: `matchdesk web [--port P] [--data-dir DIR] [--open]\n`,
    run: async (argv) => (await import('../web/server')).runWebCommand(argv),
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
`;
}

export function commandHelp(name: string): string {
  const entry = COMMANDS[name];
  return entry ? `${entry.summary}\n\nUsage: ${entry.usage}` : mainHelp();
}
