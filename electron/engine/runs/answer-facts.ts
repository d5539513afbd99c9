import type { Database } from 'better-sqlite3';
import { MAX_CANDIDATES, rankedFacts, readStoredFacts, type CandidateFacts } from '../matching';
import { getAnswerFacts, getLookups } from '../store/lookups';

/**
 * The candidates' facts of the stored 'ok' answers to the queries `ids` fetched at or after `freshAfterMs`, by query
 * id, in rank order: as stored beside each answer, or made from its candidates for an answer stored without them (or
 * by another version). An answer whose JSON no longer parses is left out: a miss, asked again.
 */
export function answerFacts(db: Database, ids: readonly number[], freshAfterMs: number): Map<number, CandidateFacts[]> {
  const facts = new Map<number, CandidateFacts[]>();
  for (const [id, answer] of answersOnFile(db, ids, freshAfterMs)) facts.set(id, answer.facts);
  return facts;
}

/** A stored 'ok' answer as settling rows reads it: its candidates' facts, and when it was fetched. */
export interface AnswerOnFile {
  facts: CandidateFacts[];
  fetchedAt: number;
}

/** As answerFacts, with each answer's fetch time (a row settled by it keeps that). */
export function answersOnFile(db: Database, ids: readonly number[], freshAfterMs: number): Map<number, AnswerOnFile> {
  const answers = new Map<number, AnswerOnFile>();
  const unread: number[] = [];
  for (const [key, { facts, fetchedAt }] of storedAnswers(db, ids, freshAfterMs)) {
    const parsed = typeof facts === 'string' ? readStoredFacts(facts)?.slice(0, MAX_CANDIDATES) : facts;
    if (parsed) answers.set(key, { facts: parsed, fetchedAt });
    else unread.push(key);
  }
  for (const [key, answer] of madeFromCandidates(db, unread, freshAfterMs)) answers.set(key, answer);
  return answers;
}

/** A stored 'ok' answer as a run's page reads it: its facts' JSON as stored, or made here for an answer stored without them. */
export interface StoredAnswer {
  count: number;
  /** The JSON for the verdict worker to read (row-verdict.ts jobVerdicts), or the facts made from the candidates. */
  facts: string | CandidateFacts[];
  fetchedAt: number;
  /** Its people's ids as stored, when it names them (an answer stored since migration 25). */
  people: number[] | null;
}

/** As answersOnFile, leaving the stored facts' JSON unread: the verdict worker reads it, on its own thread. */
export function storedAnswers(db: Database, ids: readonly number[], freshAfterMs: number): Map<number, StoredAnswer> {
  const answers = new Map<number, StoredAnswer>();
  const unread: number[] = [];
  for (const [key, stored] of getAnswerFacts(db, ids, freshAfterMs)) {
    if (stored?.facts != null) answers.set(key, { count: stored.count, facts: stored.facts, fetchedAt: stored.fetchedAt, people: stored.people });
    else unread.push(key);
  }
  for (const [key, { facts, fetchedAt }] of madeFromCandidates(db, unread, freshAfterMs)) answers.set(key, { count: facts.length, facts, fetchedAt, people: null });
  return answers;
}

/** The 'ok' answers among `ids` with their facts made from their candidates: stored without facts, or by another version. */
function madeFromCandidates(db: Database, ids: readonly number[], freshAfterMs: number): Map<number, AnswerOnFile> {
  const answers = new Map<number, AnswerOnFile>();
  if (ids.length === 0) return answers;
  for (const [key, lookup] of getLookups(db, ids, freshAfterMs)) {
    if (lookup.status === 'ok') answers.set(key, { facts: rankedFacts(lookup.candidates ?? []), fetchedAt: lookup.fetchedAt });
  }
  return answers;
}

/** The facts of one stored answer, any age (the row was settled by it); null when there is none. */
export function factsOf(db: Database, queryId: number | null): CandidateFacts[] | null {
  if (queryId === null) return null;
  return answerFacts(db, [queryId], Number.MIN_SAFE_INTEGER).get(queryId) ?? null;
}
