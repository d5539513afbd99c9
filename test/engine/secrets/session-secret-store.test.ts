import { describe, expect, it } from 'vitest';
import { SessionSecretStore } from '../../../electron/engine/secrets';

describe('SessionSecretStore', () => {
  it('keeps secrets in memory: set, get, overwrite, delete', async () => {
    const store = new SessionSecretStore();
    expect(store.kind).toBe('session');
    expect(await store.get('p1')).toBeNull();
    await store.set('p1', 'first');
    await store.set('p2', 'other');
    expect(await store.get('p1')).toBe('first');
    await store.set('p1', 'second');
    expect(await store.get('p1')).toBe('second');
    expect(await store.delete('p1')).toBe(true);
    expect(await store.delete('p1')).toBe(false);
    expect(await store.get('p1')).toBeNull();
    expect(await store.get('p2')).toBe('other');
  });

  it('forgets everything with the session: a new store starts empty', async () => {
    await new SessionSecretStore().set('p1', 'secret');
    expect(await new SessionSecretStore().get('p1')).toBeNull();
  });
});
