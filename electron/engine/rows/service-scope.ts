import type { Profile } from '../../../shared/model';

/** The service and organization a query is asked of: part of every lookups cache key. */
export interface ServiceScope {
  baseUrl: string;
  orgId: string;
}

/** Planning before any profile exists: keys that no service will ever answer, replaced once one is chosen. */
export const NO_SCOPE: ServiceScope = { baseUrl: '', orgId: '' };

export function scopeOf(profile: Pick<Profile, 'baseUrl' | 'orgId'>): ServiceScope {
  return { baseUrl: profile.baseUrl, orgId: profile.orgId };
}

/** Compared with projects.plan_scope; normalized like store/lookups.ts queryDigest so equal scopes mean equal query ids. */
export function scopeId(scope: ServiceScope): string {
  return JSON.stringify([scope.baseUrl.replace(/\/+$/, '').toLowerCase(), scope.orgId]);
}
