/** How a profile proves who it is. Secrets travel only from the keychain to this client, never further. */
export type Credentials =
  | { kind: 'service_account'; clientId: string; clientSecret: string }
  | { kind: 'password'; username: string; password: string }
  | { kind: 'api_key'; apiKey: string };
