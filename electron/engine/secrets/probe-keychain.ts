import { randomBytes, randomUUID } from 'node:crypto';
import { KeychainUnavailable } from './errors';
import { KeychainSecretStore } from './keychain-secret-store';
import { KEYCHAIN_SERVICE } from './secret-store';
import { within } from '../within';

export type KeychainProbe = { ok: true } | { ok: false; reason: string };

/**
 * Writes, reads back and deletes a throwaway entry: the only reliable test, since on Linux reads of a
 * missing entry can succeed while writes are refused.
 */
export async function probeKeychain(opts: { service?: string; timeoutMs?: number } = {}): Promise<KeychainProbe> {
  const store = new KeychainSecretStore(opts.service ?? KEYCHAIN_SERVICE);
  const account = `probe-${randomUUID()}`;
  const value = randomBytes(16).toString('hex');
  const check = async (): Promise<KeychainProbe> => {
    try {
      await store.set(account, value);
      const read = await store.get(account);
      const deleted = await store.delete(account);
      if (read !== value) return { ok: false, reason: 'the keychain accepted a test entry but returned something else when read back' };
      if (!deleted) return { ok: false, reason: 'the keychain could not delete a test entry it had just stored' };
      return { ok: true };
    } catch (error) {
      await store.delete(account).catch(() => false);
      return { ok: false, reason: error instanceof KeychainUnavailable ? error.reason : String(error) };
    }
  };
  // A Secret Service that never answers (a stuck daemon, an unlock prompt nobody sees) must not hang startup.
  const timeoutMs = opts.timeoutMs ?? 10_000;
  return within(check(), timeoutMs, { ok: false, reason: `the OS keychain did not answer within ${Math.round(timeoutMs / 1000)} s` } satisfies KeychainProbe);
}
