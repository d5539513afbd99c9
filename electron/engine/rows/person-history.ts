import type { Database, Statement } from 'better-sqlite3';
import { IdBits } from '../id-bits';
import type { DigestIds } from '../store/digest-ids';
import { PersonVersions, personVersionDigest } from '../store/person-versions';
import type { PersonState } from './person-state';

/**
 * Keeps what a refresh saw of each person (migration 22): each distinct state once in person_versions, found again by
 * its digest (store/person-versions.ts), and a sighting per refresh that refers to it. `before` sightings are what the
 * person's rows said when the refresh began (what the match, or the refresh before, left them with): the baseline for
 * a date before the first refresh. Runs in the caller's transaction, begun with `begin` and marked `committed` after.
 */
export class PersonHistoryWriter {
  private readonly versions: DigestIds;
  private readonly insert: Statement;
  private readonly sight: Statement;
  /** Between `begin` and `committed`. */
  private begun = false;
  /**
   * The versions of the `before` sightings this writer stored, committed, and in the transaction under way: a refresh
   * sees each person's state before once for each of their rows (at a million rows, 845,000 sightings for 195,000
   * people), and stores it once. What it found it sees once a person. A bit a version id, for the memory: a Set of
   * them held 15 MB more through a 1M refresh, and the export after it.
   */
  private readonly sighted = new IdBits();
  private sightedNow = new Set<number>();

  constructor(
    db: Database,
    private readonly scope: string,
    private readonly refreshId: number,
  ) {
    this.versions = PersonVersions.of(db);
    this.insert = db.prepare('INSERT INTO person_versions (scope, slug, company, title, since, digest) VALUES (?, ?, ?, ?, ?, ?)');
    this.sight = db.prepare('INSERT OR IGNORE INTO person_sightings (refresh_id, before, version_id) VALUES (?, ?, ?)');
  }

  /**
   * At a write transaction's start, before it writes anything: the versions stored then are committed, so a hit on one
   * needs no check against the table (store/digest-ids.ts).
   */
  begin(): void {
    this.versions.catchUp(true);
    this.begun = true;
    this.sightedNow = new Set();
  }

  /** The transaction begun with `begin` has committed (not inside another's): what it stored need not be read back. */
  committed(): void {
    this.versions.committed();
    this.begun = false;
    for (const id of this.sightedNow) this.sighted.add(id);
    this.sightedNow = new Set();
  }

  see(slug: string, state: PersonState, before: boolean): void {
    const { company, title, since } = state;
    const digest = personVersionDigest(this.scope, slug, company, title, since);
    // Another process may have stored it since this connection last looked: looked for again after a catch-up. Not in
    // a transaction begun with `begin`: it caught up then, and holds the write lock, so nobody else has written since.
    let id = this.versions.idOf(digest);
    if (id === undefined && !this.begun) {
      this.versions.catchUp();
      id = this.versions.idOf(digest);
    }
    if (id === undefined) {
      id = Number(this.insert.run(this.scope, slug, company, title, since, digest).lastInsertRowid);
      this.versions.add(digest, id);
    }
    if (before && (this.sighted.has(id) || this.sightedNow.has(id))) return;
    this.sight.run(this.refreshId, before ? 1 : 0, id);
    // Outside a transaction begun with `begin` it may yet be rolled back: stored again next time, as it is ignored then.
    if (before && this.begun) this.sightedNow.add(id);
  }
}

/** One sighting read back: a person's state at a refresh, oldest refresh first. */
export interface Sighting {
  refreshId: number;
  startedAt: string;
  before: boolean;
  slug: string;
  state: PersonState;
}

/**
 * Every sighting of the project's refreshes (those listed, store/refresh-tables.ts), person by person, each person's
 * in refresh order with a refresh's `before` ahead of what it saw.
 */
export function* projectSightings(db: Database, projectId: number): Generator<Sighting> {
  const rows = db
    .prepare(
      `SELECT s.refresh_id, r.started_at, s.before, v.slug, v.company, v.title, v.since
       FROM refreshes AS r
       JOIN person_sightings AS s ON s.refresh_id = r.id
       JOIN person_versions AS v ON v.id = s.version_id
       WHERE r.project_id = ? AND NOT (r.status = 'cancelled' AND r.finished_at IS NULL)
       ORDER BY v.slug, r.id, s.before DESC, v.id`,
    )
    .raw()
    .iterate(projectId) as IterableIterator<[number, string, number, string, string | null, string | null, string | null]>;
  for (const [refreshId, startedAt, before, slug, company, title, since] of rows) {
    yield { refreshId, startedAt, before: before === 1, slug, state: { company, title, since } };
  }
}
