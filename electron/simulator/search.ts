// search: filter validation, compilation into one predicate per request, job_group semantics, and paging.
import { createHash } from 'node:crypto';
import type { Education, Job, Person } from './dataset';
import { InvalidRequestError, normalizeSlug, type PeopleIndex } from './find';
import { foldedTokens, tokenSimilarity } from './scoring';

export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 100;
const MAX_DEPTH = 8;
const MAX_VALUES = 1000;

type Scope = 'person' | 'job' | 'education';
/** text: fuzzy by words; keyword: a short label; slug: an identifier; company: a company name; date: YYYY-MM-DD. */
type Kind = 'text' | 'keyword' | 'slug' | 'company' | 'date';

interface FieldSpec {
  scope: Scope;
  kind: Kind;
  read(entity: Person | Job | Education): string | null | undefined;
}

const person = (kind: Kind, read: (p: Person) => string | null | undefined): FieldSpec => ({ scope: 'person', kind, read: read as FieldSpec['read'] });
const job = (kind: Kind, read: (j: Job) => string | null | undefined): FieldSpec => ({ scope: 'job', kind, read: read as FieldSpec['read'] });
const school = (kind: Kind, read: (e: Education) => string | null | undefined): FieldSpec => ({ scope: 'education', kind, read: read as FieldSpec['read'] });

/** Searchable person fields, by path. `linkedin` is the third-party name for `social`. */
export const SEARCH_FIELDS: Readonly<Record<string, FieldSpec>> = {
  id: person('keyword', (p) => p.id),
  name: person('text', (p) => p.name),
  first_name: person('text', (p) => p.first_name),
  last_name: person('text', (p) => p.last_name),
  social: person('slug', (p) => p.linkedin),
  linkedin: person('slug', (p) => p.linkedin),
  location: person('text', (p) => p.location),
  country: person('keyword', (p) => p.country),
  'location_details.country': person('keyword', (p) => p.location_details.country),
  'location_details.locality': person('keyword', (p) => p.location_details.locality),
  'location_details.region': person('keyword', (p) => p.location_details.region),
  position: person('text', (p) => p.position),
  'jobs.title': job('text', (j) => j.title),
  'jobs.function': job('keyword', (j) => j.function),
  'jobs.level': job('keyword', (j) => j.level),
  'jobs.location': job('text', (j) => j.location),
  'jobs.started_at': job('date', (j) => j.started_at),
  'jobs.ended_at': job('date', (j) => j.ended_at),
  'jobs.company.id': job('keyword', (j) => j.company.id),
  'jobs.company.name': job('company', (j) => j.company.name),
  'jobs.company.social': job('slug', (j) => j.company.social),
  'jobs.company.domain': job('slug', (j) => j.company.domain),
  'jobs.company.industry': job('keyword', (j) => j.company.industry),
  'jobs.company.country': job('keyword', (j) => j.company.country),
  'education.school': school('text', (e) => e.school),
  'education.degree': school('text', (e) => e.degree),
  'education.field_of_study': school('text', (e) => e.field_of_study),
  'education.started_at': school('date', (e) => e.started_at),
  'education.ended_at': school('date', (e) => e.ended_at),
};

type Test = (entity: Person | Job | Education) => boolean;
type PersonTest = (p: Person) => boolean;

interface Leaf {
  spec: FieldSpec;
  must: boolean;
  test: Test;
  jobGroup: number | null;
}

export interface SearchRequest {
  matches: PersonTest;
  size: number;
  /** Index of the first person of the page in the full result. */
  offset: number;
  /** Identifies the criteria and page size: paging tokens are only valid for the request that issued them. */
  key: string;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function fail(message: string): never {
  throw new InvalidRequestError(message);
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

function readDate(value: unknown, where: string): string | null {
  if (value === undefined || value === null) return null;
  const m = typeof value === 'string' ? DATE.exec(value) : null;
  if (!m) fail(`${where} must be a date written YYYY-MM-DD, got ${JSON.stringify(value)}.`);
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const check = new Date(Date.UTC(year, month - 1, day));
  if (check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day) fail(`${where} is not a real date: ${value}.`);
  return value as string;
}

/** Remembers a test's answer per distinct value: titles, companies and places repeat across 200,000 people. */
function remembered(test: (value: string) => boolean): (value: string) => boolean {
  const memory = new Map<string, boolean>();
  return (value) => {
    let answer = memory.get(value);
    if (answer === undefined) {
      answer = test(value);
      if (memory.size > 200_000) memory.clear();
      memory.set(value, answer);
    }
    return answer;
  };
}

function valueTest(spec: FieldSpec, matchType: 'fuzzy' | 'exact', values: string[], index: PeopleIndex): (value: string) => boolean {
  if (spec.kind === 'company' && matchType === 'fuzzy') {
    // The same company similarity find uses: "acme", "ACME Inc." and "Acme Sytems" all reach "Acme Systems GmbH".
    const names = new Set<string>();
    for (const query of new Set(values)) {
      for (const company of index.companyMatcher.similarities(query).keys()) names.add(index.companyName(company));
    }
    return (value) => names.has(value);
  }
  switch (spec.kind) {
    case 'slug': {
      const wanted = values.map(normalizeSlug);
      if (matchType === 'exact') {
        const set = new Set(wanted);
        return (value) => set.has(normalizeSlug(value));
      }
      return remembered((value) => wanted.some((w) => normalizeSlug(value).includes(w)));
    }
    case 'company':
    case 'text':
    case 'keyword': {
      if (matchType === 'exact') {
        const set = new Set(values.map((v) => v.trim().normalize('NFC').toLowerCase()));
        return remembered((value) => set.has(value.trim().normalize('NFC').toLowerCase()));
      }
      // Every word asked for appears in the value, accents, case and one typo per word forgiven.
      const wanted = values.map(foldedTokens).filter((tokens) => tokens.length > 0);
      return remembered((value) => {
        const own = foldedTokens(value);
        return wanted.some((tokens) => tokens.every((t) => own.some((o) => tokenSimilarity(t, o) > 0)));
      });
    }
    case 'date':
      // Dates compared by prefix: "2020" is any day of 2020, "2020-03" any day of March 2020.
      return (value) => values.some((v) => value.startsWith(v));
  }
}

function compileLeaf(filter: Record<string, unknown>, where: string, index: PeopleIndex): Leaf {
  const { field, type, match_type: matchType, string_values: stringValues, date_from: dateFrom, date_to: dateTo, job_group: jobGroup } = filter;
  if (typeof field !== 'string') fail(`${where}.field is missing or not a string.`);
  const spec = SEARCH_FIELDS[field];
  if (!spec) fail(`${where}.field "${field}" is not a searchable field; known fields: ${Object.keys(SEARCH_FIELDS).join(', ')}.`);
  if (type !== 'must' && type !== 'must_not') fail(`${where}.type must be "must" or "must_not", got ${JSON.stringify(type)}.`);
  if (matchType !== 'fuzzy' && matchType !== 'exact' && matchType !== 'exists') {
    fail(`${where}.match_type must be "fuzzy", "exact" or "exists", got ${JSON.stringify(matchType)}.`);
  }
  let group: number | null = null;
  if (jobGroup !== undefined && jobGroup !== null) {
    if (typeof jobGroup !== 'number' || !Number.isInteger(jobGroup) || jobGroup < 0) fail(`${where}.job_group must be a non-negative integer.`);
    if (spec.scope !== 'job') fail(`${where}.job_group only applies to jobs.* fields, not "${field}".`);
    group = jobGroup;
  }
  const from = readDate(dateFrom, `${where}.date_from`);
  const to = readDate(dateTo, `${where}.date_to`);
  if ((from !== null || to !== null) && spec.kind !== 'date') fail(`${where}: date_from/date_to only apply to date fields, not "${field}".`);
  if (from !== null && to !== null && from > to) fail(`${where}: date_from ${from} is after date_to ${to}.`);
  let values: string[] | null = null;
  if (stringValues !== undefined && stringValues !== null) {
    if (!Array.isArray(stringValues) || stringValues.some((v) => typeof v !== 'string')) fail(`${where}.string_values must be an array of strings.`);
    if (stringValues.length > MAX_VALUES) fail(`${where}.string_values holds ${stringValues.length} values; the limit is ${MAX_VALUES}.`);
    values = (stringValues as string[]).filter((v) => v.trim() !== '');
    if (matchType !== 'exists' && values.length === 0) fail(`${where}.string_values holds no non-empty value.`);
  }

  const read = spec.read;
  let test: Test;
  if (matchType === 'exists') {
    test = (entity) => {
      const value = read(entity);
      return value !== null && value !== undefined && value !== '';
    };
  } else {
    if (values === null && from === null && to === null) {
      fail(`${where} needs string_values${spec.kind === 'date' ? ' or date_from/date_to' : ''} for match_type "${matchType}".`);
    }
    const matchesValue = values === null ? null : valueTest(spec, matchType, values, index);
    test = (entity) => {
      const value = read(entity);
      if (value === null || value === undefined || value === '') return false;
      if (from !== null && value.slice(0, 10) < from) return false;
      if (to !== null && value.slice(0, 10) > to) return false;
      return matchesValue === null || matchesValue(value);
    };
  }
  return { spec, must: type === 'must', test, jobGroup: group };
}

function compileGroup(filters: unknown, operator: 'and' | 'or', where: string, depth: number, index: PeopleIndex): PersonTest {
  if (depth > MAX_DEPTH) fail(`${where}: filter groups nest deeper than ${MAX_DEPTH} levels.`);
  if (!Array.isArray(filters) || filters.length === 0) fail(`${where} must be a non-empty array of filters.`);
  const parts: PersonTest[] = [];
  const jobGroups = new Map<number, Leaf[]>();
  filters.forEach((filter, i) => {
    const at = `${where}[${i}]`;
    if (!isRecord(filter)) fail(`${at} must be a filter object.`);
    if ('operator' in filter || ('filters' in filter && !('field' in filter))) {
      if ('field' in filter) fail(`${at} has both "operator" and "field": a filter is either a group or a leaf.`);
      const op = filter.operator;
      if (op !== 'and' && op !== 'or') fail(`${at}.operator must be "and" or "or", got ${JSON.stringify(op)}.`);
      const type = filter.type ?? 'must';
      if (type !== 'must' && type !== 'must_not') fail(`${at}.type must be "must" or "must_not", got ${JSON.stringify(type)}.`);
      const inner = compileGroup(filter.filters, op, `${at}.filters`, depth + 1, index);
      parts.push(type === 'must' ? inner : (p) => !inner(p));
      return;
    }
    const leaf = compileLeaf(filter, at, index);
    if (leaf.jobGroup !== null) {
      const members = jobGroups.get(leaf.jobGroup);
      if (members) members.push(leaf);
      else jobGroups.set(leaf.jobGroup, [leaf]);
      return;
    }
    const { must, test } = leaf;
    // Ungrouped jobs.* filters each look at any job: must = some job holds, must_not = no job holds.
    switch (leaf.spec.scope) {
      case 'person': parts.push((p) => test(p) === must); break;
      case 'job': parts.push((p) => p.jobs.some(test) === must); break;
      case 'education': parts.push((p) => (p.education ?? []).some(test) === must); break;
    }
  });
  // Filters sharing a job_group must all hold for one and the same job entry.
  for (const members of jobGroups.values()) {
    parts.push((p) => p.jobs.some((j) => members.every((m) => m.test(j) === m.must)));
  }
  if (parts.length === 1) return parts[0];
  return operator === 'and' ? (p) => parts.every((part) => part(p)) : (p) => parts.some((part) => part(p));
}

function searchKey(filters: unknown, size: number): string {
  return createHash('sha256').update(JSON.stringify({ filters, size })).digest('hex').slice(0, 16);
}

export function encodePageToken(key: string, offset: number): string {
  return Buffer.from(`${key}:${offset}`).toString('base64url');
}

function decodePageToken(token: string, key: string): number {
  const text = Buffer.from(token, 'base64url').toString();
  const m = /^([0-9a-f]{16}):(\d{1,9})$/.exec(text);
  if (!m) fail('pagination_token is not a token this service issued.');
  if (m[1] !== key) fail('pagination_token belongs to a different search: send the same filters and size as the first page.');
  return Number(m[2]);
}

export function parseSearchRequest(body: unknown, index: PeopleIndex): SearchRequest {
  if (!isRecord(body)) fail('The request body must be a JSON object with a "filters" array.');
  const { filters, size: rawSize, pagination_token: token } = body;
  if (filters === undefined) fail('"filters" is required: an array of filter objects.');
  const matches = compileGroup(filters, 'and', 'filters', 0, index);
  let size = DEFAULT_PAGE_SIZE;
  if (rawSize !== undefined && rawSize !== null) {
    if (typeof rawSize !== 'number' || !Number.isInteger(rawSize) || rawSize < 0 || rawSize > MAX_PAGE_SIZE) {
      fail(`"size" must be an integer from 0 to ${MAX_PAGE_SIZE}, got ${JSON.stringify(rawSize)}.`);
    }
    size = rawSize;
  }
  const key = searchKey(filters, size);
  let offset = 0;
  if (token !== undefined && token !== null) {
    if (typeof token !== 'string' || token === '') fail('"pagination_token" must be a string from a previous reply, or null.');
    offset = decodePageToken(token, key);
  }
  return { matches, size, offset, key };
}

/** Full result lists of recent searches, so paging does not re-scan everyone for every page. */
export class SearchResults {
  private readonly recent = new Map<string, Int32Array>();
  constructor(private readonly index: PeopleIndex, private readonly keep = 16) {}

  run(request: SearchRequest): { people: number[]; count: number; nextToken: string | null } {
    let all = this.recent.get(request.key);
    if (all) {
      this.recent.delete(request.key);
    } else {
      const found: number[] = [];
      const people = this.index.people;
      for (let i = 0; i < people.length; i++) if (request.matches(people[i])) found.push(i);
      all = Int32Array.from(found);
    }
    this.recent.set(request.key, all);
    if (this.recent.size > this.keep) this.recent.delete(this.recent.keys().next().value!);
    if (request.offset > all.length || (request.offset === all.length && request.offset > 0)) {
      fail('pagination_token points past the last page of this search.');
    }
    const end = Math.min(all.length, request.offset + request.size);
    const page = request.size === 0 ? [] : Array.from(all.subarray(request.offset, end));
    const nextToken = request.size > 0 && end < all.length ? encodePageToken(request.key, end) : null;
    return { people: page, count: all.length, nextToken };
  }
}

export function renderSearchReply(index: PeopleIndex, people: readonly number[], count: number, nextToken: string | null): string {
  return `{"people":[${people.map((p) => index.personJson(p)).join(',')}],"count":${count},"pagination_token":${JSON.stringify(nextToken)}}`;
}
