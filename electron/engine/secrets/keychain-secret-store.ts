import { AsyncEntry, type EntryOptions } from '@napi-rs/keyring';
import { KeychainUnavailable, type KeychainOperation } from './errors';
import { KEYCHAIN_SERVICE, type SecretStore } from './secret-store';

// Pinned to the Secret Service on Linux: the library's fallback, the kernel keyring, forgets everything at
// logout, so a secret "saved" there would silently vanish. Without a Secret Service the user is offered the
// session store instead.
const entryOptions: EntryOptions = { linux: { store: 'secret-service' } };

/** Secrets in the OS keychain: macOS Keychain, Windows Credential Manager, the Linux Secret Service. */
export class KeychainSecretStore implements SecretStore {
  readonly kind = 'keychain';

  constructor(private readonly service: string = KEYCHAIN_SERVICE) {}

  get(account: string): Promise<string | null> {
    return this.attempt('read', account, null, (entry) => entry.getPassword());
  }

  set(account: string, secret: string): Promise<void> {
    return this.attempt('save', account, secret, (entry) => entry.setPassword(secret));
  }

  delete(account: string): Promise<boolean> {
    return this.attempt('delete', account, null, (entry) => entry.deleteCredential());
  }

  private async attempt<T>(operation: KeychainOperation, account: string, secret: string | null, run: (entry: AsyncEntry) => Promise<T>): Promise<T> {
    try {
      // The constructor already talks to the platform (D-Bus on Linux), so it fails like the calls do.
      return await run(new AsyncEntry(this.service, account, entryOptions));
    } catch (error) {
      throw new KeychainUnavailable(operation, platformReason(error, secret), account);
    }
  }
}

/** The platform's own words, minus the secret in case a backend ever echoes it. */
function platformReason(error: unknown, secret: string | null): string {
  let text = error instanceof Error ? error.message : String(error);
  if (secret) text = text.split(secret).join('[secret]');
  text = text.replace(/\s+/g, ' ').trim().replace(/\.$/, '');
  return text || 'no reason given';
}
