import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { skipBecause } from '../../support/skips';

const skipped = skipBecause('the no-session-bus keychain test', process.platform === 'linux' ? null : 'only Linux reaches its keychain over D-Bus');

describe.skipIf(skipped)('the keychain without a D-Bus session bus', () => {
  it('reports KeychainUnavailable, never the secret, and falls back to the session store only when allowed', () => {
    const secret = `sk-live-${Math.random().toString(36).slice(2)}-do-not-leak`;
    // An empty runtime folder too: libdbus would otherwise find a bus at $XDG_RUNTIME_DIR/bus.
    const runtime = mkdtempSync(join(tmpdir(), 'matchdesk-nobus-'));
    const env: NodeJS.ProcessEnv = { ...process.env, XDG_RUNTIME_DIR: runtime };
    delete env.DBUS_SESSION_BUS_ADDRESS;
    delete env.DISPLAY;
    try {
      const child = spawnSync(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'keychain-without-bus.child.ts'), secret], {
        env,
        encoding: 'utf8',
        timeout: 20_000,
      });
      expect(child.stderr).not.toContain(secret);
      expect(child.status, child.stderr).toBe(0);
      expect(child.stdout).not.toContain(secret);
      const report = JSON.parse(child.stdout);

      expect(report.probe.ok).toBe(false);
      expect(report.probe.reason).toEqual(expect.any(String));
      expect(report.set.name).toBe('KeychainUnavailable');
      expect(report.set.message).toMatch(/OS keychain could not be reached while saving the secret for profile "profile-1"/);
      expect(report.set.message).toMatch(/session only/);
      expect(report.open.name).toBe('KeychainUnavailable');
      expect(report.fallbackKind).toBe('session');
    } finally {
      rmSync(runtime, { recursive: true, force: true });
    }
  });
});
