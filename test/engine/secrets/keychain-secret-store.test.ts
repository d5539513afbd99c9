import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { findCredentialsAsync } from '@napi-rs/keyring';
import { skipBecause } from '../../support/skips';
import { KEYCHAIN_SERVICE, KeychainSecretStore, openSecretStore, probeKeychain } from '../../../electron/engine/secrets';

const probe = await probeKeychain();
const skipped = skipBecause(
  'the real keychain tests',
  probe.ok ? null : `no Secret Service is reachable (${probe.reason}); run them inside a D-Bus session with an unlocked gnome-keyring`,
);

describe.skipIf(skipped)('KeychainSecretStore against the real OS keychain', () => {
  it('sets, gets, overwrites and deletes a secret', async () => {
    const store = new KeychainSecretStore();
    const account = `test-${randomUUID()}`;
    try {
      expect(store.kind).toBe('keychain');
      expect(await store.get(account)).toBeNull();
      await store.set(account, 'first secret');
      expect(await store.get(account)).toBe('first secret');
      await store.set(account, 'sëcond sécret ✓ with spaces and "quotes"');
      expect(await store.get(account)).toBe('sëcond sécret ✓ with spaces and "quotes"');
      expect(await store.delete(account)).toBe(true);
      expect(await store.get(account)).toBeNull();
      expect(await store.delete(account)).toBe(false);
    } finally {
      await store.delete(account).catch(() => false);
    }
  });

  it('keeps accounts apart and files them under the matchdesk service only', async () => {
    const a = `test-${randomUUID()}`;
    const b = `test-${randomUUID()}`;
    const store = new KeychainSecretStore();
    const elsewhere = new KeychainSecretStore('matchdesk-test-other-service');
    try {
      await store.set(a, 'secret a');
      await store.set(b, 'secret b');
      expect(await store.get(a)).toBe('secret a');
      expect(await store.get(b)).toBe('secret b');
      expect(await elsewhere.get(a)).toBeNull();
    } finally {
      await store.delete(a).catch(() => false);
      await store.delete(b).catch(() => false);
    }
  });

  it('probes without leaving its test entry behind', async () => {
    expect(await probeKeychain()).toEqual({ ok: true });
    const leftovers = (await findCredentialsAsync(KEYCHAIN_SERVICE)).filter((c) => c.account.startsWith('probe-'));
    expect(leftovers).toEqual([]);
  });

  it('opens the keychain store when the probe passes, with or without the session fallback', async () => {
    expect((await openSecretStore()).kind).toBe('keychain');
    expect((await openSecretStore({ allowSessionFallback: true })).kind).toBe('keychain');
  });
});
