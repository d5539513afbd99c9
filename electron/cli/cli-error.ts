import type { ContractError } from '../../shared/contract';
import { EXIT_CODES, exitCodeFor, type ExitCode } from './exit-codes';

/** A failure the CLI reports as one plain line and the exit code of its kind (exit-codes.ts). */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: ExitCode = EXIT_CODES.failed,
  ) {
    super(message);
    this.name = 'CliError';
  }

  static usage(message: string): CliError {
    return new CliError(`${message}\nRun the command with --help to see its options.`, EXIT_CODES.usage);
  }

  static fromContract(error: ContractError): CliError {
    return new CliError(error.message, exitCodeFor(error));
  }
}
