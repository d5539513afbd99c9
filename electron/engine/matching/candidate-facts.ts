// What the confidence model, the job-change status and the review screen read from a person record, taken out
// once per person version and stored with it (people.facts), so settling a row never parses a whole person again.
// Person fields are undocumented: every read tolerates a missing field, a null, a number
// or an odd date, and yields "not known" rather than a guess.
import { hash } from 'node:crypto';
import type { Candidate, PersonJson, PersonSummary } from '../../../shared/model';
import type { AnswerPeople } from '../store/lookups';
import { packRecord, type PackedRecord } from '../store/person-records';
import { nameParts, type NameParts } from './name-comparison';
import { normalizeEmail } from './normalize';
import { companyNameOf, isCurrentJob, isObject, jobsOf, summarizePerson, text } from './person';

/** A job as the model reads it. `status` is unknown when an end was given but could not be read as a date. */
export interface JobFact {
  company: string | null;
  domain: string | null;
  title: string | null;
  started: string | null;
  ended: string | null;
  status: 'current' | 'ended' | 'unknown';
}

export interface CandidateFacts {
  rank: number;
  score: number | null;
  summary: PersonSummary;
  name: string | null;
  firstName: string | null;
  lastName: string | null;
  /** The name folded for comparison, once per answer rather than once per row that asks it. */
  nameParts: NameParts | null;
  slug: string | null;
  /** Addresses on the record itself (the real service sends none; some records may). */
  emails: string[];
  /** Most recent first, as the service sends them. */
  jobs: JobFact[];
  location: string | null;
  country: string | null;
  /** The `people` row this version is stored in, when read from there (store/lookups.ts); never stored itself. */
  personId?: number;
}

/**
 * Bumped when how facts are stored changes: facts stored by an unknown version are made again from the candidates.
 * Version 2 stored each candidate's facts as an object, with the summary's name, profile and location twice; version 3
 * stores them as a row of values (storedFacts below), half the bytes: what a run writes beside each answer, and what a
 * cached re-run reads and parses for each (docs/performance.md, "SQLite"). Version 2 facts still read as they are.
 * A person whose record is in a block (migration 30) has facts of the version that stored them, and SQL cannot read
 * their record to make them again (store/person-records.ts recordSql): a new version must first make those people's
 * facts again from store/person-records.ts personRecord.
 */
export const FACTS_VERSION = 3;
const OBJECT_FACTS_VERSION = 2;

export function candidateFacts(candidate: Candidate): CandidateFacts {
  const person = candidate.person;
  const summary = summarizePerson(person);
  const record = isObject(person) ? person : {};
  const details = isObject(record.location_details) ? record.location_details : null;
  // The summary has read the name and the profile slug already (personName, personSlug): not read twice.
  const name = summary.name;
  const firstName = text(record.first_name);
  const lastName = text(record.last_name);
  return {
    rank: candidate.rank,
    score: candidate.score,
    summary,
    name,
    firstName,
    lastName,
    nameParts: nameParts(name, firstName, lastName),
    slug: summary.social,
    emails: personEmails(person),
    jobs: jobFacts(person),
    location: summary.location,
    country: (details ? text(details.country) : null) ?? text(record.country),
  };
}

/** The most a row looks at: the service sends at most five people per query. */
export const MAX_CANDIDATES = 5;

/** The facts of an answer's candidates, best service rank first, at most MAX_CANDIDATES. */
export function rankedFacts(candidates: readonly Candidate[]): CandidateFacts[] {
  return [...candidates]
    .sort((a, b) => a.rank - b.rank)
    .slice(0, MAX_CANDIDATES)
    .map(candidateFacts);
}

/** Facts as stored beside their answer: `{"v":3,"c":[...]}`, a row of values a candidate (storedCandidate). */
export function storedFacts(facts: readonly CandidateFacts[]): string {
  return JSON.stringify({ v: FACTS_VERSION, c: facts.map(storedCandidate) });
}

/**
 * An answer's candidates as stored: each person version once (`people`, its record packed and found again by the
 * digest of that, its facts a storedCandidate row), best rank first, with the answer's own ranks and scores beside
 * them. `facts` is what store/lookups.ts getAnswerFacts composes from them again, for the rows settled before it is
 * read back.
 */
export function answerPeople(candidates: readonly Candidate[]): AnswerPeople & { ranked: CandidateFacts[]; facts: string } {
  const ranked = [...candidates].sort((a, b) => a.rank - b.rank).slice(0, MAX_CANDIDATES);
  const facts = ranked.map(candidateFacts);
  const people = ranked.map((c, i) => {
    const record = packRecord(c.person);
    return { digest: personDigest(record), record, factsVersion: FACTS_VERSION, facts: JSON.stringify(storedCandidate(facts[i]!)) };
  });
  const ranks = JSON.stringify(ranked.map((c) => [c.rank, c.score]));
  return { people, ranks, ranked: facts, facts: `{"v":${FACTS_VERSION},"c":[${people.map((p) => p.facts).join(',')}],"r":${ranks}}` };
}

/**
 * A person version's identity: the first 64 bits of the SHA-256 of its packed record with its key lists (as one JSON
 * text, so two records share it only if they are the same record; packing is what the record costs already, where its
 * JSON would be made again for this alone), an integer SQLite stores in 8 bytes. The chance that two of a million
 * people share one is about 3 in 10^8. A person stored before migration 29 (by the digest of their JSON) is stored
 * once more, packed, when an answer next finds them.
 */
function personDigest(record: PackedRecord): bigint {
  return hash('sha256', `[[${record.shapes.join(',')}],${record.values}]`, 'buffer').readBigInt64BE(0);
}

/**
 * Stored facts, or null when they were made by an unknown version or do not read (then make them again). Facts
 * composed from the people of an answer carry its ranks and scores in `r` (a person's own facts hold those of the
 * answer that first stored them).
 */
export function readStoredFacts(stored: string | null): CandidateFacts[] | null {
  if (stored === null) return null;
  try {
    const parsed = JSON.parse(stored) as { v?: unknown; c?: unknown; r?: unknown; p?: unknown };
    if (!Array.isArray(parsed.c)) return null;
    const ranks = Array.isArray(parsed.r) ? (parsed.r as [number, number | null][]) : null;
    if (ranks && ranks.length !== parsed.c.length) return null;
    const ids = Array.isArray(parsed.p) && parsed.p.length === parsed.c.length ? (parsed.p as number[]) : null;
    if (parsed.c.length === 0) return [];
    const facts = parsed.v === OBJECT_FACTS_VERSION ? (parsed.c as CandidateFacts[]) : parsed.v === FACTS_VERSION ? parsed.c.map(readCandidate) : null;
    ranks?.forEach(([rank, score], i) => Object.assign(facts?.[i] ?? {}, { rank, score }));
    ids?.forEach((personId, i) => Object.assign(facts?.[i] ?? {}, { personId }));
    return facts;
  } catch {
    return null;
  }
}

/** One person's facts as stored on their own (a refresh's person): `{"v":3,"f":[...]}`. */
export function storedPersonFacts(facts: CandidateFacts): string {
  return JSON.stringify({ v: FACTS_VERSION, f: storedCandidate(facts) });
}

/** One person's stored facts, or null as readStoredFacts. */
export function readStoredPersonFacts(stored: string): CandidateFacts | null {
  try {
    const parsed = JSON.parse(stored) as { v?: unknown; f?: unknown };
    if (parsed.v === OBJECT_FACTS_VERSION) return typeof parsed.f === 'object' && parsed.f !== null ? (parsed.f as CandidateFacts) : null;
    return parsed.v === FACTS_VERSION ? readCandidate(parsed.f) : null;
  } catch {
    return null;
  }
}

/**
 * The summary of a person's stored facts (people.facts, a storedCandidate row of the current version), read from the
 * front of the text without parsing the rest: an export writes the summaries of a whole sheet's matches, and parsing
 * each person's whole facts (jobs and all) for six values was a large share of its time. Null when the text is not of
 * that shape.
 */
export function readStoredSummary(facts: string): PersonSummary | null {
  // rank and score are numbers or null, which hold no comma.
  let at = facts.indexOf(',', facts.indexOf(',') + 1) + 1;
  if (facts.charCodeAt(0) !== 0x5b || at === 0) return null;
  const values: (string | null)[] = [];
  for (let i = 0; i < 6; i++) {
    if (facts.startsWith('null', at)) {
      values.push(null);
      at += 4;
    } else {
      if (facts.charCodeAt(at) !== 0x22) return null;
      let end = at + 1;
      let escaped = false;
      for (let c = facts.charCodeAt(end); c !== 0x22; c = facts.charCodeAt(end)) {
        if (Number.isNaN(c)) return null;
        if (c === 0x5c) escaped = true;
        end += c === 0x5c ? 2 : 1;
      }
      try {
        values.push(escaped ? (JSON.parse(facts.slice(at, end + 1)) as string) : facts.slice(at + 1, end));
      } catch {
        return null;
      }
      at = end + 1;
    }
    if (facts.charCodeAt(at) !== 0x2c) return null;
    at++;
  }
  const [id, name, title, company, social, location] = values as [string | null, string | null, string | null, string | null, string | null, string | null];
  return { id, name, title, company, social, location };
}

/**
 * A candidate's facts as one row of values, in this order: rank, score, the summary's id, name, title, company, profile
 * and location, then first name, last name, name parts ([tokens, first, last] or null), e-mails, jobs (each [company,
 * domain, title, started, ended, status]) and country. The name, profile slug and location are the summary's
 * (candidateFacts reads them once): stored as 0 when they are the same, so they are not written twice.
 */
type StoredCandidate = [
  rank: number, score: number | null,
  id: string | null, name: string | null, title: string | null, company: string | null, social: string | null, location: string | null,
  firstName: string | null, lastName: string | null, nameParts: [string[], string, string] | null, emails: string[],
  jobs: [string | null, string | null, string | null, string | null, string | null, JobFact['status']][], country: string | null,
  factsName: string | null | 0, slug: string | null | 0, factsLocation: string | null | 0,
];

function storedCandidate(f: CandidateFacts): StoredCandidate {
  const { summary: s, nameParts: parts } = f;
  return [
    f.rank, f.score, s.id, s.name, s.title, s.company, s.social, s.location,
    f.firstName, f.lastName, parts ? [parts.tokens, parts.first, parts.last] : null, f.emails,
    f.jobs.map((j) => [j.company, j.domain, j.title, j.started, j.ended, j.status]), f.country,
    f.name === s.name ? 0 : f.name, f.slug === s.social ? 0 : f.slug, f.location === s.location ? 0 : f.location,
  ];
}

/** Throws on a row that is not one storedCandidate made: readStoredFacts then reads the answer as unreadable. */
function readCandidate(row: unknown): CandidateFacts {
  if (!Array.isArray(row) || row.length !== 17 || !Array.isArray(row[12])) throw new TypeError('stored facts of another shape');
  const [rank, score, id, name, title, company, social, location, firstName, lastName, parts, emails, jobs, country, factsName, slug, factsLocation] = row as StoredCandidate;
  return {
    rank,
    score,
    summary: { id, name, title, company, social, location },
    name: factsName === 0 ? name : factsName,
    firstName,
    lastName,
    nameParts: parts ? { tokens: parts[0], first: parts[1], last: parts[2] } : null,
    slug: slug === 0 ? social : slug,
    emails,
    jobs: jobs.map(([jobCompany, domain, jobTitle, started, ended, status]) => ({ company: jobCompany, domain, title: jobTitle, started, ended, status })),
    location: factsLocation === 0 ? location : factsLocation,
    country,
  };
}

function personEmails(person: PersonJson): string[] {
  if (!isObject(person)) return [];
  const raw: unknown[] = [person.email_address, person.email];
  for (const list of [person.emails, person.email_addresses]) {
    if (!Array.isArray(list)) continue;
    for (const item of list) raw.push(isObject(item) ? (item.email ?? item.address ?? item.value) : item);
  }
  const emails: string[] = [];
  for (const value of raw) {
    const candidate = text(value);
    const result = candidate ? normalizeEmail(candidate) : null;
    if (result?.ok && !emails.includes(result.email)) emails.push(result.email);
  }
  return emails;
}

function jobFacts(person: PersonJson): JobFact[] {
  const jobs = jobsOf(person).map((job): JobFact => {
    const company = isObject(job.company) ? job.company : null;
    const ended = looseDate(job.ended_at ?? job.end_date ?? job.ended);
    const open = isCurrentJob(job);
    return {
      company: companyNameOf(job),
      domain: company ? domainText(company.domain ?? company.website) : null,
      title: text(job.title),
      started: looseDate(job.started_at ?? job.start_date ?? job.started),
      ended,
      status: open ? 'current' : ended ? 'ended' : 'unknown',
    };
  });
  if (jobs.length > 0 || !isObject(person)) return jobs;
  // No job list: the current position, when the record has one, is the one job known.
  const position = person.position;
  if (isObject(position)) {
    const company = isObject(position.company) ? position.company : null;
    const name = companyNameOf(position);
    if (name) return [{ company: name, domain: company ? domainText(company.domain) : null, title: text(position.title), started: looseDate(position.started_at), ended: null, status: 'current' }];
  }
  const summary = summarizePerson(person);
  return summary.company ? [{ company: summary.company, domain: null, title: summary.title, started: null, ended: null, status: 'current' }] : [];
}

/** A company's domain as written -> the host, or null: the same companies come back in answer after answer. */
const domains = new Map<string, string | null>();
const MAX_DOMAINS = 10_000;

function domainText(value: unknown): string | null {
  const raw = text(value);
  if (!raw) return null;
  let host = domains.get(raw);
  if (host !== undefined) return host;
  const bare = raw.toLowerCase().replace(/^[a-z]+:\/\//, '').replace(/^www\./, '').split(/[/?#]/)[0]!;
  host = /^[a-z0-9-]+(\.[a-z0-9-]+)+$/.test(bare) ? bare : null;
  if (domains.size >= MAX_DOMAINS) domains.clear();
  domains.set(raw, host);
  return host;
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

/**
 * A date in any of the forms records carry, as YYYY-MM-DD, YYYY-MM or YYYY (as precise as given): ISO dates and
 * timestamps, "2024-03", "2024", "03/2024", "March 2024", epoch milliseconds or seconds. null when it cannot be
 * read or lies outside 1900-2100: never a guess.
 */
export function looseDate(value: unknown): string | null {
  if (typeof value === 'number' && Number.isFinite(value)) {
    if (value >= 1900 && value <= 2100 && Number.isInteger(value)) return String(value);
    const ms = value > 1e11 ? value : value > 1e8 ? value * 1000 : NaN;
    return Number.isNaN(ms) ? null : inRange(new Date(ms).toISOString().slice(0, 10));
  }
  if (typeof value !== 'string') return null;
  const s = value.trim();
  // Nearly every date a record carries is YYYY-MM-DD already: kept as it is, without the regexes.
  if (s.length === 10 && isIsoDay(s)) return inRange(s);
  let m = /^(\d{4})-(\d{1,2})(?:-(\d{1,2}))?(?:[T ].*)?$/.exec(s);
  if (m) return inRange(m[3] ? `${m[1]}-${pad(m[2]!)}-${pad(m[3])}` : `${m[1]}-${pad(m[2]!)}`);
  if ((m = /^(\d{4})$/.exec(s))) return inRange(m[1]!);
  if ((m = /^(\d{1,2})[/.](\d{4})$/.exec(s))) return inRange(`${m[2]}-${pad(m[1]!)}`);
  if ((m = /^([A-Za-z]{3,})\.?,? (\d{4})$/.exec(s))) {
    const month = MONTHS.indexOf(m[1]!.slice(0, 3).toLowerCase());
    return month === -1 ? null : inRange(`${m[2]}-${pad(String(month + 1))}`);
  }
  return null;
}

/** Digits at YYYY, MM and DD and a '-' at each separator. */
function isIsoDay(s: string): boolean {
  for (let i = 0; i < 10; i++) {
    const c = s.charCodeAt(i);
    if (i === 4 || i === 7 ? c !== 45 : c < 48 || c > 57) return false;
  }
  return true;
}

function pad(n: string): string {
  return n.padStart(2, '0');
}

function inRange(date: string): string | null {
  const year = Number(date.slice(0, 4));
  const month = date.length >= 7 ? Number(date.slice(5, 7)) : 1;
  const day = date.length >= 10 ? Number(date.slice(8, 10)) : 1;
  return year >= 1900 && year <= 2100 && month >= 1 && month <= 12 && day >= 1 && day <= 31 ? date : null;
}
