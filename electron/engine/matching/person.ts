import type { PersonJson, PersonSummary } from '../../../shared/model';
import { foldWhitespace, profileSlugFromUrl } from './normalize';

// Person fields are undocumented: every read tolerates a missing field, a null, a
// number or an array where an object was expected.

type Json = Record<string, unknown>;

export function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function text(value: unknown): string | null {
  if (typeof value === 'string') return foldWhitespace(value) || null;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return null;
}

/** The person's jobs as the service sent them (most recent first), skipping entries that are not objects. */
export function jobsOf(person: PersonJson): Json[] {
  const jobs = isObject(person) ? person.jobs : undefined;
  return Array.isArray(jobs) ? jobs.filter(isObject) : [];
}

/** A job's company name: `company.name`, or `company` itself when it is a plain string. */
export function companyNameOf(job: Json): string | null {
  const company = job.company;
  if (isObject(company)) return text(company.name);
  return typeof company === 'string' ? text(company) : text(job.company_name);
}

// End dates that mean "still there".
const STILL_THERE = new Set(['', 'present', 'current', 'now', 'today', 'ongoing', 'heute', 'actuel', 'actual']);

/** A job without an end, or whose end says it goes on ("present"). */
export function isCurrentJob(job: Json): boolean {
  const ended = job.ended_at ?? job.end_date ?? job.ended;
  return ended === undefined || ended === null || (typeof ended === 'string' && STILL_THERE.has(ended.trim().toLowerCase()));
}

/** "first last", or `name`, whichever the person carries. */
export function personName(person: PersonJson): string | null {
  if (!isObject(person)) return null;
  const name = text(person.name) ?? text(person.full_name);
  if (name) return name;
  return foldWhitespace(`${text(person.first_name) ?? ''} ${text(person.last_name) ?? ''}`) || null;
}

/** The person's profile slug, from `linkedin` or `social`; a full link there is reduced to its slug. */
export function personSlug(person: PersonJson): string | null {
  if (!isObject(person)) return null;
  for (const value of [person.linkedin, person.social]) {
    const raw = text(value);
    if (!raw) continue;
    const result = profileSlugFromUrl(raw);
    return result.ok ? result.slug : raw.toLowerCase();
  }
  return null;
}

function currentRole(person: Json): { title: string | null; company: string | null } {
  const jobs = jobsOf(person);
  const current = jobs.find(isCurrentJob);
  if (current) return { title: text(current.title), company: companyNameOf(current) };
  const position = person.position;
  if (isObject(position)) {
    const title = text(position.title);
    const company = companyNameOf(position);
    if (title || company) return { title, company };
  }
  const positionTitle = text(position);
  if (positionTitle) {
    const company = person.company;
    return { title: positionTitle, company: isObject(company) ? text(company.name) : text(company) };
  }
  // Only ended jobs: no current position (the export says so with an empty company, and the job change says where they went).
  return { title: null, company: null };
}

function locationOf(person: Json): string | null {
  const direct = text(person.location);
  if (direct) return direct;
  for (const value of [person.location, person.location_details]) {
    if (!isObject(value)) continue;
    const parts: string[] = [];
    for (const key of ['locality', 'region', 'country']) {
      const part = text(value[key]);
      if (part && !parts.includes(part)) parts.push(part);
    }
    if (parts.length > 0) return parts.join(', ');
  }
  return text(person.country);
}

export function summarizePerson(p: PersonJson): PersonSummary {
  if (!isObject(p)) return { id: null, name: null, title: null, company: null, social: null, location: null };
  const role = currentRole(p);
  return {
    id: text(p.id),
    name: personName(p),
    title: role.title,
    company: role.company,
    social: personSlug(p),
    location: locationOf(p),
  };
}
