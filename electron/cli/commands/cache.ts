import { parseCommandArgs } from '../args';
import { CliError } from '../cli-error';
import { openCliSession } from '../connect';
import { dataFileBytes, givenBackLine } from '../given-back';

export async function cacheCommand(argv: string[]): Promise<number> {
  const { positionals } = parseCommandArgs(argv, {}, 1);
  const action = positionals[0];
  if (action !== 'stats' && action !== 'clear') throw CliError.usage('Say "matchdesk cache stats" or "matchdesk cache clear".');
  const cli = await openCliSession();
  try {
    if (action === 'clear') {
      const before = dataFileBytes(cli.engine.dbPath);
      const { removed } = await cli.call('cache.clear', {});
      process.stdout.write(`Removed ${removed} cached answers.\n`);
      const givenBack = givenBackLine(before, dataFileBytes(cli.engine.dbPath));
      if (givenBack) process.stdout.write(`${givenBack}\n`);
      return 0;
    }
    const stats = await cli.call('cache.stats', {});
    process.stdout.write(
      `Cached answers: ${stats.entries} (${stats.fresh} fresh, ${stats.stale} stale, ${stats.errors} errors), ` +
        `${(stats.bytes / 1024 / 1024).toFixed(1)} MB\n`,
    );
    return 0;
  } finally {
    await cli.close();
  }
}
