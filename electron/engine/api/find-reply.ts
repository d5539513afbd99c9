import type { Candidate, PersonJson } from '../../../shared/model';
import { RecordTooDeep } from '../store/packed-record';
import { MalformedReplyError } from './errors';
import { MAX_CANDIDATES_PER_QUERY, checkJobs } from './reply-limits';

// The find reply's item shape is undocumented and third-party clients disagree:
// accept every shape seen, and refuse anything that would misalign queries and items.
const PERSON_LIST_KEYS = ['people', 'results', 'matches', 'persons'] as const;
const SCORE_KEYS = ['score', '_score', 'match_score'] as const;

/**
 * One Candidate[] per query, in query order. Throws MalformedReplyError for an unknown shape, a count mismatch, or a
 * reply over the limits (reply-limits.ts): a query answered with more than 5 people, a person with too many jobs.
 * Those fail the whole call, as a count mismatch does: a service that breaks the spec there is trusted nowhere.
 */
export function parseFindReply(json: unknown, queryCount: number): Candidate[][] {
  const items = topLevelItems(json);
  if (items.length !== queryCount) {
    throw new MalformedReplyError(`the find reply holds ${items.length} item${items.length === 1 ? '' : 's'} for ${queryCount} quer${queryCount === 1 ? 'y' : 'ies'}, so no result can be trusted to belong to its query`);
  }
  return items.map((item, index) => {
    const people = personsOf(item, index);
    if (people.length > MAX_CANDIDATES_PER_QUERY) {
      throw new MalformedReplyError(`find result ${index + 1} holds ${people.length} people, more than the ${MAX_CANDIDATES_PER_QUERY} a query is answered with`);
    }
    return people.map((entry, rank) => {
      const candidate = candidateAt(entry, rank);
      checkJobs(candidate.person, `person ${rank + 1} of find result ${index + 1}`);
      return candidate;
    });
  });
}

/**
 * What `read` makes of a reply's people (their records packed, matching/candidate-facts.ts answerPeople), a record
 * too deep to pack refused as the reply's fault (MalformedReplyError), as parseFindReply refuses the rest.
 */
export function readPeople<T>(read: () => T): T {
  try {
    return read();
  } catch (error) {
    if (error instanceof RecordTooDeep) throw new MalformedReplyError(error.message);
    throw error;
  }
}

/** A bare array of items, `{matches: [...]}`, `{data: [...]}` or `{data: {matches: [...]}}`: each shape seen in use. */
function topLevelItems(json: unknown): unknown[] {
  if (Array.isArray(json)) return json;
  if (isObject(json) && Array.isArray(json.matches)) return json.matches;
  if (isObject(json) && 'data' in json) {
    const data = json.data;
    if (Array.isArray(data)) return data;
    if (isObject(data) && Array.isArray(data.matches)) return data.matches;
    throw new MalformedReplyError(`expected a list of find results under "data", got ${describe(data)}`);
  }
  throw new MalformedReplyError(`expected a list of find results, got ${describe(json)}`);
}

function personsOf(item: unknown, index: number): unknown[] {
  if (item == null) return [];
  if (Array.isArray(item)) return item;
  if (!isObject(item)) throw new MalformedReplyError(`find result ${index + 1} is ${describe(item)}, not a list of people`);
  if (item.found === false) return [];
  for (const key of PERSON_LIST_KEYS) {
    const value = item[key];
    if (Array.isArray(value)) return value;
    if (value === null) return [];
  }
  if (isObject(item.person)) return [item];
  if (Object.keys(item).length === 0) return [];
  throw new MalformedReplyError(`find result ${index + 1} has no list of people (keys: ${Object.keys(item).slice(0, 8).join(', ')})`);
}

function candidateAt(entry: unknown, index: number): Candidate {
  if (!isObject(entry)) throw new MalformedReplyError(`a person in a find result is ${describe(entry)}, not an object`);
  const wrapped = isObject(entry.person) ? entry.person : null;
  const person: PersonJson = wrapped ?? entry;
  const score = (wrapped ? scoreOf(entry) : null) ?? scoreOf(person);
  return { rank: index + 1, score, person };
}

function scoreOf(record: Record<string, unknown>): number | null {
  for (const key of SCORE_KEYS) {
    const value = record[key];
    if (typeof value === 'number' && Number.isFinite(value)) return value;
    if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))) return Number(value);
  }
  return null;
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return `an object (keys: ${Object.keys(value).slice(0, 8).join(', ') || 'none'})`;
  return `a ${typeof value}`;
}
