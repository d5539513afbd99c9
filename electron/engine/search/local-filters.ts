// The filters evaluated locally on a person the service returned, with the service's semantics: each filter must hold;
// any-of within a value list; `job_group` filters hold for one job entry; ungrouped jobs.* filters may each hold for a
// different job. Used to name the job that satisfied the search.
import type { SatisfyingJob } from '../../../shared/contract';
import type { PersonJson } from '../../../shared/model';
import type { SearchFilter } from '../../../shared/search-filters';
import { comparable, foldWhitespace } from '../matching';
import { editDistance } from '../matching/edit-distance';
import { isObject, jobsOf, personName, personSlug, text } from '../matching/person';

type Json = Record<string, unknown>;

const isJobField = (field: string) => field.startsWith('jobs.');

/** The values a person field holds; jobs.* fields are read from one job. Missing or empty values are left out. */
function personValues(person: Json, field: string): string[] {
  switch (field) {
    case 'name':
      return present(personName(person));
    case 'social':
      return present(personSlug(person));
    case 'location': {
      const direct = text(person.location);
      if (direct) return [direct];
      const details = person.location_details;
      if (!isObject(details)) return present(text(person.country));
      return present(['locality', 'region', 'country'].map((k) => text(details[k])).filter(Boolean).join(', ') || null);
    }
    default:
      return present(text(readPath(person, field)));
  }
}

function jobValues(job: Json, field: string): string[] {
  const path = field.slice('jobs.'.length);
  if (path === 'company.name') {
    const company = job.company;
    return present(isObject(company) ? text(company.name) : text(company));
  }
  if (path === 'company.social') {
    const company = job.company;
    if (!isObject(company)) return [];
    return present(text(company.social) ?? text(company.linkedin));
  }
  return present(text(readPath(job, path)));
}

function readPath(object: Json, path: string): unknown {
  let value: unknown = object;
  for (const key of path.split('.')) {
    if (!isObject(value)) return undefined;
    value = value[key];
  }
  return value;
}

function present(value: string | null): string[] {
  return value === null || value === '' ? [] : [value];
}

/** Whether the values a field holds satisfy a filter's match, ignoring its type (must / must_not). */
function valuesMatch(values: string[], filter: SearchFilter): boolean {
  if (filter.match_type === 'exists') return values.length > 0;
  if (filter.date_from !== undefined || filter.date_to !== undefined) {
    return values.some((v) => {
      const day = v.slice(0, 10);
      if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return false;
      return (filter.date_from === undefined || day >= filter.date_from) && (filter.date_to === undefined || day <= filter.date_to);
    });
  }
  const wanted = filter.string_values ?? [];
  if (filter.match_type === 'exact') {
    const have = new Set(values.map((v) => foldWhitespace(v).toLowerCase()));
    return wanted.some((w) => have.has(foldWhitespace(w).toLowerCase()));
  }
  return wanted.some((w) => values.some((v) => fuzzyMatch(w, v)));
}

/** Every word of the wanted text appears in the value, each allowed one typo when both words are long enough. */
export function fuzzyMatch(wanted: string, value: string): boolean {
  const want = words(wanted);
  if (want.length === 0) return false;
  const have = words(value);
  return want.every((w) => have.some((h) => h === w || (typoAllowed(w, h) && editDistance(w, h, 1) <= 1)));
}

function words(s: string): string[] {
  const c = comparable(s);
  return c === '' ? [] : c.split(' ');
}

/** Short words ("li", "wu") only match exactly: one edit would make them match half the vocabulary. */
function typoAllowed(a: string, b: string): boolean {
  const [la, lb] = [[...a].length, [...b].length];
  return Math.min(la, lb) >= 3 && Math.max(la, lb) >= 4;
}

function jobMatches(job: Json, filter: SearchFilter): boolean {
  return valuesMatch(jobValues(job, filter.field), filter);
}

/** Whether one filter (outside any group) holds for the person. */
function filterHolds(person: Json, filter: SearchFilter): boolean {
  const found = isJobField(filter.field)
    ? jobsOf(person).some((job) => jobMatches(job, filter))
    : valuesMatch(personValues(person, filter.field), filter);
  return filter.type === 'must' ? found : !found;
}

function groupsOf(filters: readonly SearchFilter[]): Map<number, SearchFilter[]> {
  const groups = new Map<number, SearchFilter[]>();
  for (const f of filters) {
    if (f.job_group === undefined || !isJobField(f.field)) continue;
    groups.set(f.job_group, [...(groups.get(f.job_group) ?? []), f]);
  }
  return new Map([...groups.entries()].sort((a, b) => a[0] - b[0]));
}

/** The person meets every filter, groups holding for one job each. */
export function personMatches(person: PersonJson, filters: readonly SearchFilter[]): boolean {
  if (!isObject(person)) return false;
  for (const f of filters) {
    if ((f.job_group === undefined || !isJobField(f.field)) && !filterHolds(person, f)) return false;
  }
  const jobs = jobsOf(person);
  for (const members of groupsOf(filters).values()) {
    const ok = jobs.some((job) => members.every((f) => (f.type === 'must' ? jobMatches(job, f) : !jobMatches(job, f))));
    if (!ok) return false;
  }
  return true;
}

/**
 * The job that satisfied the search: the first job (in the service's order) meeting every filter of the lowest
 * job_group; without groups, the first job meeting the most positive jobs.* filters (all of them when one does).
 * Null when the filters name no job field or no job meets any.
 */
export function satisfyingJob(person: PersonJson, filters: readonly SearchFilter[]): SatisfyingJob | null {
  if (!isObject(person)) return null;
  const jobs = jobsOf(person);
  const raw = Array.isArray(person.jobs) ? person.jobs : [];
  const groups = groupsOf(filters);
  let chosen: Json | undefined;
  if (groups.size > 0) {
    const members = groups.values().next().value!;
    chosen = jobs.find((job) => members.every((f) => (f.type === 'must' ? jobMatches(job, f) : !jobMatches(job, f))));
  } else {
    const positive = filters.filter((f) => f.type === 'must' && isJobField(f.field));
    let best = 0;
    for (const job of jobs) {
      const met = positive.filter((f) => jobMatches(job, f)).length;
      if (met > best) {
        best = met;
        chosen = job;
      }
      if (best === positive.length) break;
    }
  }
  if (!chosen) return null;
  const company = chosen.company;
  return {
    index: raw.indexOf(chosen),
    company: isObject(company) ? text(company.name) : text(company),
    companySlug: isObject(company) ? (text(company.social) ?? text(company.linkedin)) : null,
    title: text(chosen.title),
    function: text(chosen.function),
    level: text(chosen.level),
    started: text(chosen.started_at),
    ended: text(chosen.ended_at),
  };
}
