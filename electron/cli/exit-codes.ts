import type { ContractError } from '../../shared/contract';

/**
 * What `matchdesk` exits with: one code per kind of outcome, the same for every command that talks to the
 * service (match, search, and any that comes after them), so a script can branch on it. `--help` and the README
 * list them from EXIT_CODE_HELP.
 */
export const EXIT_CODES = {
  ok: 0,
  /** Anything not named below: a file that cannot be read or written, a damaged database, a bug. */
  failed: 1,
  /** The command line is wrong: an unknown option, a --map column the sheet does not have, a sheet with nothing to look anyone up by, filters that make no sense. */
  usage: 2,
  /** The service stopped the work part-way (out of credits, or it kept failing); what landed is kept, to resume. */
  serviceFailed: 3,
  /** No connection is set up, the service refused the credentials, or the account may not use the organization. */
  credentials: 4,
  /** The service could not be reached: connection refused, unknown host, no answer. */
  unreachable: 5,
  /** The work finished, but some rows ended in error: the output is written, each such row's reason in match_error. */
  rowsFailed: 6,
  /** Stopped by Ctrl-C (or SIGTERM): everything that landed is kept; an import, plan, export or accept cancelled so leaves nothing half-made. */
  interrupted: 130,
} as const;

export type ExitCode = (typeof EXIT_CODES)[keyof typeof EXIT_CODES];

const EXIT_CODE_LINES: [ExitCode, string][] = [
  [EXIT_CODES.ok, 'done'],
  [EXIT_CODES.failed, 'any other failure (a file that cannot be read or written, ...)'],
  [EXIT_CODES.usage, 'wrong usage: an unknown option, a --map column the sheet does not have, a sheet with nothing to look anyone up by, bad filters'],
  [EXIT_CODES.serviceFailed, 'the service stopped the work part-way (out of credits, or it kept failing); resume later'],
  [EXIT_CODES.credentials, 'no connection set up, credentials refused, or no access to the organization'],
  [EXIT_CODES.unreachable, 'the service could not be reached (connection refused, unknown host, no answer)'],
  [EXIT_CODES.rowsFailed, 'finished, but some rows ended in error (their reasons are in the match_error column)'],
  [EXIT_CODES.interrupted, 'stopped with Ctrl-C; what landed is kept; an import, plan, export or accept cancelled so leaves nothing half-made'],
];

/** The exit codes as `--help` shows them. */
export const EXIT_CODE_HELP = `Exit codes:\n${EXIT_CODE_LINES.map(([code, meaning]) => `  ${String(code).padStart(3)}  ${meaning}`).join('\n')}\n`;

/** The exit code of a failure the engine reported. */
export function exitCodeFor(error: Pick<ContractError, 'kind' | 'code'>): ExitCode {
  switch (error.kind) {
    case 'invalid_input':
      // "No connection is selected" comes as invalid input, but what is missing is a connection, not an argument.
      return error.code === 'no_profile' ? EXIT_CODES.credentials : EXIT_CODES.usage;
    case 'login_failed':
    case 'forbidden':
    case 'keychain_unavailable':
      return EXIT_CODES.credentials;
    case 'payment_required':
      return EXIT_CODES.serviceFailed;
    case 'service':
      return error.code === 'network_error' ? EXIT_CODES.unreachable : EXIT_CODES.serviceFailed;
    case 'cancelled':
      return EXIT_CODES.interrupted;
    default:
      return EXIT_CODES.failed;
  }
}
