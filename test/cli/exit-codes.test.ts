import { describe, expect, it } from 'vitest';
import { EXIT_CODES, exitCodeFor } from '../../electron/cli/exit-codes';
import { failedRowsLine, stoppedRunExitCode } from '../../electron/cli/failed-rows';
import type { FailedQuery } from '../../shared/contract';

describe('exit codes', () => {
  it('gives each kind of engine failure the code a script branches on', () => {
    expect(exitCodeFor({ kind: 'invalid_input' })).toBe(EXIT_CODES.usage);
    expect(exitCodeFor({ kind: 'invalid_input', code: 'no_profile' })).toBe(EXIT_CODES.credentials);
    expect(exitCodeFor({ kind: 'login_failed', code: 'login_failed' })).toBe(EXIT_CODES.credentials);
    expect(exitCodeFor({ kind: 'forbidden', code: '403' })).toBe(EXIT_CODES.credentials);
    expect(exitCodeFor({ kind: 'service', code: 'network_error' })).toBe(EXIT_CODES.unreachable);
    expect(exitCodeFor({ kind: 'service', code: '503' })).toBe(EXIT_CODES.serviceFailed);
    expect(exitCodeFor({ kind: 'payment_required', code: '402' })).toBe(EXIT_CODES.serviceFailed);
    expect(exitCodeFor({ kind: 'sheet', code: 'header_only' })).toBe(EXIT_CODES.failed);
  });

  it('keeps one code per meaning', () => {
    const codes = Object.values(EXIT_CODES);
    expect(new Set(codes).size).toBe(codes.length);
  });
});

describe('the failed-rows line', () => {
  const failure = (error: string, rows: number, errorKind: string | null = 'server_error'): FailedQuery => ({ queryId: rows, strategy: 'email', terms: '', error, errorKind, rows });

  it('names the count and the one reason, on one line', () => {
    expect(failedRowsLine(3, [failure('The service failed\nwith HTTP 503.', 2), failure('The service failed with HTTP 503.', 1)])).toBe(
      '3 rows ended in error: The service failed with HTTP 503.',
    );
  });

  it('names the commonest of several reasons and where the rest are', () => {
    expect(failedRowsLine(5, [failure('A.', 1), failure('B.', 4)])).toBe("5 rows ended in error, for 2 reasons (each row's is in the match_error column); the commonest, for 4 rows: B.");
  });

  it('tells refused credentials and an unreachable service from a service that answered badly', () => {
    expect(stoppedRunExitCode(undefined, [failure('x', 1, 'network_error')])).toBe(EXIT_CODES.unreachable);
    expect(stoppedRunExitCode(undefined, [failure('x', 1, 'network_error'), failure('y', 1)])).toBe(EXIT_CODES.serviceFailed);
    expect(stoppedRunExitCode(undefined, [])).toBe(EXIT_CODES.serviceFailed);
    expect(stoppedRunExitCode('network_error', [])).toBe(EXIT_CODES.unreachable);
    for (const kind of ['unauthorized', 'forbidden', 'login_failed']) expect(stoppedRunExitCode(kind, [failure('y', 1)]), kind).toBe(EXIT_CODES.credentials);
    for (const kind of ['server_error', 'not_found', 'unexpected_status']) expect(stoppedRunExitCode(kind, [failure('x', 1, 'network_error')]), kind).toBe(EXIT_CODES.serviceFailed);
  });
});
