// What opening the engine does before anything else: the data folder made private, the secret store chosen.
import { KeychainSecretStore, SessionSecretStore, probeKeychain, type SecretStore } from '../secrets';
import { makeDataFolderPrivate } from '../store';

export function makePrivate(dataDir: string): string | null {
  try {
    return makeDataFolderPrivate(dataDir);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`Matchdesk could not make its data folder "${dataDir}" private (${reason}). Check that the folder is yours and that you may change it.`, { cause: error });
  }
}

export async function defaultSecrets(): Promise<{ secrets: SecretStore; keychainProblem: string | null }> {
  const probe = await probeKeychain();
  return probe.ok ? { secrets: new KeychainSecretStore(), keychainProblem: null } : { secrets: new SessionSecretStore(), keychainProblem: probe.reason };
}
