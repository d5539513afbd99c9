// How much one reply of the service may hold. The spec bounds a find reply (100 queries, 5 people each, §8); the rest
// is set generously above anything real, so only a broken or hostile service meets a limit, and memory stays bounded.
import { MalformedReplyError } from './errors';

/** Spec §4.2 and §8: a find query answers with at most 5 people. */
export const MAX_CANDIDATES_PER_QUERY = 5;
/** Jobs a person record may list: real careers hold a few dozen; each job costs every verdict work. */
export const MAX_JOBS_PER_PERSON = 200;
/** A large person record: 200 jobs of ~330 bytes each, with room to spare. */
export const LARGE_PERSON_BYTES = 64 * 1024;
/** A find or search reply: 100 queries x 5 people x a large record, 32,768,000 bytes (a search page holds 100 people). */
export const MAX_PEOPLE_REPLY_BYTES = 100 * MAX_CANDIDATES_PER_QUERY * LARGE_PERSON_BYTES;
/** A login reply holds a token and its expiry. */
export const MAX_LOGIN_REPLY_BYTES = 64 * 1024;

/** Refuses a person whose job list is longer than MAX_JOBS_PER_PERSON; `where` names the person in the reply. */
export function checkJobs(person: Record<string, unknown>, where: string): void {
  const jobs = person.jobs;
  if (Array.isArray(jobs) && jobs.length > MAX_JOBS_PER_PERSON) {
    throw new MalformedReplyError(`${where} lists ${jobs.length} jobs, more than the ${MAX_JOBS_PER_PERSON} a person record may hold`);
  }
}

/**
 * Separators (`,` `[` `{`) a people reply may hold: about one for each of its values and keys. The largest reply the
 * spec allows (MAX_PEOPLE_REPLY_BYTES of large records, a separator in ~37 bytes of a job) holds about 900,000; parsed,
 * a reply of tiny values within the same bytes (10 million `{}`) made gigabytes of objects.
 */
export const MAX_REPLY_SEPARATORS = 2_000_000;
/** Bodies below this size cannot hold MAX_REPLY_SEPARATORS, and are not counted. */
const COUNTED_FROM_BYTES = MAX_REPLY_SEPARATORS;

/** Refuses a reply body holding more separators than MAX_REPLY_SEPARATORS, before it is parsed; `what` names it. */
export function checkReplyValues(body: Uint8Array, what: string): void {
  if (body.length < COUNTED_FROM_BYTES) return;
  let separators = 0;
  for (let i = 0; i < body.length; i++) {
    const c = body[i]!;
    if (c === 0x2c || c === 0x5b || c === 0x7b) separators++;
  }
  if (separators > MAX_REPLY_SEPARATORS) {
    throw new MalformedReplyError(`the ${what} holds ${separators.toLocaleString('en-US')} values and keys, more than the ${MAX_REPLY_SEPARATORS.toLocaleString('en-US')} a reply of people may hold`);
  }
}
