// How the engine's modules' typed errors cross the contract, in words the user can act on.
import type { ContractError } from '../../../shared/contract';
import { ServiceError } from '../api';
import type { ErrorMapper } from '../engine-errors';
import { ExportError } from '../export';
import { KeychainUnavailable } from '../secrets';
import { SheetError } from '../sheets';
import { DatabaseNeedsUpgrade, DatabaseTooNew, DatabaseUnreadable, InvalidSetting, MigrationFailed, isDiskFull } from '../store';

export const mapKnownErrors: ErrorMapper = (err): ContractError | null => {
  if (err instanceof SheetError) return { kind: 'sheet', message: err.message, code: err.code };
  if (err instanceof ServiceError) {
    switch (err.kind) {
      case 'login_failed':
      case 'unauthorized':
        return { kind: 'login_failed', message: err.message, code: err.kind };
      case 'forbidden':
        return { kind: 'forbidden', message: err.message, code: '403' };
      case 'payment_required':
        return { kind: 'payment_required', message: err.message, code: '402' };
      case 'cancelled':
        return { kind: 'cancelled', message: err.message };
      default:
        return { kind: 'service', message: err.message, code: err.status === undefined ? err.kind : String(err.status) };
    }
  }
  if (err instanceof KeychainUnavailable) return { kind: 'keychain_unavailable', message: err.message };
  if (err instanceof DatabaseTooNew || err instanceof DatabaseUnreadable || err instanceof DatabaseNeedsUpgrade || err instanceof MigrationFailed) {
    return { kind: 'database', message: err.message, code: err.name };
  }
  if (err instanceof InvalidSetting) return { kind: 'invalid_input', message: err.message };
  if (err instanceof ExportError) return { kind: 'invalid_input', message: err.message, code: `export_${err.code}` };
  return null;
};

/** A write the disk had no room for: which folder, and that what was saved before stays (each write is a transaction). */
export function diskFullIn(dataDir: string): ErrorMapper {
  return (err) => {
    if (!isDiskFull(err)) return null;
    const message = `The disk holding Matchdesk's data (${dataDir}) is full. Free some space on it, then try again: nothing saved before is lost.`;
    return { kind: 'database', message, code: 'disk_full' };
  };
}
