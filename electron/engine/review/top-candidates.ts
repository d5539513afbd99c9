import type { Database } from 'better-sqlite3';
import type { PersonSummary } from '../../../shared/model';
import { FACTS_VERSION, MAX_CANDIDATES, readStoredSummary } from '../matching/candidate-facts';
import { answerFacts } from '../runs/answer-facts';
import { getAnswerRanks, type AnswerRanks } from '../store';
import { ROW_FACTS_VERSION } from '../store/lookups';
import { statement } from '../store/statements';

/** The candidate the review list shows for a row waiting for review: its summary and the service's score. */
export interface TopCandidate {
  summary: PersonSummary;
  score: number | null;
}

/** A row waiting for review: the answer it was settled by, and its verdict's best rank (undefined without a verdict). */
export interface WaitingRow {
  queryId: number;
  bestRank: number | undefined;
}

/**
 * The candidate each waiting row shows: the one of its verdict's best rank among the answer's first MAX_CANDIDATES,
 * else the answer's first; undefined when its answer found nobody (or none is stored). Only that person's summary is
 * read, from the front of their stored facts: composing and parsing every candidate's facts whole was most of a page
 * of the review queue. An answer whose facts read otherwise (stored beside it, older versions, a person without facts)
 * is read whole, as answerFacts reads it.
 */
export function topCandidates(db: Database, rows: readonly WaitingRow[]): (row: WaitingRow) => TopCandidate | undefined {
  const answers = getAnswerRanks(db, rows.map((r) => r.queryId));
  const shown = new Map<string, { personId: number; score: number | null }>();
  const whole = new Set<number>();
  for (const row of rows) {
    const answer = answers.get(row.queryId);
    if (!answer || shown.has(keyOf(row))) continue;
    if (!readsAsRows(answer)) whole.add(row.queryId);
    else if (answer.count > 0) {
      const at = placeOf(answer.ranks!, row.bestRank);
      shown.set(keyOf(row), { personId: answer.people![at]!, score: answer.ranks![at]![1] });
    }
  }
  const summaries = summariesOf(db, [...new Set([...shown.values()].map((s) => s.personId))]);
  // A summary that does not read: its answer is read whole, from its people's records where their facts do not read.
  for (const row of rows) {
    const picked = shown.get(keyOf(row));
    if (picked && !summaries.has(picked.personId)) whole.add(row.queryId);
  }
  const facts = whole.size > 0 ? answerFacts(db, [...whole], Number.MIN_SAFE_INTEGER) : new Map<number, never[]>();
  return (row) => {
    if (whole.has(row.queryId)) {
      const candidates = facts.get(row.queryId) ?? [];
      const best = candidates.find((c) => c.rank === row.bestRank) ?? candidates[0];
      return best && { summary: best.summary, score: best.score };
    }
    const picked = shown.get(keyOf(row));
    return picked && { summary: summaries.get(picked.personId)!, score: picked.score };
  };
}

function keyOf(row: WaitingRow): string {
  return `${row.queryId} ${row.bestRank}`;
}

/**
 * Whether the answer's facts compose as readStoredFacts reads them (store/lookups.ts FACT_COLUMNS): it found nobody,
 * or each of its people is stored with facts of a version read as a row, and has a rank.
 */
function readsAsRows(answer: AnswerRanks): boolean {
  if (answer.people === null) return false;
  if (answer.count === 0) return true;
  const { ranks, minVersion, maxVersion } = answer;
  return (
    ranks !== null &&
    ranks.length === answer.count &&
    answer.people.length === answer.count &&
    answer.withFacts === answer.count &&
    minVersion !== null &&
    maxVersion !== null &&
    minVersion >= ROW_FACTS_VERSION &&
    maxVersion <= FACTS_VERSION
  );
}

/** Where the candidate of rank `bestRank` is among the answer's first MAX_CANDIDATES, else the first. */
function placeOf(ranks: readonly [number, number | null][], bestRank: number | undefined): number {
  const at = ranks.slice(0, MAX_CANDIDATES).findIndex(([rank]) => rank === bestRank);
  return at === -1 ? 0 : at;
}

/** The summaries of these people from their stored facts, by id; those whose facts do not read are absent. */
function summariesOf(db: Database, ids: readonly number[]): Map<number, PersonSummary> {
  const found = new Map<number, PersonSummary>();
  if (ids.length === 0) return found;
  const rows = statement(db, 'SELECT id, facts FROM people WHERE id IN (SELECT value FROM json_each(?)) AND facts IS NOT NULL').raw().all(JSON.stringify(ids)) as [number, string][];
  for (const [id, facts] of rows) {
    const summary = readStoredSummary(facts);
    if (summary) found.set(id, summary);
  }
  return found;
}
