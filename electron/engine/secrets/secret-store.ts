/** Where profile secrets live, keyed by account (the profile id). Secrets never go to SQLite, logs or errors. */
export interface SecretStore {
  get(account: string): Promise<string | null>;
  set(account: string, secret: string): Promise<void>;
  /** True when a secret was there to delete. */
  delete(account: string): Promise<boolean>;
  readonly kind: 'keychain' | 'session';
}

/** The OS keychain service every Matchdesk secret is filed under. */
export const KEYCHAIN_SERVICE = 'matchdesk';
