import type { Database } from 'better-sqlite3';
import type { CsvSpan } from '../export';
import { MatchSpans, type SpanFormat } from './export-rows';
import { ExportSummaries, type SharedSummaries } from './export-summaries';

/**
 * The worker's side of a two-threaded CSV export (export-spans.ts): a read transaction held on the worker's
 * connection from `begin` to the next `begin` (or the worker's end), and the spans the engine asks for made in it,
 * with the chosen people the engine read (in shared memory).
 */
export class ExportSpanReader {
  private begun: { db: Database; format: SpanFormat } | null = null;
  private spans: MatchSpans | null = null;
  /** The people this worker read of the export's (readPeople). */
  private own: ExportSummaries | null = null;

  /** Takes the snapshot at once: the engine then checks that nothing was committed since its own. */
  begin(db: Database, format: SpanFormat): boolean {
    this.begun = null;
    this.spans = null;
    this.own = null;
    if (db.inTransaction) db.exec('COMMIT');
    db.exec('BEGIN');
    // A deferred transaction takes its snapshot at its first read.
    db.prepare('SELECT max(row_index) FROM rows WHERE project_id = ?').get(format.projectId);
    this.begun = { db, format };
    return true;
  }

  /** Reads the summaries of some of the people (the later half, by id), and hands them over for the engine's thread. */
  async readPeople(ids: Float64Array): Promise<SharedSummaries> {
    if (!this.begun) throw new Error('no export was begun on this worker');
    this.own = await ExportSummaries.ofPeople(this.begun.db, ids);
    return this.own.shared;
  }

  /** The people the engine read: all of them, or the half before those this worker read. */
  people(summaries: SharedSummaries): boolean {
    if (!this.begun) throw new Error('no export was begun on this worker');
    const { db, format } = this.begun;
    const theirs = ExportSummaries.of(db, summaries);
    this.spans = new MatchSpans(db, format, this.own ? ExportSummaries.joined(db, [theirs, this.own]) : theirs);
    return true;
  }

  span(from: number, to: number, into: ArrayBuffer | null): CsvSpan {
    if (!this.spans) throw new Error("the export's people were not sent to this worker");
    return this.spans.csv(from, to, into);
  }
}
