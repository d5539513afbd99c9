import type { ContractError } from '../../shared/contract';

/** A failure the CLI reports as one plain line and a non-zero exit code (2 = usage, 1 = anything else). */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
    this.name = 'CliError';
  }

  static usage(message: string): CliError {
    return new CliError(`${message}\nRun the command with --help to see its options.`, 2);
  }

  static fromContract(error: ContractError): CliError {
    return new CliError(error.message, error.kind === 'invalid_input' ? 2 : 1);
  }
}
