import type { CallName, CallInput, CallOutput } from '../../shared/contract';
import type { CredentialKind, Profile } from '../../shared/model';
import { createEngine, type Engine } from '../engine/engine';
import { defaultDataDir } from '../engine/data-dir';
import { openSecretStore } from '../engine/secrets';
import { CliError } from './cli-error';
import { EXIT_CODES } from './exit-codes';
import { startProgressLine } from './start-progress';

/** The name of the profile under which a connection taken from MATCHDESK_* variables is kept (its secret only in memory). */
export const ENV_PROFILE_NAME = 'From environment';

export interface CliSession {
  engine: Engine;
  /** The profile made from MATCHDESK_* variables, when they are set. */
  envProfileId: string | null;
  /** Calls the contract and unwraps the result, turning a ContractError into a CliError. */
  call<K extends CallName>(name: K, input: CallInput<K>): Promise<CallOutput<K>>;
  close(): Promise<void>;
}

export async function openCliSession(opts: { needsKeychain?: boolean } = {}): Promise<CliSession> {
  const dataDir = process.env.MATCHDESK_HOME || defaultDataDir();
  const secrets = await openSecretStore({ allowSessionFallback: !opts.needsKeychain });
  // Ctrl+C while an older data folder is brought up to this version ends the process: the next start goes on from the
  // last slice done (store/migrate.ts).
  const progress = startProgressLine();
  const engine = await createEngine({ dataDir, host: 'cli', secrets, onStartProgress: (p) => progress.show(p) }).finally(() => progress.end());
  if (engine.privacyNotice) process.stderr.write(`matchdesk: ${engine.privacyNotice}\n`);
  const call = async <K extends CallName>(name: K, input: CallInput<K>): Promise<CallOutput<K>> => {
    const result = await engine.call(name, input);
    if (!result.ok) throw CliError.fromContract(result.error);
    return result.value as CallOutput<K>;
  };
  const envProfileId = await connectFromEnvironment(call);
  return { engine, envProfileId, call, close: () => engine.close() };
}

/**
 * Picks `--profile ID` when given; the environment's connection wins over the saved active profile otherwise. The
 * choice is this command's alone: the profile the app and the browser host use stays as the user last chose it.
 */
export async function selectProfile(cli: CliSession, profileId: string | undefined): Promise<Profile> {
  const profiles = await cli.call('profiles.list', {});
  const wanted = profileId ?? cli.envProfileId ?? (await cli.call('settings.get', {})).activeProfileId;
  const profile = profiles.find((p) => p.id === wanted);
  if (!profile) {
    if (profileId) throw new CliError(`No saved profile "${profileId}". Saved: ${profiles.map((p) => p.id).join(', ') || 'none'}.`, EXIT_CODES.credentials);
    throw new CliError(
      'No connection: run "matchdesk login" first, or set MATCHDESK_BASE_URL, MATCHDESK_ORG_ID and credentials (see --help).',
      EXIT_CODES.credentials,
    );
  }
  await cli.call('profiles.select', { id: profile.id, forThisSession: true });
  return profile;
}

/**
 * Logs in once and asks the organization for nothing (a count-only search; for an API key, one lookup that cannot
 * match anyone) before anything is imported or written: refused credentials, a wrong organization or an unreachable
 * service stop the command with nothing made, even when every answer would come from the cache and no other call
 * would show them wrong.
 */
export async function checkConnection(cli: CliSession, profile: Profile): Promise<void> {
  const test = await cli.call('profiles.test', { id: profile.id });
  if (test.ok) return;
  const error = test.error ?? { kind: 'internal' as const, message: test.reason ?? 'The connection test failed without a reason.' };
  const message = `Cannot use the connection "${profile.name}" (${profile.baseUrl}): ${error.message} Nothing was imported or written.`;
  // Nothing at the organization's address: an organization id (or base URL) this account cannot use.
  if (error.kind === 'service' && error.code === '404') throw new CliError(message, EXIT_CODES.credentials);
  throw CliError.fromContract({ ...error, message });
}

/**
 * Saves (or updates) the profile of the MATCHDESK_* variables. The engine gives a new profile its id, so the one
 * from an earlier run is found by name; its secret is kept for this process only (`sessionOnly`). Earlier versions
 * made it the saved active profile, which no other process has the secret of: that choice is undone.
 */
async function connectFromEnvironment(call: <K extends CallName>(name: K, input: CallInput<K>) => Promise<CallOutput<K>>): Promise<string | null> {
  const env = process.env;
  if (!env.MATCHDESK_BASE_URL) return null;
  if (!env.MATCHDESK_ORG_ID) throw new CliError('MATCHDESK_BASE_URL is set but MATCHDESK_ORG_ID is not.', EXIT_CODES.credentials);
  const credential = credentialFromEnvironment();
  const earlier = (await call('profiles.list', {})).find((p) => p.name === ENV_PROFILE_NAME);
  if (earlier && (await call('settings.get', {})).activeProfileId === earlier.id) await call('profiles.select', { id: null });
  const profile = await call('profiles.save', {
    ...(earlier ? { id: earlier.id } : {}),
    name: ENV_PROFILE_NAME,
    baseUrl: env.MATCHDESK_BASE_URL,
    orgId: env.MATCHDESK_ORG_ID,
    kind: credential.kind,
    login: credential.login,
    secret: credential.secret,
    sessionOnly: true,
  });
  return profile.id;
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
    EXIT_CODES.credentials,
  );
}
