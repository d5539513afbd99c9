import type { Database } from 'better-sqlite3';
import { MAX_CANDIDATES, rankedFacts, readStoredFacts, type CandidateFacts } from '../matching';
import { getAnswerFacts, getLookups } from '../store';

/**
 * The candidates' facts of the stored 'ok' answers among `keys` fetched at or after `freshAfterMs`, by key, in rank
 * order: as stored beside each answer, or made from its candidates for an answer stored without them (or by
 * another version). An answer whose JSON no longer parses is left out: a miss, asked again.
 */
export function answerFacts(db: Database, keys: readonly string[], freshAfterMs: number): Map<string, CandidateFacts[]> {
  const facts = new Map<string, CandidateFacts[]>();
  const unread: string[] = [];
  for (const [key, stored] of getAnswerFacts(db, keys, freshAfterMs)) {
    const parsed = stored ? readStoredFacts(stored.facts) : null;
    if (parsed) facts.set(key, parsed.slice(0, MAX_CANDIDATES));
    else unread.push(key);
  }
  if (unread.length === 0) return facts;
  for (const [key, lookup] of getLookups(db, unread, freshAfterMs)) {
    if (lookup.status === 'ok') facts.set(key, rankedFacts(lookup.candidates ?? []));
  }
  return facts;
}

/** The facts of one stored answer, any age (the row was settled by it); null when there is none. */
export function factsOf(db: Database, queryKey: string | null): CandidateFacts[] | null {
  if (!queryKey) return null;
  return answerFacts(db, [queryKey], Number.MIN_SAFE_INTEGER).get(queryKey) ?? null;
}
