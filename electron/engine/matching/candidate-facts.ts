// What the confidence model, the job-change status and the review screen read from a person record, taken out
// once per person version and stored with it (people.facts), so settling a row never parses a whole person again.
// Person fields are undocumented: every read tolerates a missing field, a null, a number
// or an odd date, and yields "not known" rather than a guess.
import { hash } from 'node:crypto';
import type { Candidate, PersonJson, PersonSummary } from '../../../shared/model';
import { ROW_FACTS_VERSION, type AnswerPeople, type StoredPerson } from '../store/lookups';
import { packRecord, recordBytes, type PackedRecord } from '../store/packed-record';
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
 * Version 2 stored each candidate's facts as an object; version 3 as a row of values (Version3Row), half the
 * bytes; version 4 leaves out of that row what reading it can make again (StoredRow), a third fewer again: people's
 * facts were the data folder's largest table (docs/performance.md, "SQLite"). A row tells
 * its version by its shape (a version 3 row starts with its rank, a number), so the people of one answer may be of
 * versions 3 and 4: a person found again keeps the facts they were first stored with, and a person whose record is in a
 * block (migration 30) cannot have them made again by SQL (store/person-records.ts recordSql). Version 2 facts still
 * read as they are.
 */
export const FACTS_VERSION = 4;
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
  return byRank(candidates).map(candidateFacts);
}

/**
 * The candidates best service rank first, at most MAX_CANDIDATES: the list itself when it is so already, as a find
 * reply's are (api/find-reply.ts ranks them in order), rather than a sorted copy of it.
 */
function byRank(candidates: readonly Candidate[]): readonly Candidate[] {
  let ordered = candidates.length <= MAX_CANDIDATES;
  for (let i = 1; ordered && i < candidates.length; i++) ordered = candidates[i - 1]!.rank <= candidates[i]!.rank;
  return ordered ? candidates : [...candidates].sort((a, b) => a.rank - b.rank).slice(0, MAX_CANDIDATES);
}

/**
 * Facts as stored beside their answer: `{"v":4,"c":[...],"r":[[rank, score], ...]}`, a row of values a candidate
 * (storedCandidate), the ranks and scores beside them.
 */
export function storedFacts(facts: readonly CandidateFacts[]): string {
  return JSON.stringify({ v: FACTS_VERSION, c: facts.map(storedCandidate), r: facts.map((f) => [f.rank, f.score]) });
}

/**
 * An answer's candidates as stored: each person version once (`people`, its record packed and found again by the
 * digest of that, its facts a storedCandidate row), best rank first, with the answer's own ranks and scores beside
 * them; `ranked`, their facts as the model reads them.
 */
export function answerPeople(candidates: readonly Candidate[]): { people: MadePerson[]; ranks: string; ranked: CandidateFacts[] } {
  const ranked = byRank(candidates);
  const facts = ranked.map(candidateFacts);
  const people = ranked.map((c, i) => {
    const record = packRecord(c.person);
    return { digest: personDigest(record), record, factsVersion: FACTS_VERSION, facts: JSON.stringify(storedCandidate(facts[i]!)) };
  });
  const ranks = JSON.stringify(ranked.map((c) => [c.rank, c.score]));
  return { people, ranks, ranked: facts };
}

/** A person version as answerPeople makes it: with its packed record. */
export type MadePerson = StoredPerson & { record: PackedRecord };

/**
 * An answer's facts made from its people's (answerPeople), as store/lookups.ts getAnswerFacts composes them from
 * `people`: for rows settled by an answer before it is read back.
 */
export function answerFacts({ people, ranks }: AnswerPeople): string {
  return `{"v":${FACTS_VERSION},"c":[${people.map((p) => p.facts).join(',')}],"r":${ranks}}`;
}

/**
 * A person version's identity: the first 64 bits of the SHA-256 of its packed record with its key lists (as one JSON
 * text, so two records share it only if they are the same record; packing is what the record costs already, where its
 * JSON would be made again for this alone), an integer SQLite stores in 8 bytes. The chance that two of a million
 * people share one is about 3 in 10^8. A person stored before migration 29 (by the digest of their JSON) is stored
 * once more, packed, when an answer next finds them.
 */
function personDigest(record: PackedRecord): bigint {
  // Read from its hex, as a query's digest is (store/lookups.ts): the Buffer made for each one cost more.
  return BigInt.asIntN(64, BigInt(`0x${hash('sha256', recordBytes(record).utf8, 'hex').slice(0, 16)}`));
}

/**
 * Stored facts, or null when they were made by an unknown version or do not read (then make them again). Facts
 * composed from the people of an answer carry its ranks and scores in `r` (a version 3 row holds those of the answer
 * that first stored it; a version 4 row none, so its facts read only with `r`). The people of one answer may be of
 * versions 3 and 4 (`v` is then the higher): each row is read by its shape.
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
    let facts: CandidateFacts[] | null = null;
    if (parsed.v === OBJECT_FACTS_VERSION) facts = parsed.c as CandidateFacts[];
    else if (isRowVersion(parsed.v) && (ranks || parsed.c.every(isVersion3Row))) facts = parsed.c.map(readCandidate);
    ranks?.forEach(([rank, score], i) => Object.assign(facts?.[i] ?? {}, { rank, score }));
    ids?.forEach((personId, i) => Object.assign(facts?.[i] ?? {}, { personId }));
    return facts;
  } catch {
    return null;
  }
}

/** One person's facts as stored on their own (a refresh's person): `{"v":4,"f":[...],"r":[rank, score]}`. */
export function storedPersonFacts(facts: CandidateFacts): string {
  return JSON.stringify({ v: FACTS_VERSION, f: storedCandidate(facts), r: [facts.rank, facts.score] });
}

/**
 * One person's stored facts, or null as readStoredFacts. Without `r` (a `people` row's facts, rows/row-status.ts),
 * a version 4 row reads with rank 0 and no score: its reader takes those from the row's decision.
 */
export function readStoredPersonFacts(stored: string): CandidateFacts | null {
  try {
    const parsed = JSON.parse(stored) as { v?: unknown; f?: unknown; r?: unknown };
    if (parsed.v === OBJECT_FACTS_VERSION) return typeof parsed.f === 'object' && parsed.f !== null ? (parsed.f as CandidateFacts) : null;
    if (!isRowVersion(parsed.v)) return null;
    const facts = readCandidate(parsed.f);
    if (Array.isArray(parsed.r)) [facts.rank, facts.score] = parsed.r as [number, number | null];
    return facts;
  } catch {
    return null;
  }
}

function isRowVersion(version: unknown): boolean {
  return typeof version === 'number' && version >= ROW_FACTS_VERSION && version <= FACTS_VERSION;
}

/**
 * The summary of a person's stored facts (people.facts, a row of version 3 or 4), read from the front of the text
 * without parsing the rest: an export writes the summaries of a whole sheet's matches, and parsing each person's
 * whole facts (jobs and all) for six values was a large share of its time. A version 4 row's title and company left
 * to its first job are read from the front of that job. Null when the text is not of that shape.
 */
export function readStoredSummary(facts: string): PersonSummary | null {
  if (facts.charCodeAt(0) !== 0x5b) return null;
  const scan = new FactsScan(facts, 1);
  const first = facts.charCodeAt(1);
  if ((first >= 0x30 && first <= 0x39) || first === 0x2d) {
    // Version 3: rank and score (numbers or null, which hold no comma), then the summary in its order.
    scan.at = facts.indexOf(',', facts.indexOf(',') + 1) + 1;
    if (scan.at === 0) return null;
    const values: (string | null)[] = [];
    for (let i = 0; i < 6; i++) {
      const value = scan.text();
      if (value === undefined || value === 0 || !scan.comma()) return null;
      values.push(value);
    }
    // Read by index: an export reads a summary for each person it writes, and a destructured array goes through an iterator.
    return { id: values[0] as string | null, name: values[1] as string | null, title: values[2] as string | null, company: values[3] as string | null, social: values[4] as string | null, location: values[5] as string | null };
  }
  const values: (string | null | 0)[] = [];
  for (let i = 0; i < 6; i++) {
    const value = scan.text(i >= 4);
    if (value === undefined || !scan.comma()) return null;
    values.push(value);
  }
  const id = values[0] as string | null;
  const name = values[1] as string | null;
  const social = values[2] as string | null;
  const location = values[3] as string | null;
  let title = values[4] as string | null | 0;
  let company = values[5] as string | null | 0;
  if (title === 0 || company === 0) {
    // The first job, [company, domain, title, ...], its trailing nulls left out.
    if (!scan.literal('[[')) return null;
    const job: (string | null | 0 | undefined)[] = scan.literal(']') ? [] : [scan.text()];
    while (job.length > 0 && job.length < 3 && scan.comma()) job.push(scan.text());
    if (job.includes(undefined) || (job.length > 0 && job.length < 3 && !scan.literal(']'))) return null;
    if (title === 0) title = job[2] ?? null;
    if (company === 0) company = job[0] ?? null;
  }
  return { id, name, title: title as string | null, company: company as string | null, social, location };
}

/** A cursor over stored facts' JSON, reading the values readStoredSummary needs without parsing the rest. */
class FactsScan {
  constructor(
    private readonly facts: string,
    public at: number,
  ) {}

  /** A string or null at the cursor (or 0, where `zero` allows it), moving past it; undefined when it is none of those. */
  text(zero = false): string | null | 0 | undefined {
    const { facts } = this;
    if (facts.startsWith('null', this.at)) {
      this.at += 4;
      return null;
    }
    if (zero && facts.charCodeAt(this.at) === 0x30) {
      this.at++;
      return 0;
    }
    if (facts.charCodeAt(this.at) !== 0x22) return undefined;
    let end = this.at + 1;
    let escaped = false;
    for (let c = facts.charCodeAt(end); c !== 0x22; c = facts.charCodeAt(end)) {
      if (Number.isNaN(c)) return undefined;
      if (c === 0x5c) escaped = true;
      end += c === 0x5c ? 2 : 1;
    }
    let value: string;
    try {
      value = escaped ? (JSON.parse(facts.slice(this.at, end + 1)) as string) : facts.slice(this.at + 1, end);
    } catch {
      return undefined;
    }
    this.at = end + 1;
    return value;
  }

  comma(): boolean {
    return this.literal(',');
  }

  literal(text: string): boolean {
    if (!this.facts.startsWith(text, this.at)) return false;
    this.at += text.length;
    return true;
  }
}

/**
 * A candidate's facts as one row of values, version 3: rank, score, the summary's id, name, title, company, profile
 * and location, then first name, last name, name parts ([tokens, first, last] or null), e-mails, jobs (each [company,
 * domain, title, started, ended, status]) and country; the facts' name, profile slug and location as 0 when the
 * summary's. Still read; written by version 3 only.
 */
type Version3Row = [
  rank: number, score: number | null,
  id: string | null, name: string | null, title: string | null, company: string | null, social: string | null, location: string | null,
  firstName: string | null, lastName: string | null, nameParts: [string[], string, string] | null, emails: string[],
  jobs: [string | null, string | null, string | null, string | null, string | null, JobFact['status']][], country: string | null,
  factsName: string | null | 0, slug: string | null | 0, factsLocation: string | null | 0,
];

/**
 * A candidate's facts as one row of values, version 4, each 0 standing for what reading makes again: the summary's id,
 * name, profile and location; its title and company (0: its first job's); the jobs (StoredJob); first and last name (0:
 * the name's first and last word); the name parts (0: the name lower-cased, split at spaces, its first and last token;
 * the tokens alone: their first and last); the country (0: the location's last part, after its last ", "); e-mails (0:
 * none); the facts' name, profile slug and location (0: the summary's). 0s at the end are left out. No rank or score:
 * those are the answer's (its `r`).
 */
type StoredRow = [
  id: string | null, name: string | null, social: string | null, location: string | null, title: string | null | 0, company: string | null | 0,
  jobs: StoredJob[], firstName?: string | null | 0, lastName?: string | null | 0, nameParts?: [string[], string, string] | string[] | null | 0,
  country?: string | null | 0, emails?: string[] | 0, factsName?: string | null | 0, slug?: string | null | 0, factsLocation?: string | null | 0,
];

/**
 * A job: company, domain, title, started and ended (dates as numbers, YYYYMMDD, YYYYMM or YYYY: datePacked), its
 * status left out when its end says it (none: current; one: ended), trailing nulls then left out too; otherwise its
 * status as a number (JOB_STATUSES).
 */
type StoredJob = (string | number | null)[];
const JOB_STATUSES: readonly JobFact['status'][] = ['current', 'ended', 'unknown'];

function storedCandidate(f: CandidateFacts): StoredRow {
  const { summary: s, nameParts: parts, jobs } = f;
  const [firstJob] = jobs;
  const row: StoredRow = [
    s.id, s.name, s.social, s.location,
    firstJob && firstJob.title === s.title ? 0 : s.title, firstJob && firstJob.company === s.company ? 0 : s.company,
    jobs.map(storedJob),
    f.firstName === firstWordOf(s.name) ? 0 : f.firstName, f.lastName === lastWordOf(s.name) ? 0 : f.lastName,
    storedParts(parts, s.name), f.country === countryOf(s.location) ? 0 : f.country, f.emails.length === 0 ? 0 : f.emails,
    f.name === s.name ? 0 : f.name, f.slug === s.social ? 0 : f.slug, f.location === s.location ? 0 : f.location,
  ];
  while (row.length > 7 && row[row.length - 1] === 0) row.pop();
  return row;
}

function storedJob(j: JobFact): StoredJob {
  const job: StoredJob = [j.company, j.domain, j.title, datePacked(j.started), datePacked(j.ended)];
  if (j.status !== (j.ended === null ? 'current' : 'ended')) job.push(JOB_STATUSES.indexOf(j.status));
  else while (job.length > 0 && job[job.length - 1] === null) job.pop();
  return job;
}

function storedParts(parts: NameParts | null, name: string | null): StoredRow[9] {
  if (!parts) return null;
  const { tokens, first, last } = parts;
  if (first !== tokens[0] || last !== tokens[tokens.length - 1]) return [tokens, first, last];
  const lower = name?.toLowerCase().split(' ');
  return lower && lower.length === tokens.length && lower.every((t, i) => t === tokens[i]) ? 0 : tokens;
}

/** A looseDate as a number (2024-03-05 as 20240305), four bytes shorter in JSON; anything else as it is. */
function datePacked(date: string | null): string | number | null {
  // Nearly every date is a whole day (looseDate): read by its digits, without the regex.
  if (date !== null && date.length === 10 && date.charCodeAt(0) !== 48 && isIsoDay(date)) return digitsAt(date, 0, 4) * 10_000 + digitsAt(date, 5, 2) * 100 + digitsAt(date, 8, 2);
  return date !== null && /^[1-9]\d{3}(-\d\d){0,2}$/.test(date) ? Number(date.replaceAll('-', '')) : date;
}

function dateRead(value: string | number | null | undefined): string | null {
  if (typeof value !== 'number') return value ?? null;
  const digits = String(value);
  return digits.length === 8 ? `${digits.slice(0, 4)}-${digits.slice(4, 6)}-${digits.slice(6)}` : digits.length === 6 ? `${digits.slice(0, 4)}-${digits.slice(4)}` : digits;
}

/** The name's first word (the part before its first space), without splitting it. */
function firstWordOf(name: string | null): string | null {
  if (name == null) return null;
  const space = name.indexOf(' ');
  return space === -1 ? name : name.slice(0, space);
}

/** The name's last word when it has more than one (the part after its last space), without splitting it. */
function lastWordOf(name: string | null): string | null {
  const space = name == null ? -1 : name.lastIndexOf(' ');
  return space === -1 ? null : name!.slice(space + 1);
}

function countryOf(location: string | null): string | null {
  if (location === null) return null;
  const comma = location.lastIndexOf(', ');
  return comma === -1 ? location : location.slice(comma + 2);
}

function isVersion3Row(row: unknown): boolean {
  return Array.isArray(row) && typeof row[0] === 'number';
}

/** Throws on a row that is not one storedCandidate made (of version 3 or 4): readStoredFacts then reads the answer as unreadable. */
function readCandidate(row: unknown): CandidateFacts {
  if (!Array.isArray(row)) throw new TypeError('stored facts of another shape');
  if (isVersion3Row(row)) return readVersion3(row);
  if (row.length < 7 || row.length > 15 || !Array.isArray(row[6])) throw new TypeError('stored facts of another shape');
  const [id, name, social, location, title, company, jobs, firstName = 0, lastName = 0, parts = 0, country = 0, emails = 0, factsName = 0, slug = 0, factsLocation = 0] =
    row as StoredRow;
  const [firstJob] = jobs;
  return {
    rank: 0,
    score: null,
    summary: {
      id,
      name,
      title: title === 0 ? ((firstJob?.[2] as string | null | undefined) ?? null) : title,
      company: company === 0 ? ((firstJob?.[0] as string | null | undefined) ?? null) : company,
      social,
      location,
    },
    name: factsName === 0 ? name : factsName,
    firstName: firstName === 0 ? firstWordOf(name) : firstName,
    lastName: lastName === 0 ? lastWordOf(name) : lastName,
    nameParts: readParts(parts, name),
    slug: slug === 0 ? social : slug,
    emails: emails === 0 ? [] : emails,
    jobs: jobs.map(readJob),
    location: factsLocation === 0 ? location : factsLocation,
    country: country === 0 ? countryOf(location) : country,
  };
}

function readJob(job: StoredJob): JobFact {
  const [company = null, domain = null, title = null, started = null, ended = null, status] = job as [string | null, string | null, string | null, number | string | null, number | string | null, number?];
  const end = dateRead(ended);
  if (status !== undefined && JOB_STATUSES[status] === undefined) throw new TypeError('a job of another status');
  return { company, domain, title, started: dateRead(started), ended: end, status: status === undefined ? (end === null ? 'current' : 'ended') : JOB_STATUSES[status]! };
}

function readParts(parts: StoredRow[9], name: string | null): NameParts | null {
  if (parts === 0) {
    const tokens = name!.toLowerCase().split(' ');
    return { tokens, first: tokens[0]!, last: tokens[tokens.length - 1]! };
  }
  if (!parts) return null;
  if (Array.isArray(parts[0])) return { tokens: parts[0], first: parts[1] as string, last: parts[2] as string };
  const tokens = parts as string[];
  return { tokens, first: tokens[0]!, last: tokens[tokens.length - 1]! };
}

function readVersion3(row: unknown[]): CandidateFacts {
  if (row.length !== 17 || !Array.isArray(row[12])) throw new TypeError('stored facts of another shape');
  const [rank, score, id, name, title, company, social, location, firstName, lastName, parts, emails, jobs, country, factsName, slug, factsLocation] = row as Version3Row;
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
  if (s.length === 10 && isIsoDay(s)) return isoDayInRange(s) ? s : null;
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

/** inRange for a YYYY-MM-DD (isIsoDay), read by its digits. */
function isoDayInRange(date: string): boolean {
  const year = digitsAt(date, 0, 4);
  const month = digitsAt(date, 5, 2);
  const day = digitsAt(date, 8, 2);
  return year >= 1900 && year <= 2100 && month >= 1 && month <= 12 && day >= 1 && day <= 31;
}

/** The number the `count` decimal digits at `from` write (the caller checked they are digits). */
function digitsAt(text: string, from: number, count: number): number {
  let n = 0;
  for (let i = from; i < from + count; i++) n = n * 10 + text.charCodeAt(i) - 48;
  return n;
}

function inRange(date: string): string | null {
  const year = Number(date.slice(0, 4));
  const month = date.length >= 7 ? Number(date.slice(5, 7)) : 1;
  const day = date.length >= 10 ? Number(date.slice(8, 10)) : 1;
  return year >= 1900 && year <= 2100 && month >= 1 && month <= 12 && day >= 1 && day <= 31 ? date : null;
}
