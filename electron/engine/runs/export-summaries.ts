import type { Database } from 'better-sqlite3';
import type { PersonSummary } from '../../../shared/model';
import { personSummary, summaryColumns, type SummaryColumns } from '../rows/row-status';

/**
 * The summaries of the people an export's matched rows chose, read before its rows in one statement, in id order. A
 * person version's `people` row joined per matched row was a random read into a table larger than the page cache for
 * each (at 1M rows, 845k of them into 200k people: most of the export's reading). Kept compact and off the JS heap,
 * since it lives through the whole export: each person's own values (id, name, profile) as bytes, Latin-1 where they
 * fit it (one byte a character, read back by a plain copy), else UTF-16; the titles, companies and locations, which
 * many people share, each stored once.
 */
export class ExportSummaries {
  private constructor(
    /** Person ids, ascending. */
    private readonly ids: Float64Array,
    /** Per person: where its own values start in `bytes`, and where its name and its profile start among them (characters). */
    private readonly starts: Uint32Array,
    /** Per person: its title, company and location, as indexes into `shared`; the top bit of the title's marks UTF-16. */
    private readonly sharedOf: Uint32Array,
    private readonly bytes: Buffer,
    private readonly shared: string[],
    /** 1 for a person whose summary was made from its record (facts of another version): exportedSlug knows no profile. */
    private readonly fromRecords: Uint8Array,
  ) {}

  /**
   * The summaries of the people chosen by the rows that `rowsSql` selects (row_status as `rs`: its FROM and WHERE),
   * bound with `params`.
   */
  static read(db: Database, rowsSql: string, params: Record<string, unknown>): ExportSummaries {
    const read = db
      .prepare(
        `SELECT p.id, ${summaryColumns('p')} FROM people AS p
         WHERE p.id IN (SELECT rs.chosen_person ${rowsSql} AND rs.state IN ('auto', 'accepted') AND rs.chosen_person IS NOT NULL) ORDER BY p.id`,
      )
      .raw();
    const ids = new Grown(Float64Array, 1);
    const starts = new Grown(Uint32Array, 3);
    const sharedOf = new Grown(Uint32Array, 3);
    const fromRecords = new Grown(Uint8Array, 1);
    let bytes = Buffer.allocUnsafe(1 << 20);
    let used = 0;
    const shared: string[] = [];
    const sharedIndex = new Map<string, number>();
    const intern = (text: string | null) => {
      let index = sharedIndex.get(text ?? '');
      if (index === undefined) {
        // A copy: the value may be a slice of the facts it was read from, which it would keep alive.
        const value = text === null ? '' : Buffer.from(text).toString();
        index = shared.length;
        shared.push(value);
        sharedIndex.set(value, index);
      }
      return index;
    };
    for (const [id, ...columns] of read.iterate(params) as IterableIterator<[number, ...SummaryColumns]>) {
      const summary = personSummary(columns);
      const personId = summary?.id ?? '';
      const name = summary?.name ?? '';
      const own = `${personId}${name}${summary?.social ?? ''}`;
      const wide = BEYOND_LATIN1.test(own);
      if (used + own.length * 2 > bytes.length) {
        const larger = Buffer.allocUnsafe(Math.max(bytes.length * 2, used + own.length * 2));
        bytes.copy(larger, 0, 0, used);
        bytes = larger;
      }
      ids.push(id);
      starts.push(used, personId.length, personId.length + name.length);
      used += bytes.write(own, used, wide ? 'utf16le' : 'latin1');
      sharedOf.push(intern(summary?.title ?? null) | (wide ? WIDE : 0), intern(summary?.company ?? null), intern(summary?.location ?? null));
      fromRecords.push(columns[1] !== null ? 1 : 0);
    }
    const last = ids.done();
    return new ExportSummaries(last, starts.done(), sharedOf.done(), Buffer.from(bytes.subarray(0, used)), shared, fromRecords.done());
  }

  /** The summary of the person `personId`; null when no matched row chose it. */
  summaryOf(personId: number): PersonSummary | null {
    const at = this.indexOf(personId);
    if (at === -1) return null;
    const start = this.starts[at * 3]!;
    const end = at + 1 < this.ids.length ? this.starts[at * 3 + 3]! : this.bytes.length;
    const title = this.sharedOf[at * 3]!;
    const own = this.bytes.toString(title & WIDE ? 'utf16le' : 'latin1', start, end);
    const nameAt = this.starts[at * 3 + 1]!;
    const socialAt = this.starts[at * 3 + 2]!;
    const shared = this.shared;
    return {
      id: own.slice(0, nameAt),
      name: own.slice(nameAt, socialAt),
      title: shared[title & ~WIDE]!,
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

/** A character past U+00FF: Latin-1 holds the others, one byte each. */
const BEYOND_LATIN1 = /[\u0100-\uffff]/;
/** The bit of a person's title index that marks its own values stored as UTF-16. */
const WIDE = 0x8000_0000;

type NumberArray = Float64Array | Uint32Array | Uint8Array;

/** A typed array filled `width` values at a time, grown by doubling: no list of numbers on the JS heap meanwhile. */
class Grown<T extends NumberArray> {
  private values: T;
  private length = 0;

  constructor(
    private readonly kind: new (length: number) => T,
    private readonly width: number,
  ) {
    this.values = new kind(4096 * width);
  }

  push(...values: number[]): void {
    if (this.length + values.length > this.values.length) {
      const larger = new this.kind(this.values.length * 2);
      larger.set(this.values);
      this.values = larger;
    }
    this.values.set(values, this.length);
    this.length += values.length;
  }

  /** The values pushed, in an array of their length. */
  done(): T {
    return this.values.slice(0, this.length) as T;
  }
}
