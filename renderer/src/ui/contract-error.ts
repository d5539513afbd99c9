import { ERROR_KINDS, type ContractError, type ErrorKind } from '../../../shared/contract';

function isErrorKind(value: unknown): value is ErrorKind {
  return typeof value === 'string' && (ERROR_KINDS as readonly string[]).includes(value);
}

export function isContractError(value: unknown): value is ContractError {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as Partial<ContractError>;
  return isErrorKind(candidate.kind) && typeof candidate.message === 'string';
}

/** Whatever a call threw, as the contract's error value (ContractCallError carries it in `.error`). */
export function toContractError(thrown: unknown): ContractError {
  if (isContractError(thrown)) return thrown;
  if (typeof thrown === 'object' && thrown !== null && 'error' in thrown && isContractError(thrown.error)) return thrown.error;
  if (thrown instanceof Error) return { kind: 'internal', message: thrown.message || 'Something went wrong.' };
  return { kind: 'internal', message: String(thrown) };
}

/** What the user can do next, where the message alone may not say it. */
export function errorHint(error: ContractError): string | null {
  switch (error.kind) {
    case 'login_failed':
      return 'Check the login and secret of the profile in Account, then try again.';
    case 'forbidden':
      return 'The account lacks access to this organization. Ask its admin for the role, or pick another profile.';
    case 'payment_required':
      return 'The organization is out of credits. Everything fetched so far is kept; add credits, then continue.';
    case 'keychain_unavailable':
      return 'The system keychain cannot be used. Keep the secret for this session only instead.';
    case 'offline':
      return 'The service cannot be reached. Check the connection, or run offline with cached answers.';
    case 'busy':
      return 'Another task is still working on this. Wait for it to finish, then try again.';
    case 'not_found':
      return 'It may have been deleted. Go back to Projects to pick another.';
    case 'database':
      // A full disk's message names the folder and what to do already.
      return error.code === 'disk_full' ? null : 'The local data file could not be used. See Settings for where it lives.';
    default:
      return null;
  }
}

export function errorTitle(error: ContractError): string {
  if (error.code === 'disk_full') return 'The disk is full';
  switch (error.kind) {
    case 'sheet':
      return 'The file could not be read';
    case 'invalid_input':
      return 'Please check the input';
    case 'not_found':
      return 'Not found';
    case 'login_failed':
      return 'Login failed';
    case 'forbidden':
      return 'Access denied';
    case 'payment_required':
      return 'Out of credits';
    case 'keychain_unavailable':
      return 'Keychain unavailable';
    case 'offline':
      return 'Offline';
    case 'service':
      return 'The service answered with an error';
    case 'busy':
      return 'Busy';
    case 'cancelled':
      return 'Cancelled';
    default:
      return 'Something went wrong';
  }
}
