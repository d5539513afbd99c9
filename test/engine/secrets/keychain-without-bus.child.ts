// Run by keychain-without-bus.test.ts in a child process whose environment has no D-Bus session bus.
import { KeychainSecretStore, KeychainUnavailable, openSecretStore, probeKeychain } from '../../../electron/engine/secrets';

const secret = process.argv[2];
const outcome = (error: unknown) =>
  error instanceof KeychainUnavailable ? { name: error.name, message: error.message } : { name: 'unexpected', message: String(error) };

const report: Record<string, unknown> = {};
report.probe = await probeKeychain();
try {
  await new KeychainSecretStore().set('profile-1', secret);
  report.set = { name: 'resolved', message: '' };
} catch (error) {
  report.set = outcome(error);
}
try {
  await openSecretStore();
  report.open = { name: 'resolved', message: '' };
} catch (error) {
  report.open = outcome(error);
}
report.fallbackKind = (await openSecretStore({ allowSessionFallback: true })).kind;
process.stdout.write(JSON.stringify(report));
