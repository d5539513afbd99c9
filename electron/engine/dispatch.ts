import { z } from 'zod';
import {
  calls,
  isCallName,
  type CallName,
  type CallOutput,
  type CallParsedInput,
  type CallResult,
  type ContractError,
} from '../../shared/contract';
import { toContractError, type ErrorMapper } from './engine-errors';

export type Handlers = { [K in CallName]?: (input: CallParsedInput<K>) => Promise<CallOutput<K>> | CallOutput<K> };

/**
 * Every call from every host lands here: the name is checked, the input parsed with its contract schema, and any
 * failure comes back as a plain ContractError. Nothing a sender passes reaches a handler unparsed.
 */
export async function dispatch(handlers: Handlers, mappers: ErrorMapper[], name: unknown, input: unknown): Promise<CallResult<CallName>> {
  if (!isCallName(name)) return failure({ kind: 'invalid_input', message: `Unknown call ${describeName(name)}.` });
  const parsed = calls[name].input.safeParse(input ?? {});
  if (!parsed.success) return failure({ kind: 'invalid_input', message: describeIssues(parsed.error) });
  const handler = handlers[name] as ((input: unknown) => Promise<unknown>) | undefined;
  if (!handler) return failure({ kind: 'invalid_input', message: `"${name}" is not available in this host.` });
  try {
    return { ok: true, value: (await handler(parsed.data)) as CallOutput<CallName> };
  } catch (err) {
    return failure(toContractError(err, mappers));
  }
}

/** A sender's bad name, told safely: it may be any value, even one whose toString throws. */
function describeName(name: unknown): string {
  return typeof name === 'string' ? `"${name.slice(0, 80)}"` : `(a ${name === null ? 'null' : typeof name}, not a call name)`;
}

function failure(error: ContractError): CallResult<CallName> {
  return { ok: false, error };
}

function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 5)
    .map((issue) => (issue.path.length ? `${issue.path.join('.')}: ${issue.message}` : issue.message))
    .join('; ');
}
