import type { Database } from 'better-sqlite3';
import { hash } from 'node:crypto';
import type { Candidate, FindQuery } from '../../../shared/model';
import type { CacheStats } from '../../../shared/contract';
import { PersonDigests } from './person-digests';
import { queryFromStored } from './query-text';
import { packedRecordAt, readBlock, recordBlocks, type InBlock, type ReadBlock, type RecordBlock } from './person-blocks';
import type { PackedRecord } from './packed-record';
import { personRecord } from './person-records';
import { CountedStatements, repeated, statement } from './statements';

export interface LookupError {
  kind: string;
  message: string;
  status?: number;
}

/** One version of a person as an answer stores it: found again by its digest (store/person-digests.ts), its facts made once. */
export interface StoredPerson {
  /** The first 64 bits of the SHA-256 of the packed record (matching/candidate-facts.ts answerPeople). */
  digest: bigint;
  /**
   * The record as the service sent it, packed (store/packed-record.ts). Absent for one the reply's reading put in a
   * block (`inBlock`): the verdict worker does not send it twice, and it is read back from the block if needed.
   */
  record?: PackedRecord;
  factsVersion: number;
  /** Its facts as the model reads them, one stored row of values (matching/candidate-facts.ts). */
  facts: string;
  /** Where its record is in a block the reply's reading made (store/person-blocks.ts blockNewPeople), if it put it in one. */
  inBlock?: InBlock;
}

/** An 'ok' answer's candidates as stored: its people, best rank first, and their ranks and scores in it (`[[rank, score], ...]`). */
export interface AnswerPeople {
  people: StoredPerson[];
  ranks: string;
}

/**
 * One cached answer to a find query: the candidates, or the error the service gave. Read with its candidates; an
 * 'ok' answer is stored with `stored` (matching/candidate-facts.ts answerPeople), the people it found once each.
 */
export interface Lookup {
  /** The query's id in `queries` (runs/query-ids.ts): the answer's key. */
  queryId: number;
  /** The query as `queries` holds it (read back; not written with the answer); null for one known by its key alone (migration 28). */
  query: FindQuery | null;
  /** Milliseconds since the epoch. */
  fetchedAt: number;
  status: 'ok' | 'error';
  candidates: Candidate[] | null;
  error: LookupError | null;
  stored?: AnswerPeople;
}

/** What settling rows needs from an 'ok' answer: how many were found, and their facts (null for an answer stored without). */
export interface AnswerFacts {
  count: number;
  facts: string | null;
  /** When the answer was fetched (ms): a row settled by it keeps this. */
  fetchedAt: number;
  /** Its people's ids as stored (`lookups.people`); null for one stored with its facts beside it (before migration 25). */
  people: number[] | null;
}

export type { CacheStats };

/** SQLite's default limit on bound parameters is far higher, but long IN lists plan and prepare slowly. */
const MAX_KEYS_PER_STATEMENT = 500;

/**
 * The digest of a find query, by which its id is found (runs/query-ids.ts): the first 64 bits, signed, of the SHA-256
 * of its service and terms, so identical questions to the same service and organization share it, whatever the term
 * order or the base URL's trailing slash and letter case. Before migration 28 the whole SHA-256 (as 64 hex digits) was
 * the answer's key.
 */
export function queryDigest(baseUrl: string, orgId: string, query: FindQuery): bigint {
  return queryDigests(baseUrl, orgId)(query);
}

/** queryDigest for many queries to one service (planning a sheet hashes one per distinct query): the service part made once. */
export function queryDigests(baseUrl: string, orgId: string): (query: FindQuery) => bigint {
  // The text hashed is JSON.stringify([service, orgId, terms]); its head is the same for every query.
  const head = `${JSON.stringify([baseUrl.replace(/\/+$/, '').toLowerCase(), orgId]).slice(0, -1)},`;
  return ({ fields }) => {
    const terms =
      fields.length === 1
        ? [[fields[0]!.field_name, fields[0]!.search_term]]
        : fields.map((t) => [t.field_name, t.search_term] as const).sort((a, b) => compare(a[0], b[0]) || compare(a[1], b[1]));
    // Its first 64 bits, signed: read from hex, as a Buffer's digest took twice as long.
    return BigInt.asIntN(64, BigInt(`0x${hash('sha256', `${head}${JSON.stringify(terms)}]`, 'hex').slice(0, 16)}`));
  };
}

/**
 * The facts of the stored 'ok' answers to the queries `ids` fetched at or after `freshAfterMs`. An answer stored
 * without facts maps to null: read it whole with getLookups. Errors and missing answers are absent.
 */
export function getAnswerFacts(db: Database, ids: readonly number[], freshAfterMs: number): Map<number, AnswerFacts | null> {
  const found = new Map<number, AnswerFacts | null>();
  const unique = [...new Set(ids)];
  for (let i = 0; i < unique.length; i += MAX_KEYS_PER_STATEMENT) {
    const chunk = paddedKeys(unique.slice(i, i + MAX_KEYS_PER_STATEMENT));
    const rows = factReads.of(db, chunk.length).raw().all(freshAfterMs, ...chunk) as FactRow[];
    for (const [id, count, facts, fetchedAt, people] of rows) {
      found.set(id, count === null || facts === null ? null : { count, facts, fetchedAt, people: people === null ? null : (JSON.parse(people) as number[]) });
    }
  }
  return found;
}

/**
 * An 'ok' answer's people as a review page picks the one it shows: their ids and ranks in stored order, with what
 * their stored facts are (`people.facts` present for all of them, and their versions), read without the facts.
 */
export interface AnswerRanks {
  /** As `lookups.candidate_count`. */
  count: number;
  /** Null for an answer stored with its facts beside it (before migration 25), or one whose list does not read. */
  people: number[] | null;
  /** [rank, score] by the people's order; null when not stored (or not JSON). */
  ranks: [number, number | null][] | null;
  /** How many of its people are stored with facts, and the lowest and highest version of those facts. */
  withFacts: number;
  minVersion: number | null;
  maxVersion: number | null;
}

/** The people and ranks of the stored 'ok' answers to the queries `ids` (any age), by query id; missing ones are absent. */
export function getAnswerRanks(db: Database, ids: readonly number[]): Map<number, AnswerRanks> {
  const found = new Map<number, AnswerRanks>();
  const unique = [...new Set(ids)];
  for (let i = 0; i < unique.length; i += MAX_KEYS_PER_STATEMENT) {
    const chunk = paddedKeys(unique.slice(i, i + MAX_KEYS_PER_STATEMENT));
    const rows = rankReads.of(db, chunk.length).raw().all(Number.MIN_SAFE_INTEGER, ...chunk) as RankRow[];
    for (const [id, count, people, ranks, facts] of rows) {
      const [withFacts, minVersion, maxVersion] = facts === null ? [0, null, null] : (JSON.parse(facts) as [number, number | null, number | null]);
      found.set(id, { count, people: parsedJson<number[]>(people), ranks: parsedJson<[number, number | null][]>(ranks), withFacts, minVersion, maxVersion });
    }
  }
  return found;
}

function parsedJson<T>(json: string | null): T | null {
  try {
    return json === null ? null : (JSON.parse(json) as T);
  } catch {
    return null;
  }
}

/** The stored lookups of the queries `ids` fetched at or after `freshAfterMs`, errors included. Missing ones are absent. */
export function getLookups(db: Database, ids: readonly number[], freshAfterMs: number): Map<number, Lookup> {
  const found = new Map<number, Lookup>();
  const unique = [...new Set(ids)];
  for (let i = 0; i < unique.length; i += MAX_KEYS_PER_STATEMENT) {
    const chunk = paddedKeys(unique.slice(i, i + MAX_KEYS_PER_STATEMENT));
    const rows = lookupReads.of(db, chunk.length).all(freshAfterMs, ...chunk) as LookupRow[];
    for (const row of rows) {
      const lookup = toLookup(db, row);
      if (lookup) found.set(lookup.queryId, lookup);
    }
  }
  return found;
}

/**
 * When the stored answer to query `id` was fetched (any age) and its error when it failed: what a row's detail says of
 * its answer, read without its people's records. Null when none is stored, or its error does not read.
 */
export function answerFetched(db: Database, id: number): { fetchedAt: number; error: LookupError | null } | null {
  const row = statement(db, 'SELECT fetched_at, error FROM lookups WHERE query_id = ?').get(id) as { fetched_at: number; error: string | null } | undefined;
  if (!row) return null;
  try {
    return { fetchedAt: row.fetched_at, error: row.error === null ? null : (JSON.parse(row.error) as LookupError) };
  } catch {
    return null;
  }
}

/**
 * Stores many lookups in one transaction (the caller's, when it has one open). An 'ok' row replaces anything; an
 * 'error' row never replaces an 'ok' row fetched at or after `keepOkAfterMs` (default: any 'ok' row), so a failed
 * refresh never throws away candidates the user could still review. An 'ok' answer's people are added to `people`
 * where no version with their digest is there already, their records compressed in blocks (store/person-blocks.ts);
 * the answer keeps their ids. Returns each row's people's ids as stored, best rank first (null for an error).
 */
export function putLookups(db: Database, rows: readonly Lookup[], opts: { keepOkAfterMs?: number } = {}): (number[] | null)[] {
  const keepOkAfterMs = opts.keepOkAfterMs ?? Number.MIN_SAFE_INTEGER;
  const write = () => {
    const found = rows.map((r) => {
      if (r.status !== 'ok') return null;
      if (!r.stored) throw new Error(`An answer was stored without its people (query ${r.queryId}).`);
      return r.stored.people;
    });
    const people = personIds(db, found);
    // A call's answers in one statement: a statement an answer cost more to run than its write. SQLite takes a
    // statement's rows in order, as it took one statement after another.
    const values: unknown[] = [];
    inSpans(rows.length, (from, count) => {
      values.length = 0;
      for (let i = from; i < from + count; i++) {
        const r = rows[i]!;
        const ok = r.status === 'ok';
        const ids = people[i];
        values.push(
          r.queryId,
          Math.trunc(r.fetchedAt),
          r.status,
          ids ? ids.length : null,
          ok ? null : JSON.stringify(r.error ?? { kind: 'unknown', message: 'No error detail was recorded.' }),
          ids ? JSON.stringify(ids) : null,
          ok ? storedRanks(r.stored!.ranks, ids!.length) : null,
        );
      }
      values.push(keepOkAfterMs);
      upserts.of(db, count).run(values);
    });
    return people;
  };
  // A nested transaction would be a savepoint, and SQLite copies every page a savepoint changes into a statement
  // journal (a temporary file past 64 KB): measured, a run wrote a quarter more with one per call.
  return db.inTransaction ? write() : db.transaction(write)();
}

/** The rows a multi-row write takes (putLookups, storePeople): a whole call's, then what is left in tens, then ones. */
const ROWS_A_STATEMENT = [100, 10, 1];

/** Calls `write(from, count)` over `length` rows in spans of ROWS_A_STATEMENT, in order: a few statements kept. */
function inSpans(length: number, write: (from: number, count: number) => void): void {
  for (let from = 0; from < length; ) {
    const count = ROWS_A_STATEMENT.find((n) => n <= length - from)!;
    write(from, count);
    from += count;
  }
}
/**
 * Writes `count` answers: an 'ok' one replaces anything, an 'error' one never replaces an 'ok' one fetched at or after
 * the last parameter (putLookups' keepOkAfterMs).
 */
const upserts = new CountedStatements(
  (count) => `INSERT INTO lookups (query_id, fetched_at, status, candidate_count, facts, candidates, error, people, ranks)
     VALUES ${repeated('(?, ?, ?, ?, NULL, NULL, ?, ?, ?)', count)}
     ON CONFLICT (query_id) DO UPDATE SET
       fetched_at = excluded.fetched_at, status = excluded.status, candidate_count = excluded.candidate_count,
       facts = NULL, candidates = NULL, error = excluded.error, people = excluded.people, ranks = excluded.ranks
     WHERE NOT (excluded.status = 'error' AND lookups.status = 'ok' AND lookups.fetched_at >= ?)`,
);

/**
 * Answers stored before migration 25 (their candidates' records and facts beside them) after rowid `after`, oldest
 * first, at most `limit`: what runs/answer-people.ts moves to the new layout.
 */
export function answersToMove(db: Database, after: number, limit: number): { rowid: number; candidates: string }[] {
  // The rowid is the query's id (migration 28), and a column read as rowid is named by it.
  return statement(db, 'SELECT query_id AS rowid, candidates FROM lookups WHERE query_id > ? AND people IS NULL AND candidates IS NOT NULL ORDER BY query_id LIMIT ?').all(after, limit) as {
    rowid: number;
    candidates: string;
  }[];
}

/** How many answers stored before migration 25 are left to move. */
export function answersLeftToMove(db: Database): number {
  return db.prepare('SELECT count(*) FROM lookups WHERE people IS NULL AND candidates IS NOT NULL').pluck().get() as number;
}

/**
 * Answers stored before migration 25 in the new layout, in the caller's transaction: their people stored once (the
 * new ones' records in blocks together), their ids and ranks kept, their candidates and facts dropped. `stored` null:
 * its candidates no longer read, so it goes (a miss, asked again).
 */
export function moveAnswers(db: Database, moves: readonly { rowid: number; stored: AnswerPeople | null }[]): void {
  const people = personIds(db, moves.map((m) => m.stored?.people ?? null));
  for (const [i, { rowid, stored }] of moves.entries()) {
    const ids = people[i];
    if (!stored || !ids) statement(db, 'DELETE FROM lookups WHERE rowid = ?').run(rowid);
    else statement(db, 'UPDATE lookups SET candidate_count = ?, facts = NULL, candidates = NULL, people = ?, ranks = ? WHERE rowid = ?').run(ids.length, JSON.stringify(ids), storedRanks(stored.ranks, ids.length), rowid);
  }
}

/** A person version not stored yet, met in this write: its `people` id once added. */
interface NewPerson {
  person: StoredPerson;
  id: number;
}

/**
 * The ids of each list of people (null for none), each person added where no version with its digest is stored yet.
 * The new people's records go into blocks: the block the reply's reading made, where at least half of it is new
 * (the rest of it is kept, unread); the others into one made here.
 */
function personIds(db: Database, lists: readonly (readonly StoredPerson[] | null)[]): (number[] | null)[] {
  const digests = PersonDigests.of(db);
  digests.catchUp();
  const added = new Map<bigint, NewPerson>();
  const found = lists.map((people) =>
    people === null
      ? null
      : people.map((person): number | NewPerson => {
          const known = digests.idOf(person.digest);
          if (known !== undefined) return known;
          let fresh = added.get(person.digest);
          if (!fresh) added.set(person.digest, (fresh = { person, id: 0 }));
          return fresh;
        }),
  );
  if (added.size > 0) addPeople(db, [...added.values()]);
  return found.map((ids) => (ids === null ? null : ids.map((id) => (typeof id === 'number' ? id : id.id))));
}

/** Adds these new people, their records in blocks, and sets their ids. */
function addPeople(db: Database, people: readonly NewPerson[]): void {
  const addBlock = statement(db, 'INSERT INTO person_blocks (data) VALUES (?)');
  const placed: { p: NewPerson; block: number; position: number }[] = [];
  const add = (p: NewPerson, block: number, position: number) => placed.push({ p, block, position });
  const newInBlock = new Map<RecordBlock, number>();
  for (const { person } of people) if (person.inBlock) newInBlock.set(person.inBlock.block, (newInBlock.get(person.inBlock.block) ?? 0) + 1);
  const blockIds = new Map<RecordBlock, number>();
  const unblocked: NewPerson[] = [];
  for (const p of people) {
    const inBlock = p.person.inBlock;
    if (!inBlock || newInBlock.get(inBlock.block)! * 2 < inBlock.block.count) {
      unblocked.push(p);
      continue;
    }
    let id = blockIds.get(inBlock.block);
    if (id === undefined) blockIds.set(inBlock.block, (id = Number(addBlock.run(inBlock.block.data).lastInsertRowid)));
    add(p, id, inBlock.position);
  }
  // A person sent without their record (in a block of the reply's, mostly people stored already): read from that block.
  const read = new Map<RecordBlock, ReadBlock>();
  const recordOf = ({ person }: NewPerson): PackedRecord => {
    if (person.record) return person.record;
    if (!person.inBlock) throw new Error('A new person came without their record.');
    const { block, position } = person.inBlock;
    let lines = read.get(block);
    if (!lines) read.set(block, (lines = readBlock(block.data)));
    return packedRecordAt(lines, position);
  };
  let from = 0;
  for (const { block, records } of recordBlocks(unblocked.map(recordOf))) {
    const id = Number(addBlock.run(block.data).lastInsertRowid);
    for (let position = 0; position < records; position++) add(unblocked[from + position]!, id, position);
    from += records;
  }
  storePeople(db, placed);
}

/**
 * Writes new people and their digests, many a statement (two statements a person cost more to run than their
 * writes). Their ids are given, the ones SQLite would give: one past the largest, in order.
 */
function storePeople(db: Database, placed: readonly { p: NewPerson; block: number; position: number }[]): void {
  const digests = PersonDigests.of(db);
  let next = ((statement(db, 'SELECT max(id) FROM people').pluck().get() as number | null) ?? 0) + 1;
  const people: unknown[] = [];
  const digestRows: unknown[] = [];
  inSpans(placed.length, (from, count) => {
    people.length = 0;
    digestRows.length = 0;
    for (let i = from; i < from + count; i++) {
      const { p, block, position } = placed[i]!;
      p.id = next++;
      people.push(p.id, p.person.factsVersion, p.person.facts, block, position);
      digestRows.push(p.id, p.person.digest);
    }
    // The record is in its block: `person` (NOT NULL since migration 25) is an empty BLOB.
    peopleInserts.of(db, count).run(people);
    digestInserts.of(db, count).run(digestRows);
  });
  for (const { p } of placed) digests.add(p.person.digest, p.id);
}

const peopleInserts = new CountedStatements((count) => `INSERT INTO people (id, facts_version, facts, person, block, position) VALUES ${repeated("(?, ?, ?, x'', ?, ?)", count)}`);
const digestInserts = new CountedStatements((count) => `INSERT INTO person_digests (id, digest) VALUES ${repeated('(?, ?)', count)}`);

/** Cached answers (as cacheEntriesBound counts them) above which cacheStats is counted off the engine's thread: each count reads the whole cache. */
export const CACHE_COUNTED_HERE = 50_000;

/** How many answers the cache holds at most, from its last rowid (a query id) alone: queries not answered, or whose answers were deleted, leave gaps. */
export function cacheEntriesBound(db: Database): number {
  return (db.prepare('SELECT max(rowid) FROM lookups').pluck().get() as number | null) ?? 0;
}

/**
 * The statement that counts the cache's figures (one row): it reads every answer, for the bytes of its JSON, and
 * every person stored (once each, however many answers found them).
 */
export function cacheStatsQuery(freshAfterMs: number): { sql: string; params: unknown[] } {
  return {
    sql: `SELECT
         count(*) AS entries,
         coalesce(sum(status = 'ok' AND fetched_at >= @fresh), 0) AS fresh,
         coalesce(sum(status = 'ok' AND fetched_at < @fresh), 0) AS stale,
         coalesce(sum(status = 'error'), 0) AS errors,
         coalesce(sum((SELECT length(CAST(q.query AS BLOB)) FROM queries AS q WHERE q.id = query_id) + coalesce(length(CAST(candidates AS BLOB)), 0)
                      + coalesce(length(CAST(error AS BLOB)), 0) + coalesce(length(people) + length(ranks), 0)), 0)
           + (SELECT coalesce(sum(length(CAST(person AS BLOB))), 0) FROM people) + (SELECT coalesce(sum(length(data)), 0) FROM person_blocks) AS bytes
       FROM lookups`,
    params: [{ fresh: freshAfterMs }],
  };
}

/** The cache's figures from cacheStatsQuery's row. */
export function toCacheStats(row: unknown): CacheStats {
  const r = row as CacheStats;
  return { entries: r.entries, fresh: r.fresh, stale: r.stale, errors: r.errors, bytes: r.bytes };
}

export function cacheStats(db: Database, freshAfterMs: number): CacheStats {
  const { sql, params } = cacheStatsQuery(freshAfterMs);
  return toCacheStats(db.prepare(sql).get(...params));
}

/**
 * Deletes every lookup, or only those fetched before `olderThanMs`, and the people nothing names any more: no answer
 * left, no row's decision (row_status.chosen_person), no refresh's record of them (which later decisions are taken
 * from) and no decision the log could bring back by undo. A block of records goes once none of its people is left:
 * one named person keeps the whole block (its reply's new people, about 17 kB compressed at 100k rows). The block with
 * the largest id is emptied instead, so that its id is not given again (migration 33). Returns how many lookups were
 * deleted.
 */
export function clearCache(db: Database, opts: { olderThanMs?: number } = {}): number {
  PersonDigests.of(db).forget();
  const deleted =
    opts.olderThanMs === undefined ? db.prepare('DELETE FROM lookups').run().changes : db.prepare('DELETE FROM lookups WHERE fetched_at < ?').run(opts.olderThanMs).changes;
  if (deleted > 0) {
    db.exec(`DELETE FROM people WHERE id NOT IN (${NAMED_PEOPLE});
             DELETE FROM person_digests WHERE id NOT IN (SELECT id FROM people);
             DELETE FROM person_blocks WHERE id NOT IN (SELECT block FROM people WHERE block IS NOT NULL) AND id < (SELECT max(id) FROM person_blocks);
             UPDATE person_blocks SET data = x'' WHERE id = (SELECT max(id) FROM person_blocks) AND length(data) > 0
               AND id NOT IN (SELECT block FROM people WHERE block IS NOT NULL);`);
  }
  return deleted;
}

/** The ids of the people an answer, a row's decision, a refresh's record or a decision log entry names. */
const NAMED_PEOPLE = `SELECT j.value FROM lookups AS l, json_each(l.people) AS j WHERE l.people IS NOT NULL
  UNION SELECT chosen_person FROM row_status WHERE chosen_person IS NOT NULL
  UNION SELECT person FROM refreshed_people WHERE person IS NOT NULL
  UNION SELECT person FROM refresh_found WHERE person IS NOT NULL
  UNION SELECT json_extract(before, '$.chosen.personId') FROM decision_log WHERE json_extract(before, '$.chosen.personId') IS NOT NULL
  UNION SELECT json_extract(after, '$.chosen.personId') FROM decision_log WHERE json_extract(after, '$.chosen.personId') IS NOT NULL`;

interface LookupRow {
  query_id: number;
  query: string | null;
  fetched_at: number;
  status: 'ok' | 'error';
  /** The candidates as JSON, stored so before migration 25 (until runs/answer-people.ts moves them). */
  candidates: string | null;
  /** An answer's people's ids, JSON, best rank first: their records are read from `people`. */
  people: string | null;
  ranks: string | null;
  error: string | null;
}

const LOOKUP_COLUMNS = 'query_id, (SELECT q.query FROM queries AS q WHERE q.id = l.query_id) AS query, fetched_at, status, candidates, people, ranks, error';
/**
 * An answer's ranks and scores as `lookups.ranks` stores them: '' for ranks 1 to n in order without scores (what the
 * service sends nearly always: the JSON of those was a fifth of `lookups`), else the JSON.
 */
function storedRanks(ranks: string, count: number): string {
  return count > 0 && count <= MAX_PLAIN_RANKS && ranks === plainRanks(count) ? '' : ranks;
}

/** The ranks 1 to `count` (1 to MAX_PLAIN_RANKS) without scores, as JSON. */
function plainRanks(count: number): string {
  return `${PLAIN_RANKS.slice(0, 9 * count)}]`;
}

/** The service sends at most five people per query (matching/candidate-facts.ts MAX_CANDIDATES). */
const MAX_PLAIN_RANKS = 5;
const PLAIN_RANKS = '[[1,null],[2,null],[3,null],[4,null],[5,null]]';

/** An answer's (`l`) ranks as JSON in SQL, made again from its count when stored as '' (storedRanks). */
const RANKS_SQL = `CASE WHEN l.ranks = '' THEN substr('${PLAIN_RANKS}', 1, 9 * l.candidate_count) || ']' ELSE l.ranks END`;

/**
 * The first facts version storing a person as a row of values (matching/candidate-facts.ts): the rows of that version
 * and of every later one read alike, so an answer's people may be of several of them.
 */
export const ROW_FACTS_VERSION = 3;

/**
 * An answer's facts: as stored beside it before migration 25, or composed of its people's (readStoredFacts reads
 * the ranks in `r`, and rows of facts versions 3 and 4 together, `v` the higher). None when its people's facts were
 * made by versions that do not read together, or some of its people are no longer stored: the answer is then read
 * whole (getLookups), or is a miss.
 */
const FACT_COLUMNS = `query_id, candidate_count,
  CASE WHEN l.people IS NULL THEN facts WHEN l.candidate_count = 0 THEN '{"c":[]}' ELSE
    (SELECT CASE WHEN count(*) = l.candidate_count AND (min(p.facts_version) = max(p.facts_version) OR min(p.facts_version) >= ${ROW_FACTS_VERSION}) THEN
              '{"v":' || max(p.facts_version) || ',"c":[' || group_concat(p.facts, ',' ORDER BY j.key) || '],"p":' || l.people || ',"r":' || ${RANKS_SQL} || '}' END
     FROM json_each(l.people) AS j JOIN people AS p ON p.id = j.value) END AS facts, fetched_at, l.people`;
type FactRow = [number, number | null, string | null, number, string | null];
/** An answer's people and ranks (getAnswerRanks), with how many of its people have facts and of which versions, as JSON. */
const RANK_COLUMNS = `query_id, candidate_count, people, ${RANKS_SQL},
  (SELECT json_array(count(p.facts), min(p.facts_version), max(p.facts_version)) FROM json_each(l.people) AS j JOIN people AS p ON p.id = j.value)`;
type RankRow = [number, number, string | null, string | null, string | null];

/** Reads of the answers to `count` query ids fetched at or after the first parameter, `filter` ending in AND or empty. */
const keyedSql = (columns: string, filter: string) => (count: number) =>
  `SELECT ${columns} FROM lookups AS l WHERE ${filter} fetched_at >= ? AND query_id IN (${repeated('?', count)})`;
const lookupReads = new CountedStatements(keyedSql(LOOKUP_COLUMNS, ''));
const factReads = new CountedStatements(keyedSql(FACT_COLUMNS, "status = 'ok' AND"));
const rankReads = new CountedStatements(keyedSql(RANK_COLUMNS, "status = 'ok' AND"));

/** The lengths an id list is padded to: a few statements kept, instead of one prepared for every length met. */
const KEY_LIST_LENGTHS = [1, 10, 50, 200, MAX_KEYS_PER_STATEMENT];

/**
 * `keys` (at most MAX_KEYS_PER_STATEMENT) padded to the next of KEY_LIST_LENGTHS with copies of the last key, which
 * change nothing in an IN list. A run's pages ask a different number of keys each time, and preparing a statement
 * of a few hundred parameters each time costs far more than the keyed reads it serves.
 */
function paddedKeys(keys: number[]): number[] {
  const length = KEY_LIST_LENGTHS.find((n) => n >= keys.length) ?? keys.length;
  const last = keys[keys.length - 1];
  while (keys.length < length) keys.push(last!);
  return keys;
}

/** A row whose JSON no longer parses, or whose people are no longer all stored, counts as a miss: the next run fetches it again. */
function toLookup(db: Database, row: LookupRow): Lookup | null {
  try {
    return {
      queryId: row.query_id,
      query: row.query === null ? null : queryFromStored(row.query),
      fetchedAt: row.fetched_at,
      status: row.status,
      candidates: row.people !== null ? candidatesOf(db, row.people, row.ranks) : row.candidates === null ? null : (JSON.parse(row.candidates) as Candidate[]),
      error: row.error === null ? null : (JSON.parse(row.error) as LookupError),
    };
  } catch {
    return null;
  }
}

/** The records of an answer's people (their ids, JSON) with its ranks and scores (as storedRanks stored them). */
function candidatesOf(db: Database, people: string, ranks: string | null): Candidate[] {
  const ids = JSON.parse(people) as number[];
  const ranked = JSON.parse(ranks === '' ? plainRanks(ids.length) : (ranks ?? '[]')) as [number, number | null][];
  if (ids.length !== ranked.length) throw new Error('an answer without its ranks');
  return ids.map((id, i) => ({ rank: ranked[i]![0], score: ranked[i]![1], person: personRecord(db, id) }));
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
