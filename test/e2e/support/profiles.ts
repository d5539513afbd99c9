// A connection profile made and selected over the contract, for specs whose subject is what comes after it.
import { DEMO_ACCOUNTS, DEMO_ORG_ID } from '../../../electron/simulator';
import type { RunningHost } from './web-host';

/** Saves an API-key profile for a simulator (or any address) and selects it; its secret stays in memory where no keychain is usable. */
export async function selectSimulatorProfile(app: RunningHost, name: string, baseUrl: string): Promise<void> {
  const info = await app.value('app.info', {});
  const profile = await app.value('profiles.save', {
    name,
    baseUrl,
    orgId: DEMO_ORG_ID,
    kind: 'api_key',
    login: null,
    secret: DEMO_ACCOUNTS.apiKey,
    ...(info.secrets === 'session' ? { sessionOnly: true } : {}),
  });
  await app.value('profiles.select', { id: profile.id });
}
