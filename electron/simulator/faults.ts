// Switchable misbehaviour, rolled per call from a seeded stream so a failing test replays the same faults.
import { deriveSeed, seededRandom, type Random } from './random';

export interface FaultProfile {
  /** Share of people calls answered 429 with Retry-After. */
  rate429?: number;
  /** Seconds sent in Retry-After (default 1). */
  retryAfterS?: number;
  /** Share answered 500, 502 or 503. */
  rate5xx?: number;
  /** Share whose connection is destroyed without a reply. */
  rateReset?: number;
  /** Share answered 200 with a truncated JSON body. */
  rateMalformed?: number;
  /** Every N-th people call revokes every session token issued so far (0 = never). */
  revokeEveryCalls?: number;
  /** Also roll 429/5xx/reset/malformed on the session endpoint (default false). */
  includeSession?: boolean;
}

export type ResolvedFaultProfile = Required<FaultProfile>;

const NONE: ResolvedFaultProfile = {
  rate429: 0, retryAfterS: 1, rate5xx: 0, rateReset: 0, rateMalformed: 0, revokeEveryCalls: 0, includeSession: false,
};

export const FAULT_PROFILES: Readonly<Record<string, ResolvedFaultProfile>> = {
  none: NONE,
  /** What a busy production service feels like. */
  flaky: { ...NONE, rate429: 0.1, rate5xx: 0.05, rateReset: 0.02, rateMalformed: 0.01, revokeEveryCalls: 500 },
  /** Everything goes wrong often: for retry and resume tests. */
  chaos: { ...NONE, rate429: 0.2, rate5xx: 0.15, rateReset: 0.05, rateMalformed: 0.05, revokeEveryCalls: 50, includeSession: true },
  /** Half the calls are rate limited. */
  throttled: { ...NONE, rate429: 0.5 },
  /** The service is down: every people call fails with a 5xx. */
  outage: { ...NONE, rate5xx: 1 },
  /** Tokens die long before their expiry time. */
  'expiring-tokens': { ...NONE, revokeEveryCalls: 20 },
  /** One reply in five is cut short. */
  'bad-json': { ...NONE, rateMalformed: 0.2 },
};

/** A fault profile that makes no sense (unknown name, rate outside 0..1 ...). */
export class FaultProfileError extends Error {
  override readonly name = 'FaultProfileError';
}

const RATE_KEYS = ['rate429', 'rate5xx', 'rateReset', 'rateMalformed'] as const;

/** "flaky", or "rate429=0.2,retryAfterS=2" (CLI form), or an object. */
export function resolveFaultProfile(profile: FaultProfile | string): ResolvedFaultProfile {
  if (typeof profile === 'string') {
    const named = FAULT_PROFILES[profile.trim()];
    if (named) return named;
    if (!profile.includes('=')) {
      throw new FaultProfileError(`Unknown fault profile "${profile}"; use one of ${Object.keys(FAULT_PROFILES).join(', ')}, or name=value pairs such as rate429=0.1,retryAfterS=2.`);
    }
    const parsed: Record<string, number | boolean> = {};
    for (const pair of profile.split(',')) {
      const [key, raw] = pair.split('=').map((s) => s.trim());
      if (!(key in NONE)) throw new FaultProfileError(`Unknown fault setting "${key}"; settings are ${Object.keys(NONE).join(', ')}.`);
      parsed[key] = key === 'includeSession' ? raw === 'true' || raw === '1' : Number(raw);
    }
    return resolveFaultProfile(parsed as FaultProfile);
  }
  const resolved: ResolvedFaultProfile = {
    rate429: profile.rate429 ?? NONE.rate429,
    retryAfterS: profile.retryAfterS ?? NONE.retryAfterS,
    rate5xx: profile.rate5xx ?? NONE.rate5xx,
    rateReset: profile.rateReset ?? NONE.rateReset,
    rateMalformed: profile.rateMalformed ?? NONE.rateMalformed,
    revokeEveryCalls: profile.revokeEveryCalls ?? NONE.revokeEveryCalls,
    includeSession: profile.includeSession ?? NONE.includeSession,
  };
  for (const key of RATE_KEYS) {
    const rate = resolved[key];
    if (typeof rate !== 'number' || !(rate >= 0 && rate <= 1)) throw new FaultProfileError(`${key} must be a number from 0 to 1, got ${rate}.`);
  }
  const total = RATE_KEYS.reduce((sum, key) => sum + resolved[key], 0);
  if (total > 1 + 1e-9) throw new FaultProfileError(`The fault rates add up to ${total}; together they must not exceed 1.`);
  if (!(resolved.retryAfterS >= 0)) throw new FaultProfileError(`retryAfterS must be 0 or more seconds, got ${resolved.retryAfterS}.`);
  if (!Number.isInteger(resolved.revokeEveryCalls) || resolved.revokeEveryCalls < 0) {
    throw new FaultProfileError(`revokeEveryCalls must be a whole number, 0 for never, got ${resolved.revokeEveryCalls}.`);
  }
  return resolved;
}

export type FaultOutcome =
  | { kind: 'none' }
  | { kind: '429'; retryAfterS: number }
  | { kind: '5xx'; status: 500 | 502 | 503 }
  | { kind: 'reset' }
  | { kind: 'malformed' };

const SERVER_ERRORS = [500, 502, 503] as const;

/** One roll per call, from a stream seeded by the simulator's seed: the n-th call always gets the same fate. */
export class FaultDice {
  private readonly random: Random;

  constructor(seed: number) {
    this.random = seededRandom(deriveSeed(seed, 'faults'));
  }

  roll(profile: ResolvedFaultProfile): FaultOutcome {
    // Both draws happen on every call, so changing one rate never shifts the fates of later calls.
    const r = this.random.next();
    const pick = this.random.next();
    let edge = profile.rate429;
    if (r < edge) return { kind: '429', retryAfterS: profile.retryAfterS };
    edge += profile.rate5xx;
    if (r < edge) return { kind: '5xx', status: SERVER_ERRORS[Math.floor(pick * SERVER_ERRORS.length)] };
    edge += profile.rateReset;
    if (r < edge) return { kind: 'reset' };
    edge += profile.rateMalformed;
    if (r < edge) return { kind: 'malformed' };
    return { kind: 'none' };
  }
}
