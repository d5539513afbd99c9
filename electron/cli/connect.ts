import type { CallName, CallInput, CallOutput } from '../../shared/contract';
import type { CredentialKind, Profile } from '../../shared/model';
import { createEngine, type Engine } from '../engine/engine';
import { defaultDataDir } from '../engine/data-dir';
import { openSecretStore, SessionSecretStore, type SecretStore } from '../engine/secrets';
import { CliError } from './cli-error';

/** The profile id under which a connection taken from MATCHDESK_* variables is kept (its secret only in memory). */
export const ENV_PROFILE_ID = 'env';

export interface CliSession {
  engine: Engine;
  /** Calls the contract and unwraps the result, turning a ContractError into a CliError. */
  call<K extends CallName>(name: K, input: CallInput<K>): Promise<CallOutput<K>>;
  close(): Promise<void>;
}

export async function openCliSession(opts: { needsKeychain?: boolean } = {}): Promise<CliSession> {
  const dataDir = process.env.MATCHDESK_HOME || defaultDataDir();
  const session = new SessionSecretStore();
  const keychain = await openSecretStore({ allowSessionFallback: !opts.needsKeychain });
  const engine = await createEngine({ dataDir, host: 'cli', secrets: layered(session, keychain) });
  const call = async <K extends CallName>(name: K, input: CallInput<K>): Promise<CallOutput<K>> => {
    const result = await engine.call(name, input);
    if (!result.ok) throw CliError.fromContract(result.error);
    return result.value as CallOutput<K>;
  };
  await connectFromEnvironment(session, call);
  return { engine, call, close: () => engine.close() };
}

/** Picks `--profile ID` when given; the environment's connection wins over the saved active profile otherwise. */
export async function selectProfile(cli: CliSession, profileId: string | undefined): Promise<Profile> {
  const profiles = await cli.call('profiles.list', {});
  const wanted = profileId ?? (process.env.MATCHDESK_BASE_URL ? ENV_PROFILE_ID : (await cli.call('settings.get', {})).activeProfileId);
  const profile = profiles.find((p) => p.id === wanted);
  if (!profile) {
    if (profileId) throw new CliError(`No saved profile "${profileId}". Saved: ${profiles.map((p) => p.id).join(', ') || 'none'}.`);
    throw new CliError(
      'No connection: run "matchdesk login" first, or set MATCHDESK_BASE_URL, MATCHDESK_ORG_ID and credentials (see --help).',
    );
  }
  await cli.call('profiles.select', { id: profile.id });
  return profile;
}

async function connectFromEnvironment(
  session: SecretStore,
  call: <K extends CallName>(name: K, input: CallInput<K>) => Promise<CallOutput<K>>,
): Promise<void> {
  const env = process.env;
  if (!env.MATCHDESK_BASE_URL) return;
  if (!env.MATCHDESK_ORG_ID) throw new CliError('MATCHDESK_BASE_URL is set but MATCHDESK_ORG_ID is not.');
  const credential = credentialFromEnvironment();
  await session.set(ENV_PROFILE_ID, credential.secret);
  await call('profiles.save', {
    id: ENV_PROFILE_ID,
    name: 'From environment',
    baseUrl: env.MATCHDESK_BASE_URL,
    orgId: env.MATCHDESK_ORG_ID,
    kind: credential.kind,
    login: credential.login,
  });
}

function credentialFromEnvironment(): { kind: CredentialKind; login: string | null; secret: string } {
  const env = process.env;
  if (env.MATCHDESK_CLIENT_ID && env.MATCHDESK_CLIENT_SECRET) {
    return { kind: 'service_account', login: env.MATCHDESK_CLIENT_ID, secret: env.MATCHDESK_CLIENT_SECRET };
  }
  if (env.MATCHDESK_USERNAME && env.MATCHDESK_PASSWORD) {
    return { kind: 'password', login: env.MATCHDESK_USERNAME, secret: env.MATCHDESK_PASSWORD };
  }
  if (env.MATCHDESK_API_KEY) return { kind: 'api_key', login: null, secret: env.MATCHDESK_API_KEY };
  throw new CliError(
    'MATCHDESK_BASE_URL is set but no credentials are: set MATCHDESK_CLIENT_ID and MATCHDESK_CLIENT_SECRET, ' +
      'MATCHDESK_USERNAME and MATCHDESK_PASSWORD, or MATCHDESK_API_KEY.',
  );
}

/** Secrets given for this process only (the environment's) are looked up first, then the OS keychain. */
function layered(session: SecretStore, persistent: SecretStore): SecretStore {
  return {
    kind: persistent.kind,
    async get(account) {
      return (await session.get(account)) ?? persistent.get(account);
    },
    async set(account, secret) {
      if ((await session.get(account)) !== null) return session.set(account, secret);
      return persistent.set(account, secret);
    },
    async delete(account) {
      const fromSession = await session.delete(account);
      const fromPersistent = await persistent.delete(account);
      return fromSession || fromPersistent;
    },
  };
}
