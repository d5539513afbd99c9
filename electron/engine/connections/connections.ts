// The connection profiles, their secrets and the one service client each: which profile is selected (saved, or for
// this session only), and the client a run, a refresh or a search asks through.
import { randomUUID } from 'node:crypto';
import type { Database } from 'better-sqlite3';
import type { CallParsedInput, ProfileInput, ProfileTestResult } from '../../../shared/contract';
import type { Profile, Settings } from '../../../shared/model';
import { ServiceClient, ServiceError, type CreditsReport, type Credentials } from '../api';
import type { Clock } from '../clock';
import { DEMO_PROFILE_ID, DEMO_PROFILE_NAME } from '../demo/demo-service';
import { EngineError, notFound, toContractError, type ErrorMapper } from '../engine-errors';
import { scopeOf, type ServiceScope } from '../rows/service-scope';
import { KeychainUnavailable, SessionSecretStore, type SecretStore } from '../secrets';
import { deleteProfile, getProfile, getSettings, saveProfile, updateSettings } from '../store';

export interface ConnectionsDeps {
  db: Database;
  clock: Clock;
  /** The keychain, or this session's store when the keychain does not work here. */
  secrets: SecretStore;
  /** What a profile test's failure says, in the contract's words. */
  mappers: ErrorMapper[];
  /** The credits a reply said were used and remain, for the run preview. */
  onCredits(scope: ServiceScope, credits: CreditsReport): void;
  fetch?: typeof fetch;
  /** The clock the client's token and retries follow, when the engine was given one. */
  clientClock?: Clock;
}

/** The demo simulator's address and its service account, as the demo profile is made from. */
export interface DemoConnection {
  baseUrl: string;
  orgId: string;
  clientId: string;
  clientSecret: string;
}

export class Connections {
  /** Secrets the user chose to keep for this session only, and the demo's: never written anywhere. */
  private readonly sessionSecrets = new SessionSecretStore();
  private readonly clients = new Map<string, { client: ServiceClient; concurrency: number }>();
  /** The profile chosen for this engine's life only (profiles.select forThisSession), over the saved one. */
  private sessionProfileId: string | null = null;

  constructor(private readonly deps: ConnectionsDeps) {}

  async save(input: ProfileInput): Promise<Profile> {
    const { db, secrets } = this.deps;
    const existing = input.id ? getProfile(db, input.id) : null;
    if (input.id && !existing) throw notFound(`The profile "${input.name}"`);
    const id = existing?.id ?? `p_${randomUUID()}`;
    const login = input.kind === 'api_key' ? null : (input.login?.trim() ?? '');
    if (login === '') {
      throw new EngineError('invalid_input', input.kind === 'service_account' ? 'Enter the client id of the service account.' : 'Enter the username to log in with.');
    }
    const what = input.kind === 'service_account' ? 'client secret' : input.kind === 'password' ? 'password' : 'API key';
    if (!input.secret && (!existing || existing.kind !== input.kind)) {
      throw new EngineError('invalid_input', `Enter the ${what} of this profile.`);
    }
    // A saved secret goes only to the service it was entered for: pointed at another, the profile needs it again.
    if (!input.secret && existing && originOf(existing.baseUrl) !== originOf(input.baseUrl.trim())) {
      throw new EngineError(
        'invalid_input',
        `Enter the ${what} again: its saved one goes only to ${originOf(existing.baseUrl)}, where it was entered, and this profile now points at ${originOf(input.baseUrl.trim())}.`,
      );
    }
    if (input.secret) {
      // The secret first: a keychain that refuses leaves no profile behind without its secret.
      if (input.sessionOnly && secrets.kind === 'keychain') {
        await this.sessionSecrets.set(id, input.secret);
        await secrets.delete(id).catch(() => false);
      } else {
        await secrets.set(id, input.secret);
        await this.sessionSecrets.delete(id);
      }
    }
    const profile: Profile = { id, name: input.name, baseUrl: input.baseUrl.trim(), orgId: input.orgId, kind: input.kind, login, createdAt: existing?.createdAt ?? this.now() };
    saveProfile(db, profile);
    this.clients.delete(id);
    return getProfile(db, id)!;
  }

  async test(id: string): Promise<ProfileTestResult> {
    const profile = this.require(id);
    try {
      const client = await this.clientFor(profile);
      await client.testConnection();
      return { ok: true, reason: null, error: null };
    } catch (error) {
      if (error instanceof ServiceError || error instanceof EngineError || error instanceof KeychainUnavailable) {
        return { ok: false, reason: error.message, error: toContractError(error, this.deps.mappers) };
      }
      throw error;
    }
  }

  async remove(id: string): Promise<void> {
    const { db, secrets } = this.deps;
    this.require(id);
    // The secret first: a keychain that refuses keeps the profile, so the user can try again.
    await secrets.delete(id);
    await this.sessionSecrets.delete(id);
    deleteProfile(db, id);
    this.clients.delete(id);
    if (getSettings(db).activeProfileId === id) updateSettings(db, { activeProfileId: null });
    if (this.sessionProfileId === id) this.sessionProfileId = null;
  }

  /**
   * For this session only, the saved choice stays as it was: a `matchdesk match` with MATCHDESK_* variables made its
   * profile (whose secret lives in that process alone) the one the app and the browser host then failed to run with.
   */
  select(id: string | null, forThisSession: boolean): Settings {
    if (id !== null) this.require(id);
    if (forThisSession) {
      this.sessionProfileId = id;
      return this.settings();
    }
    this.sessionProfileId = null;
    return updateSettings(this.deps.db, { activeProfileId: id });
  }

  /** Saves the settings; a new concurrency makes every client again (its limiter lives there). */
  updateSettings(input: CallParsedInput<'settings.update'>): Settings {
    if (input.activeProfileId) this.require(input.activeProfileId);
    const before = getSettings(this.deps.db);
    const after = updateSettings(this.deps.db, input);
    if (after.concurrency !== before.concurrency) this.clients.clear();
    return after;
  }

  /** Makes (or makes again) the demo's profile for the simulator now running, and selects it. */
  async useDemo(sim: DemoConnection): Promise<Profile> {
    const { db } = this.deps;
    const existing = getProfile(db, DEMO_PROFILE_ID);
    await this.sessionSecrets.set(DEMO_PROFILE_ID, sim.clientSecret);
    const profile: Profile = {
      id: DEMO_PROFILE_ID,
      name: DEMO_PROFILE_NAME,
      baseUrl: sim.baseUrl,
      orgId: sim.orgId,
      kind: 'service_account',
      login: sim.clientId,
      createdAt: existing?.createdAt ?? this.now(),
    };
    saveProfile(db, profile);
    this.clients.delete(DEMO_PROFILE_ID);
    updateSettings(db, { activeProfileId: DEMO_PROFILE_ID });
    return profile;
  }

  /** The saved settings, with the profile chosen for this session when there is one. */
  settings(): Settings {
    const saved = getSettings(this.deps.db);
    return this.sessionProfileId === null ? saved : { ...saved, activeProfileId: this.sessionProfileId };
  }

  require(id: string): Profile {
    const profile = getProfile(this.deps.db, id);
    if (!profile) throw notFound('That connection profile');
    return profile;
  }

  activeProfile(): Profile | null {
    const id = this.settings().activeProfileId;
    return id ? getProfile(this.deps.db, id) : null;
  }

  activeScope(): ServiceScope | null {
    const profile = this.activeProfile();
    return profile ? scopeOf(profile) : null;
  }

  async activeClient(concurrency?: number): Promise<ServiceClient> {
    const profile = this.activeProfile();
    if (!profile) {
      throw new EngineError('invalid_input', 'No connection is selected. Add a connection profile on the Account screen (or try the demo), then run again.', 'no_profile');
    }
    return this.clientFor(profile, concurrency);
  }

  /** The profile's secret; throws (no_secret) when none is kept, for this session or in the keychain. */
  async secretOf(profile: Profile): Promise<string> {
    const secret = (await this.sessionSecrets.get(profile.id)) ?? (profile.id === DEMO_PROFILE_ID ? null : await this.deps.secrets.get(profile.id));
    if (secret) return secret;
    throw new EngineError(
      'login_failed',
      profile.id === DEMO_PROFILE_ID
        ? 'The demo service is not running. Start the demo again to use it.'
        : `No secret is stored for the profile "${profile.name}" (it may have been kept for an earlier session only). Enter it again in the profile.`,
      'no_secret',
    );
  }

  /** One client per profile (its token and limiter live there), made again when the profile or concurrency changes. */
  async clientFor(profile: Profile, concurrency = getSettings(this.deps.db).concurrency): Promise<ServiceClient> {
    const cached = this.clients.get(profile.id);
    if (cached && cached.concurrency === concurrency) return cached.client;
    const secret = await this.secretOf(profile);
    const client = new ServiceClient({
      baseUrl: profile.baseUrl,
      orgId: profile.orgId,
      credentials: credentialsOf(profile, secret),
      concurrency,
      onCredits: (credits) => this.deps.onCredits(scopeOf(profile), credits),
      ...(this.deps.fetch ? { fetch: this.deps.fetch } : {}),
      ...(this.deps.clientClock ? { clock: this.deps.clientClock } : {}),
    });
    this.clients.set(profile.id, { client, concurrency });
    return client;
  }

  private now(): string {
    return new Date(this.deps.clock.now()).toISOString();
  }
}

function credentialsOf(profile: Profile, secret: string): Credentials {
  switch (profile.kind) {
    case 'service_account':
      return { kind: 'service_account', clientId: profile.login ?? '', clientSecret: secret };
    case 'password':
      return { kind: 'password', username: profile.login ?? '', password: secret };
    case 'api_key':
      return { kind: 'api_key', apiKey: secret };
  }
}

/** A base URL's scheme, host and port (where a secret is sent); the text itself when it does not read as a URL. */
function originOf(baseUrl: string): string {
  try {
    return new URL(baseUrl).origin;
  } catch {
    return baseUrl;
  }
}
