import { KeychainUnavailable } from './errors';
import { KeychainSecretStore } from './keychain-secret-store';
import { probeKeychain } from './probe-keychain';
import type { SecretStore } from './secret-store';
import { SessionSecretStore } from './session-secret-store';

/**
 * The OS keychain when it works here; otherwise the in-memory session store if the caller allows it
 * (the user chose "keep it for this session"), else KeychainUnavailable. Never a plain-text file.
 */
export async function openSecretStore(opts: { allowSessionFallback?: boolean; service?: string } = {}): Promise<SecretStore> {
  const probe = await probeKeychain({ service: opts.service });
  if (probe.ok) return new KeychainSecretStore(opts.service);
  if (opts.allowSessionFallback) return new SessionSecretStore();
  throw new KeychainUnavailable('probe', probe.reason);
}
