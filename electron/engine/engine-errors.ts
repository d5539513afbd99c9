import type { ContractError, ErrorKind } from '../../shared/contract';

/** An error the engine raises on purpose: its message is written for the user and crosses the contract as is. */
export class EngineError extends Error {
  constructor(
    readonly kind: ErrorKind,
    message: string,
    readonly code?: string,
  ) {
    super(message);
    this.name = 'EngineError';
  }
}

export function notFound(what: string): EngineError {
  return new EngineError('not_found', `${what} was not found. It may have been deleted.`);
}

/** Maps any thrown value to a plain ContractError; modules register how their own typed errors map. */
export type ErrorMapper = (err: unknown) => ContractError | null;

export function toContractError(err: unknown, mappers: ErrorMapper[]): ContractError {
  if (err instanceof EngineError) return { kind: err.kind, message: err.message, ...(err.code ? { code: err.code } : {}) };
  for (const map of mappers) {
    const mapped = map(err);
    if (mapped) return mapped;
  }
  const message = err instanceof Error ? err.message : String(err);
  return { kind: 'internal', message: `Something went wrong inside Matchdesk: ${message}` };
}
