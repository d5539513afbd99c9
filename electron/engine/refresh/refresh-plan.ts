import type { Database } from 'better-sqlite3';
import type { RefreshPreview } from '../../../shared/contract';
import { MAX_QUERIES_PER_FIND } from '../api';
import { lowerBound } from '../lower-bound';
import { estimatedSeconds, type WorkPace } from '../rows/call-timing';
import type { RowsReader } from '../runs/reading-thread';
import { StampedCache, dataStamp, writingUnreadTablesOnly } from '../store/data-stamp';
import { dropLists, insertUnlistedRefresh, markListed, zeroRefreshCounters } from './refresh-records';
import { chosenSlugSql } from '../rows/row-status';

/** Who a refresh of a project asks for: every chosen person with a profile slug, once, and the rows that chose them. */
export interface RefreshPlan {
  /** Rows with a chosen person (auto or accepted). */
  matchedRows: number;
  rowsWithoutProfile: number;
  /** People left out because their record is younger than olderThanDays. */
  recentPeople: number;
  /** People asked for: distinct profile slugs of the matched rows, less the recent ones. */
  people: number;
}

/**
 * Between two slices of the work: gives other calls their turn, and throws (an EngineError the caller chose) when the
 * work must stop, the engine closing or the refresh cancelled before it began.
 */
export type Turn = () => Promise<void>;

const DAY_MS = 86_400_000;

/**
 * Rows a transaction reads or writes. Listing reads each matched row's chosen person out of its JSON: the whole
 * listing in one transaction held the engine (in Electron, the main process) for seconds, answering nothing. A slice
 * of 5,000 rows holds it only briefly.
 */
const ROWS_PER_SLICE = 5_000;

/**
 * People a statement reads with their freshest record. Read in one statement, a large project's people held the
 * engine's thread for seconds, at every first preview and again at the refresh's start.
 */
export const PEOPLE_PER_SLICE = 5_000;

/** A person with a profile and their freshest record (ms): a refresh's, else the answer their rows were settled by; null for none. */
interface PersonAge {
  slug: string;
  freshest: number | null;
}

// The plan is counted and recorded in SQL, never held: at 1M rows the matched rows as JavaScript arrays and the map of
// people to their rows were 110 MB of live heap in a preview (a collection during it kept 149 MB), held again while a
// refresh was recorded. They are listed in a temporary table instead (the connection's own, never the data file).

const MATCHED = "state IN ('auto', 'accepted')";
/** A slice of the project's matched rows and the profile slug of the person each chose (NULL or not text: no profile). */
const MATCHED_IN_SLICE = `SELECT row_index, ${chosenSlugSql('row_status')} AS slug, fetched_at FROM row_status
  WHERE project_id = @projectId AND row_index >= @from AND row_index < @to AND ${MATCHED}`;
const HAS_PROFILE = "typeof(slug) = 'text' AND slug <> ''";
/**
 * A person's freshest record, over `m` (their slug, and `fetched`: when the freshest answer their rows were settled
 * by was fetched) and `rp` (their last refresh's record in the scope, if any).
 */
const FRESHEST = 'max(coalesce(m.fetched, rp.refreshed_at), coalesce(rp.refreshed_at, m.fetched))';

/**
 * The whole project's matched rows by chosen person, in one statement, for the reading worker: each slug (or none)
 * with its rows, whether it is a profile, and that person's freshest record. One pass and one snapshot of the data,
 * and no temporary table, which the worker's read-only connection could keep only for itself.
 */
const MATCHED_PEOPLE = `SELECT m.profile, m.rows, CASE WHEN m.profile THEN ${FRESHEST} END AS freshest
  FROM (SELECT slug, ${HAS_PROFILE} AS profile, count(*) AS rows, max(fetched_at) AS fetched
        FROM (SELECT ${chosenSlugSql('row_status')} AS slug, fetched_at FROM row_status WHERE project_id = @projectId AND ${MATCHED})
        GROUP BY slug) AS m
  LEFT JOIN refreshed_people AS rp ON m.profile AND rp.scope = @scope AND rp.slug = m.slug`;

let listings = 0;

/**
 * A project's matched rows whose chosen person has a profile, with when the answer each was settled by was fetched,
 * read in slug order; and how many matched rows have no profile. Listed a slice of row indexes at a time, other calls
 * taking their turn in between, then indexed by slug in one statement. Kept in slug order as they were listed, the
 * listing wrote its pages over and over, several times slower than listing the rows in sheet order and indexing them
 * after. `drop` lets the table go.
 */
class MatchedRows {
  readonly table = `refresh_listing_${++listings}`;
  matched = 0;
  withoutProfile = 0;
  /**
   * The data's stamp (data-stamp.ts) when the listing began, moved along by the listing's own writes: still the current
   * one at the end when nothing else was written meanwhile, in the turns between its slices.
   */
  stamp: string;

  constructor(private readonly db: Database) {
    db.exec(`CREATE TEMP TABLE ${this.table} (slug TEXT NOT NULL, row_index INTEGER NOT NULL, fetched_at INTEGER)`);
    this.stamp = dataStamp(db);
  }

  /** Its rows are the connection's own: writing them changes nothing the review keeps (data-stamp.ts). */
  private temp<R>(write: () => R): R {
    const before = dataStamp(this.db);
    const result = writingUnreadTablesOnly(this.db, write);
    if (before === this.stamp) this.stamp = dataStamp(this.db);
    return result;
  }

  async fill(projectId: number, turn: Turn): Promise<void> {
    const last = this.db.prepare('SELECT max(row_index) FROM row_status WHERE project_id = ?').pluck().get(projectId) as number | null;
    const list = this.db.prepare(`INSERT INTO temp.${this.table} (slug, row_index, fetched_at) SELECT slug, row_index, fetched_at FROM (${MATCHED_IN_SLICE}) WHERE ${HAS_PROFILE}`);
    const count = this.db.prepare(`SELECT count(*) FROM row_status WHERE project_id = @projectId AND row_index >= @from AND row_index < @to AND ${MATCHED}`).pluck();
    for (let from = 0; last !== null && from <= last; from += ROWS_PER_SLICE) {
      await turn();
      const slice = { projectId, from, to: from + ROWS_PER_SLICE };
      const matched = count.get(slice) as number;
      const listed = this.temp(() => list.run(slice).changes);
      this.matched += matched;
      this.withoutProfile += matched - listed;
    }
    await turn();
    // With when each answer was fetched, so that a person's freshest answer is read from the index alone.
    this.db.exec(`CREATE INDEX temp.${this.table}_by_slug ON ${this.table} (slug, row_index, fetched_at)`);
  }

  /** Each person with a profile and their freshest record, in slug order: `peoplePerSlice` at a time, a turn before each. */
  async eachPerson(scope: string, turn: Turn, use: (people: PersonAge[]) => void, peoplePerSlice = PEOPLE_PER_SLICE): Promise<void> {
    const slice = this.db.prepare(
      `SELECT m.slug, ${FRESHEST} AS freshest
       FROM (SELECT slug, max(fetched_at) AS fetched FROM temp.${this.table} WHERE slug > @after GROUP BY slug ORDER BY slug LIMIT @limit) AS m
       LEFT JOIN refreshed_people AS rp ON rp.scope = @scope AND rp.slug = m.slug
       ORDER BY m.slug`,
    );
    // Every listed slug is text and not empty (HAS_PROFILE): all of them sort after ''.
    for (let after = ''; ; ) {
      await turn();
      const people = slice.all({ scope, after, limit: peoplePerSlice }) as PersonAge[];
      if (people.length > 0) use(people);
      if (people.length < peoplePerSlice) return;
      after = people[people.length - 1]!.slug;
    }
  }

  drop(): void {
    if (this.db.open) this.temp(() => this.db.exec(`DROP TABLE IF EXISTS temp.${this.table}`));
  }
}

/** When a record must have been fetched before for its person to be asked again (ms); null: everyone is. */
function cutoffOf(olderThanDays: number | null, nowMs: number): number | null {
  return olderThanDays === null ? null : nowMs - olderThanDays * DAY_MS;
}

/** Lists the project's matched rows, then `use`s them; the listing is let go whatever happens. */
async function withMatchedRows<T>(db: Database, projectId: number, turn: Turn, use: (rows: MatchedRows) => Promise<T> | T): Promise<T> {
  const rows = new MatchedRows(db);
  try {
    await rows.fill(projectId, turn);
    return await use(rows);
  } finally {
    rows.drop();
  }
}

/**
 * What a preview needs of a project's matched people whatever the age asked for: kept until the data changes, so the
 * refresh dialog's "older than" field counts again at once. Listing the people takes seconds in a large project (each
 * matched row's chosen person read from its JSON); the ages take 8 bytes a person.
 */
interface PeopleAges {
  matchedRows: number;
  rowsWithoutProfile: number;
  /** Each person's freshest record (ms: a refresh's, else the answer their rows were settled by), in order; -Infinity for none. */
  freshest: Float64Array;
}

const peopleAges = new StampedCache<PeopleAges>(2);

/** How planRefresh reads the people. */
export interface PlanReading {
  /** Reads the matched people on the reading worker (a large project in Electron or the browser host); else they are listed here. */
  elsewhere?: RowsReader;
  /** People read a slice at a time here (PEOPLE_PER_SLICE). */
  peoplePerSlice?: number;
}

/**
 * The chosen people of a project's matched rows, by profile slug (find by `social`), counted. With
 * `olderThanDays` only people whose freshest record (a refresh's, else the answer their rows were settled by) is
 * older than that. Their ages are kept until the data changes, so any other age asked is counted at once.
 */
export async function planRefresh(
  db: Database,
  projectId: number,
  scope: string,
  olderThanDays: number | null,
  nowMs: number,
  turn: Turn,
  { elsewhere, peoplePerSlice = PEOPLE_PER_SLICE }: PlanReading = {},
): Promise<RefreshPlan> {
  const key = `${projectId} ${scope}`;
  let ages = peopleAges.peek(db, key) ?? (elsewhere ? await agesReadElsewhere(db, projectId, scope, key, elsewhere) : null);
  if (!ages) {
    // Kept only if nothing but the listing was written while it went, a slice at a time (StampedCache.offer).
    ages = await withMatchedRows(db, projectId, turn, async (rows) => {
      const freshest: number[] = [];
      await rows.eachPerson(scope, turn, (people) => people.forEach((person) => freshest.push(person.freshest ?? -Infinity)), peoplePerSlice);
      const listed: PeopleAges = { matchedRows: rows.matched, rowsWithoutProfile: rows.withoutProfile, freshest: Float64Array.from(freshest).sort() };
      peopleAges.offer(db, key, rows.stamp, listed);
      return listed;
    });
  }
  const cutoff = cutoffOf(olderThanDays, nowMs);
  const recentPeople = cutoff === null ? 0 : ages.freshest.length - lowerBound(ages.freshest, cutoff);
  return { matchedRows: ages.matchedRows, rowsWithoutProfile: ages.rowsWithoutProfile, recentPeople, people: ages.freshest.length - recentPeople };
}

/**
 * The people's ages as the reading worker reads them (MATCHED_PEOPLE), kept like a listing's; null when the worker
 * cannot read them (they are then listed here). Listing them here, then indexing the listing by person, holds the
 * engine's thread for seconds in a large project; the worker's one statement holds it not at all.
 */
async function agesReadElsewhere(db: Database, projectId: number, scope: string, key: string, elsewhere: RowsReader): Promise<PeopleAges | null> {
  const stamp = dataStamp(db);
  const groups = (await elsewhere(MATCHED_PEOPLE, [{ projectId, scope }])?.catch(() => null)) as { profile: number | null; rows: number; freshest: number | null }[] | null | undefined;
  if (!groups) return null;
  let matchedRows = 0;
  let rowsWithoutProfile = 0;
  const freshest: number[] = [];
  for (const group of groups) {
    matchedRows += group.rows;
    if (group.profile) freshest.push(group.freshest ?? -Infinity);
    else rowsWithoutProfile += group.rows;
  }
  const ages: PeopleAges = { matchedRows, rowsWithoutProfile, freshest: Float64Array.from(freshest).sort() };
  peopleAges.offer(db, key, stamp, ages);
  return ages;
}

export function refreshPreview(plan: RefreshPlan, olderThanDays: number | null, pace: WorkPace): RefreshPreview {
  const calls = Math.ceil(plan.people / MAX_QUERIES_PER_FIND);
  return {
    matchedRows: plan.matchedRows,
    people: plan.people,
    rowsWithoutProfile: plan.rowsWithoutProfile,
    recentPeople: plan.recentPeople,
    calls,
    // A refresh lists every matched row, then writes those of the people found: none when nobody is asked.
    estimatedSeconds: estimatedSeconds(calls, plan.people > 0 ? plan.matchedRows : 0, pace),
    olderThanDays,
  };
}

/**
 * Records a new refresh with the people it asks for (all pending) and the rows that chose them, straight from the
 * project's rows; returns the refresh's id and its plan. The lists are made a slice at a time with other calls' turns
 * between, under a record nothing counts until they are complete (store/refresh-tables.ts LISTED); then, in one
 * transaction, the refresh becomes the project's running one and an earlier one still waiting to be resumed is
 * cancelled (the new one asks for everyone it would have). Earlier refreshes keep their record and counters; their
 * lists of people and rows are let go last, also in slices.
 */
export async function createRefresh(
  db: Database,
  projectId: number,
  scope: string,
  olderThanDays: number | null,
  nowMs: number,
  turn: Turn,
): Promise<{ refreshId: number; plan: RefreshPlan }> {
  const at = new Date(nowMs).toISOString();
  const cutoff = cutoffOf(olderThanDays, nowMs);
  return withMatchedRows(db, projectId, turn, async (rows) => {
    const recent = `temp.${rows.table}_recent`;
    writingUnreadTablesOnly(db, () => db.exec(`CREATE TEMP TABLE ${rows.table}_recent (slug TEXT PRIMARY KEY) WITHOUT ROWID`));
    let plan: RefreshPlan;
    let refreshId: number;
    try {
      // The people whose freshest record is younger than the cutoff (none without one) are left out.
      const leaveOut = db.prepare(`INSERT INTO ${recent} (slug) VALUES (?)`);
      let people = 0;
      let recentPeople = 0;
      await rows.eachPerson(scope, turn, (slice) => {
        const young = cutoff === null ? [] : slice.filter((person) => person.freshest !== null && person.freshest >= cutoff);
        people += slice.length;
        recentPeople += young.length;
        if (young.length > 0) writingUnreadTablesOnly(db, () => db.transaction(() => young.forEach((person) => leaveOut.run(person.slug)))());
      });
      plan = { matchedRows: rows.matched, rowsWithoutProfile: rows.withoutProfile, recentPeople, people: people - recentPeople };
      refreshId = insertUnlistedRefresh(db, projectId, scope, olderThanDays, at);
      const asked = `slug NOT IN (SELECT slug FROM ${recent})`;
      // The people, in slug order, each with how many rows chose them (counted as not brought up to date when the
      // service no longer finds them), then the rows, in sheet order: each slice appends to its list.
      const lastOfSlice = db
        .prepare(`SELECT max(slug) FROM (SELECT DISTINCT slug FROM temp.${rows.table} WHERE slug > ? AND ${asked} ORDER BY slug LIMIT ${PEOPLE_PER_SLICE})`)
        .pluck();
      const addPeople = db.prepare(
        `INSERT OR IGNORE INTO refresh_people (refresh_id, slug, state, rows)
         SELECT ?, slug, 'pending', count(*) FROM temp.${rows.table} WHERE slug > ? AND slug <= ? AND ${asked} GROUP BY slug`,
      );
      const listPeople = db.transaction((after: string, last: string) => addPeople.run(refreshId, after, last));
      for (let after = ''; ; ) {
        await turn();
        const last = lastOfSlice.get(after) as string | null;
        if (last === null) break;
        listPeople(after, last);
        after = last;
      }
      const addRows = db.prepare(
        `INSERT INTO refresh_rows (refresh_id, row_index, slug)
         SELECT @refreshId, row_index, slug FROM temp.${rows.table} WHERE rowid > @from AND rowid <= @to AND ${asked}`,
      );
      const listRows = db.transaction((from: number) => addRows.run({ refreshId, from, to: from + ROWS_PER_SLICE }));
      const lastListed = (db.prepare(`SELECT max(rowid) FROM temp.${rows.table}`).pluck().get() as number | null) ?? 0;
      for (let from = 0; from < lastListed; from += ROWS_PER_SLICE) {
        await turn();
        listRows(from);
      }
    } finally {
      db.exec(`DROP TABLE IF EXISTS ${recent}`);
    }
    db.transaction(() => {
      db.prepare(
        "UPDATE refreshes SET status = 'cancelled', message = 'Replaced by a newer refresh.', updated_at = ?, finished_at = ? WHERE project_id = ? AND status IN ('paused', 'failed', 'out_of_credits')",
      ).run(at, at, projectId);
      markListed(db, refreshId, { ...zeroRefreshCounters(), peopleTotal: plan.people, rowsWithoutProfile: plan.rowsWithoutProfile }, at);
    })();
    await dropEarlierLists(db, projectId, refreshId);
    return { refreshId, plan };
  });
}

/** The lists of the project's refreshes before `refreshId` (kept to resume one): nothing asks for them any more. */
async function dropEarlierLists(db: Database, projectId: number, refreshId: number): Promise<void> {
  const earlier = db.prepare('SELECT id FROM refreshes WHERE project_id = ? AND id < ?').pluck().all(projectId, refreshId) as number[];
  for (const id of earlier) await dropLists(db, id, 'people and rows');
}
