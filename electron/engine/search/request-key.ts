import { createHash } from 'node:crypto';
import type { SearchFilter } from '../../../shared/search-filters';

/**
 * The filters in a form where two requests that ask the same thing are equal: filters are ANDed and values are
 * any-of, so neither order matters, and a job_group's number only says which filters share a job.
 */
export function canonicalFilters(filters: readonly SearchFilter[]): string {
  const leaf = (f: SearchFilter) =>
    JSON.stringify([
      f.field,
      f.type,
      f.match_type,
      f.string_values ? [...new Set(f.string_values)].sort() : null,
      f.date_from ?? null,
      f.date_to ?? null,
    ]);
  const loose = filters.filter((f) => f.job_group === undefined).map(leaf).sort();
  const groups = new Map<number, string[]>();
  for (const f of filters) {
    if (f.job_group === undefined) continue;
    groups.set(f.job_group, [...(groups.get(f.job_group) ?? []), leaf(f)]);
  }
  const grouped = [...groups.values()].map((members) => JSON.stringify(members.sort())).sort();
  return JSON.stringify({ loose, grouped });
}

/** The cache key of a search: the service (base URL without trailing slash, any case) and organization, and the filters. */
export function searchRequestKey(baseUrl: string, orgId: string, filters: readonly SearchFilter[]): string {
  return sha256(JSON.stringify([baseUrl.trim().replace(/\/+$/, '').toLowerCase(), orgId.trim(), canonicalFilters(filters)]));
}

export function searchFiltersKey(filters: readonly SearchFilter[]): string {
  return sha256(canonicalFilters(filters));
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}
