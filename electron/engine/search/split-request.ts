import type { SearchFilter } from '../../../shared/search-filters';

export const DEFAULT_CHUNK_SIZE = 100;
/** More calls than this for one search is almost surely a mistake (two long lists multiply). */
export const MAX_SPLIT_CALLS = 1_000;

export class TooManyCalls extends Error {
  override readonly name = 'TooManyCalls';
  constructor(readonly calls: number) {
    super(
      `Splitting the long value lists of these filters would take ${calls} separate searches, more than the ` +
        `${MAX_SPLIT_CALLS} allowed (two long lists multiply). Shorten one of the lists, or send more values per call.`,
    );
  }
}

/**
 * Splits every `must` filter whose value list is longer than `chunkSize` into lists of at most `chunkSize`, one
 * request per combination. Sound because a `must` list is any-of: (A1 or A2) and B = (A1 and B) or (A2 and B), also
 * inside a job_group. A `must_not` list is never split: "none of A1" or "none of A2" is not "none of A".
 */
export function splitRequest(filters: readonly SearchFilter[], chunkSize = DEFAULT_CHUNK_SIZE): SearchFilter[][] {
  if (!Number.isInteger(chunkSize) || chunkSize < 1) throw new RangeError(`chunkSize must be a whole number of 1 or more, got ${chunkSize}`);
  const choices: SearchFilter[][] = filters.map((filter) => {
    const values = filter.string_values;
    if (filter.type !== 'must' || !values || values.length <= chunkSize) return [filter];
    const parts: SearchFilter[] = [];
    for (let i = 0; i < values.length; i += chunkSize) parts.push({ ...filter, string_values: values.slice(i, i + chunkSize) });
    return parts;
  });
  const calls = choices.reduce((n, c) => n * c.length, 1);
  if (calls > MAX_SPLIT_CALLS) throw new TooManyCalls(calls);
  let requests: SearchFilter[][] = [[]];
  for (const options of choices) requests = requests.flatMap((prefix) => options.map((option) => [...prefix, option]));
  return requests;
}
