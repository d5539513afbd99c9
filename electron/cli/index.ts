import { quietOnBrokenPipe } from './broken-pipe';
import { runCli } from './run-cli';

quietOnBrokenPipe();
process.exitCode = await runCli(process.argv.slice(2));
