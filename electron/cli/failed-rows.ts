import type { FailedQuery } from '../../shared/contract';
import { EXIT_CODES, type ExitCode } from './exit-codes';

/**
 * One line for a person or a script's log: how many rows ended in error and why, the commonest reason first.
 * The service's messages are sentences; folded onto one line so the line stays one line.
 */
export function failedRowsLine(errorRows: number, failures: FailedQuery[]): string {
  const rowsByReason = new Map<string, number>();
  for (const failure of failures) {
    const reason = failure.error.replace(/\s+/g, ' ').trim();
    rowsByReason.set(reason, (rowsByReason.get(reason) ?? 0) + failure.rows);
  }
  const reasons = [...rowsByReason].sort((a, b) => b[1] - a[1]);
  const head = `${errorRows} ${errorRows === 1 ? 'row' : 'rows'} ended in error`;
  const [commonest] = reasons;
  if (!commonest) return `${head}; each row's reason is in the match_error column.`;
  if (reasons.length === 1) return `${head}: ${commonest[0]}`;
  return `${head}, for ${reasons.length} reasons (each row's is in the match_error column); the commonest, for ${commonest[1]} ${commonest[1] === 1 ? 'row' : 'rows'}: ${commonest[0]}`;
}

/**
 * The exit code of a run the service stopped part-way: by the kind of failure that stopped it (`stopKind`), else by
 * its rows' failures: the credentials or the organization refused, the service out of reach, or else the service
 * failing.
 */
export function stoppedRunExitCode(stopKind: string | undefined, failures: FailedQuery[]): ExitCode {
  if (stopKind === 'unauthorized' || stopKind === 'forbidden' || stopKind === 'login_failed') return EXIT_CODES.credentials;
  if (stopKind !== undefined) return stopKind === 'network_error' ? EXIT_CODES.unreachable : EXIT_CODES.serviceFailed;
  if (failures.length > 0 && failures.every((failure) => failure.errorKind === 'network_error')) return EXIT_CODES.unreachable;
  return EXIT_CODES.serviceFailed;
}
