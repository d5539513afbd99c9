import type { SecretStore } from './secret-store';

/** Secrets kept in memory for this session only: what the user may choose when no keychain works here. */
export class SessionSecretStore implements SecretStore {
  readonly kind = 'session';
  private readonly secrets = new Map<string, string>();

  async get(account: string): Promise<string | null> {
    return this.secrets.get(account) ?? null;
  }

  async set(account: string, secret: string): Promise<void> {
    this.secrets.set(account, secret);
  }

  async delete(account: string): Promise<boolean> {
    return this.secrets.delete(account);
  }
}
