import type { Database } from 'better-sqlite3';
import type { PersonSummary } from '../../../shared/model';
import { personSummary, summaryColumns, type SummaryColumns } from '../rows/row-status';

/**
 * The summaries of the people an export's matched rows chose, read before its rows in one statement, in id order. A
 * person version's `people` row joined per matched row was a random read into a table larger than the page cache for
 * each (at 1M rows, 845k of them into 200k people: most of the export's reading). Kept compact, since it lives
 * through the whole export: each person's own values (id, name, profile) as one string, the titles, companies and
 * locations, which many people share, each stored once.
 */
export class ExportSummaries {
  private constructor(
    /** Person ids, ascending. */
    private readonly ids: Float64Array,
    /** Per person: its id, name and profile, one after another. */
    private readonly own: string[],
    /** Per person: where its name and its profile start in `own`. */
    private readonly starts: Uint32Array,
    /** Per person: its title, company and location, as indexes into `shared`. */
    private readonly sharedOf: Uint32Array,
    private readonly shared: string[],
    /** 1 for a person whose summary was made from its record (facts of another version): exportedSlug knows no profile. */
    private readonly fromRecords: Uint8Array,
  ) {}

  /**
   * The summaries of the people chosen by the rows of `projectId` that the statement `rowsSql` selects (row_status as
   * `rs`, FROM and WHERE), bound with `params`.
   */
  static read(db: Database, rowsSql: string, params: Record<string, unknown>): ExportSummaries {
    const read = db
      .prepare(
        `SELECT p.id, ${summaryColumns('p')} FROM people AS p
         WHERE p.id IN (SELECT rs.chosen_person ${rowsSql} AND rs.state IN ('auto', 'accepted') AND rs.chosen_person IS NOT NULL) ORDER BY p.id`,
      )
      .raw();
    const ids: number[] = [];
    const own: string[] = [];
    const starts: number[] = [];
    const sharedOf: number[] = [];
    const fromRecords: number[] = [];
    const shared: string[] = [];
    const sharedIndex = new Map<string, number>();
    const intern = (text: string | null) => {
      const value = text ?? '';
      let index = sharedIndex.get(value);
      if (index === undefined) {
        index = shared.length;
        // A copy: the value may be a slice of the facts it was read from, which it would keep alive.
        shared.push(Buffer.from(value).toString());
        sharedIndex.set(value, index);
      }
      return index;
    };
    for (const [id, ...columns] of read.iterate(params) as IterableIterator<[number, ...SummaryColumns]>) {
      const summary = personSummary(columns);
      const personId = summary?.id ?? '';
      const name = summary?.name ?? '';
      ids.push(id);
      // Joined, so one flat string that keeps none of the facts it was read from.
      own.push([personId, name, summary?.social ?? ''].join(''));
      starts.push(personId.length, personId.length + name.length);
      sharedOf.push(intern(summary?.title ?? null), intern(summary?.company ?? null), intern(summary?.location ?? null));
      fromRecords.push(columns[1] !== null ? 1 : 0);
    }
    return new ExportSummaries(Float64Array.from(ids), own, Uint32Array.from(starts), Uint32Array.from(sharedOf), shared, Uint8Array.from(fromRecords));
  }

  /** The summary of the person `personId`; null when no matched row chose it. */
  summaryOf(personId: number): PersonSummary | null {
    const at = this.indexOf(personId);
    if (at === -1) return null;
    const own = this.own[at]!;
    const nameAt = this.starts[at * 2]!;
    const socialAt = this.starts[at * 2 + 1]!;
    const shared = this.shared;
    return {
      id: own.slice(0, nameAt),
      name: own.slice(nameAt, socialAt),
      title: shared[this.sharedOf[at * 3]!]!,
      company: shared[this.sharedOf[at * 3 + 1]!]!,
      social: own.slice(socialAt),
      location: shared[this.sharedOf[at * 3 + 2]!]!,
    };
  }

  /** Whether the summary of `personId` was made from its record (exportedSlug). */
  fromRecord(personId: number): boolean {
    const at = this.indexOf(personId);
    return at !== -1 && this.fromRecords[at] === 1;
  }

  private indexOf(personId: number): number {
    const ids = this.ids;
    let low = 0;
    let high = ids.length - 1;
    while (low <= high) {
      const middle = (low + high) >>> 1;
      const id = ids[middle]!;
      if (id === personId) return middle;
      if (id < personId) low = middle + 1;
      else high = middle - 1;
    }
    return -1;
  }
}
