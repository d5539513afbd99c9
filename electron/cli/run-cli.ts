export async function runCli(argv: string[]): Promise<number> {
  if (argv.length === 0 || argv[0] === '--help' || argv[0] === '-h') {
    process.stdout.write('matchdesk: commands coming\n');
    return 0;
  }
  process.stderr.write(`matchdesk: unknown command "${argv[0]}"\n`);
  return 2;
}
