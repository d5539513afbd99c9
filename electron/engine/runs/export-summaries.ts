import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Database } from 'better-sqlite3';
import type { PersonSummary } from '../../../shared/model';
import { personSummary, summaryColumns, type SummaryColumns } from '../rows/row-status';
import { statement } from '../store/statements';

/**
 * The summaries of the people an export's matched rows chose, read before its rows, in id order. A person version's
 * `people` row joined per matched row was a random read into a table larger than the page cache for each (at 1M rows,
 * 845k of them into 200k people: most of the export's reading). Kept compact and off the JS heap, since it lives
 * through the whole export, in chunks of people allocated whole: each person's own values (id, name, profile) as
 * bytes, Latin-1 where they fit it (one byte a character, read back by a plain copy), else UTF-16; the titles,
 * companies and locations, which many people share, each stored once. A person chosen since (a decision taken while
 * the export runs) is read when asked for.
 */
export class ExportSummaries {
  private constructor(
    private readonly db: Database,
    private readonly chunks: SummaryChunk[],
  ) {}

  /**
   * The summaries of the people chosen by the rows that `rowsSql` selects (row_status as `rs`: its FROM and WHERE),
   * bound with `params` (`projectId` among them), among the rows of `span` (row indexes, both included; every row when
   * not given). Read in slices, a turn of the event loop between: the rows' choices `rows` rows at a time, then their
   * people `people` at a time, in id order; `chunk` people to a chunk.
   */
  static async read(
    db: Database,
    rowsSql: string,
    params: Record<string, unknown> & { projectId: number },
    { rows = ROWS_A_SLICE, people: peopleASlice = PEOPLE_A_SLICE, chunk: chunkPeople = CHUNK_PEOPLE, span = { from: 0, to: Number.MAX_SAFE_INTEGER } } = {},
  ): Promise<ExportSummaries> {
    const lastRow = db.prepare('SELECT max(row_index) FROM row_status WHERE project_id = ?').pluck().get(params.projectId) as number | null;
    const last = lastRow === null ? -1 : Math.min(lastRow, span.to);
    // Repeats are dropped by sortedOnce below, not by DISTINCT, whose temporary index per slice cost more than them.
    const choices = db
      .prepare(`SELECT rs.chosen_person ${rowsSql} AND rs.row_index BETWEEN @from AND @to AND rs.state IN ('auto', 'accepted') AND rs.chosen_person IS NOT NULL`)
      .pluck();
    let ids = new Float64Array(4096);
    let count = 0;
    for (let from = span.from; from <= last; from += rows) {
      for (const id of choices.all({ ...params, from, to: Math.min(last, from + rows - 1) }) as number[]) {
        if (count === ids.length) {
          // Many rows choose the same people: the ids kept once each before the array grows for them.
          count = sortedOnce(ids).length;
          if (count > ids.length / 2) {
            const larger = new Float64Array(ids.length * 2);
            larger.set(ids);
            ids = larger;
          }
        }
        ids[count++] = id;
      }
      await nextTurn();
    }
    const people = sortedOnce(ids.subarray(0, count));
    const read = db.prepare(`SELECT p.id, ${summaryColumns('p')} FROM people AS p WHERE p.id IN (SELECT value FROM json_each(?)) ORDER BY p.id`).raw();
    const chunks: SummaryChunk[] = [];
    const shared: string[] = [];
    const sharedIndex = new Map<string, number>();
    const intern = (text: string | null) => {
      let index = sharedIndex.get(text ?? '');
      if (index === undefined) {
        // A copy (of its UTF-16 code units as they are): the value may be a slice of the facts it was read from, which
        // it would keep alive.
        const value = text === null ? '' : Buffer.from(text, 'utf16le').toString('utf16le');
        index = shared.length;
        shared.push(value);
        sharedIndex.set(value, index);
      }
      return index;
    };
    let chunk: SummaryChunk | undefined;
    for (let at = 0; at < people.length; at += peopleASlice) {
      const slice = JSON.stringify(Array.from(people.subarray(at, at + peopleASlice)));
      // Read by index: a destructured array goes through an iterator, an object or more a person.
      for (const row of read.all(slice) as [number, ...SummaryColumns][]) {
        if (!chunk || chunk.length === chunkPeople) {
          chunk?.done();
          chunk = new SummaryChunk(shared, chunkPeople);
          chunks.push(chunk);
        }
        const summary = personSummary([row[1], row[2]]);
        chunk.add(row[0], summary, row[2] !== null, intern(summary?.title ?? null), intern(summary?.company ?? null), intern(summary?.location ?? null));
      }
      await nextTurn();
    }
    chunk?.done();
    return new ExportSummaries(db, chunks);
  }

  /** The summary of the person `personId`; null when it has none. */
  summaryOf(personId: number): PersonSummary | null {
    const held = this.chunkOf(personId)?.summaryOf(personId);
    if (held !== undefined) return held;
    const columns = this.readOne(personId);
    return columns ? personSummary(columns) : null;
  }

  /** Whether the summary of `personId` was made from its record (exportedSlug). */
  fromRecord(personId: number): boolean {
    const chunk = this.chunkOf(personId);
    if (chunk?.has(personId)) return chunk.fromRecord(personId);
    return (this.readOne(personId)?.[1] ?? null) !== null;
  }

  /** summaryColumns of a person the table does not hold. */
  private readOne(personId: number): SummaryColumns | undefined {
    return statement(this.db, `SELECT ${summaryColumns('p')} FROM people AS p WHERE p.id = ?`).raw().get(personId) as SummaryColumns | undefined;
  }

  /** The chunk whose ids span `personId`. */
  private chunkOf(personId: number): SummaryChunk | undefined {
    const chunks = this.chunks;
    let low = 0;
    let high = chunks.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >>> 1;
      if (chunks[middle]!.firstId <= personId) low = middle;
      else high = middle - 1;
    }
    return chunks[low];
  }
}

/** Rows whose choices are read at a time, and people whose summaries are. */
const ROWS_A_SLICE = 20_000;
const PEOPLE_A_SLICE = 2_000;
/** People a chunk holds: its arrays are allocated whole, so the table grows without copies left for the collector. */
const CHUNK_PEOPLE = 16_384;
/** A character past U+00FF: Latin-1 holds the others, one byte each. */
const BEYOND_LATIN1 = /[\u0100-\uffff]/;
/** The bit of a person's title index that marks its own values stored as UTF-16. */
const WIDE = 0x8000_0000;

/** Up to `size` people, ascending by id. */
class SummaryChunk {
  readonly ids: Float64Array;
  /** Per person: where its own values start in `bytes`, and where its name and its profile start among them (characters). */
  private readonly starts: Uint32Array;
  /** Per person: its title, company and location, as indexes into `shared`; the top bit of the title's marks UTF-16. */
  private readonly sharedOf: Uint32Array;
  /** 1 for a person whose summary was made from its record (facts of another version): exportedSlug knows no profile. */
  private readonly fromRecords: Uint8Array;
  private bytes = Buffer.allocUnsafe(256 * 1024);
  private used = 0;
  length = 0;

  constructor(
    private readonly shared: string[],
    size: number,
  ) {
    this.ids = new Float64Array(size);
    this.starts = new Uint32Array(size * 3);
    this.sharedOf = new Uint32Array(size * 3);
    this.fromRecords = new Uint8Array(size);
  }

  get firstId(): number {
    return this.ids[0]!;
  }

  add(id: number, summary: PersonSummary | null, fromRecord: boolean, title: number, company: number, location: number): void {
    const personId = summary?.id ?? '';
    const name = summary?.name ?? '';
    const own = `${personId}${name}${summary?.social ?? ''}`;
    const wide = BEYOND_LATIN1.test(own);
    if (this.used + own.length * 2 > this.bytes.length) {
      const larger = Buffer.allocUnsafe(Math.max(this.bytes.length * 2, this.used + own.length * 2));
      this.bytes.copy(larger, 0, 0, this.used);
      this.bytes = larger;
    }
    const at = this.length++;
    this.ids[at] = id;
    this.starts[at * 3] = this.used;
    this.starts[at * 3 + 1] = personId.length;
    this.starts[at * 3 + 2] = personId.length + name.length;
    this.used += this.bytes.write(own, this.used, wide ? 'utf16le' : 'latin1');
    this.sharedOf[at * 3] = title | (wide ? WIDE : 0);
    this.sharedOf[at * 3 + 1] = company;
    this.sharedOf[at * 3 + 2] = location;
    this.fromRecords[at] = fromRecord ? 1 : 0;
  }

  /** Its people's bytes cut to their length. */
  done(): void {
    this.bytes = Buffer.from(this.bytes.subarray(0, this.used));
  }

  has(personId: number): boolean {
    return this.indexOf(personId) !== -1;
  }

  /** The summary of `personId`; undefined when the chunk does not hold it. */
  summaryOf(personId: number): PersonSummary | undefined {
    const at = this.indexOf(personId);
    if (at === -1) return undefined;
    const start = this.starts[at * 3]!;
    const end = at + 1 < this.length ? this.starts[at * 3 + 3]! : this.used;
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

  fromRecord(personId: number): boolean {
    const at = this.indexOf(personId);
    return at !== -1 && this.fromRecords[at] === 1;
  }

  private indexOf(personId: number): number {
    const ids = this.ids;
    let low = 0;
    let high = this.length - 1;
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

/** The ids sorted, each once, at the front of `ids`. */
function sortedOnce(ids: Float64Array): Float64Array {
  ids.sort();
  let kept = 0;
  for (let i = 0; i < ids.length; i++) if (i === 0 || ids[i] !== ids[kept - 1]) ids[kept++] = ids[i]!;
  return ids.subarray(0, kept);
}
