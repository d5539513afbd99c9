import type { PersonJson } from '../../../shared/model';
import { MalformedReplyError } from './errors';
import { describe, isObject } from './find-reply';
import { checkJobs } from './reply-limits';

// The search reply's shape is not documented; replies seen carry `{people, count}` and a `pagination_token`.
const PEOPLE_KEYS = ['people', 'results'] as const;
const TOKEN_KEYS = ['pagination_token', 'next', 'nextToken', 'next_page_token'] as const;

export interface SearchReplyPage {
  people: PersonJson[];
  count: number | null;
  token: string | null;
}

export function parseSearchReply(json: unknown): SearchReplyPage {
  if (Array.isArray(json)) return { people: peopleOf(json), count: null, token: null };
  if (!isObject(json)) throw new MalformedReplyError(`expected a page of search results, got ${describe(json)}`);
  let list: unknown[] | null = null;
  for (const key of PEOPLE_KEYS) {
    if (Array.isArray(json[key])) {
      list = json[key];
      break;
    }
  }
  const count = countOf(json.count);
  // `size: 0` asks for the count only, so a reply with a count and no list is an empty page.
  if (!list && count === null) throw new MalformedReplyError(`a search page has no list of people (keys: ${Object.keys(json).slice(0, 8).join(', ')})`);
  return { people: peopleOf(list ?? []), count, token: tokenOf(json) };
}

function peopleOf(list: unknown[]): PersonJson[] {
  return list.map((person, index) => {
    if (!isObject(person)) throw new MalformedReplyError(`a person in a search page is ${describe(person)}, not an object`);
    checkJobs(person, `person ${index + 1} of a search page`);
    return person;
  });
}

function tokenOf(reply: Record<string, unknown>): string | null {
  for (const key of TOKEN_KEYS) {
    const value = reply[key];
    if (typeof value === 'string' && value !== '') return value;
    if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  }
  return null;
}

function countOf(value: unknown): number | null {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'string' && /^\s*\d+\s*$/.test(value)) return Number(value);
  return null;
}
