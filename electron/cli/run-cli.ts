import { COMMANDS, commandHelp, mainHelp } from './help';
import { CliError } from './cli-error';
import { EXIT_CODES } from './exit-codes';
import { editDistance } from '../engine/matching/edit-distance';

/** Routes `matchdesk <command> ...`; each command module is loaded only when asked for, so `--help` is instant. */
export async function runCli(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (!command || command === '--help' || command === '-h' || command === 'help') {
    const topic = command === 'help' ? rest[0] : undefined;
    process.stdout.write(topic && topic in COMMANDS ? commandHelp(topic) : mainHelp());
    return 0;
  }
  if (command === '--version' || command === '-v') {
    const { version } = await import('./version');
    process.stdout.write(`${version()}\n`);
    return 0;
  }
  if (!(command in COMMANDS)) {
    const meant = closestCommand(command, Object.keys(COMMANDS));
    process.stderr.write(`matchdesk: unknown command "${command}". ${meant ? `Did you mean "matchdesk ${meant}"? ` : ''}Run "matchdesk --help" to see the commands.\n`);
    return EXIT_CODES.usage;
  }
  if (rest.includes('--help') || rest.includes('-h')) {
    process.stdout.write(commandHelp(command));
    return 0;
  }
  try {
    return await COMMANDS[command as keyof typeof COMMANDS].run(rest);
  } catch (err) {
    if (err instanceof CliError) {
      process.stderr.write(`matchdesk ${command}: ${err.message}\n`);
      return err.exitCode;
    }
    process.stderr.write(`matchdesk ${command}: ${err instanceof Error ? err.message : String(err)}\n`);
    return EXIT_CODES.failed;
  }
}

/** The command a typo most likely meant: one edit away for short names, two for longer ones. */
export function closestCommand(typed: string, commands: readonly string[]): string | null {
  let best: { command: string; distance: number } | null = null;
  for (const command of commands) {
    const distance = editDistance(typed.toLowerCase(), command, 2);
    if (distance <= (command.length <= 5 ? 1 : 2) && (!best || distance < best.distance)) best = { command, distance };
  }
  return best?.command ?? null;
}
