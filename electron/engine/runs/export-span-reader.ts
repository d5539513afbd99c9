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

  /** Takes the snapshot at once: the engine then checks that nothing was committed since its own. */
  begin(db: Database, format: SpanFormat): boolean {
    this.begun = null;
    this.spans = null;
    if (db.inTransaction) db.exec('COMMIT');
    db.exec('BEGIN');
    // A deferred transaction takes its snapshot at its first read.
    db.prepare('SELECT max(row_index) FROM rows WHERE project_id = ?').get(format.projectId);
    this.begun = { db, format };
    return true;
  }

  people(summaries: SharedSummaries): boolean {
    if (!this.begun) throw new Error('no export was begun on this worker');
    this.spans = new MatchSpans(this.begun.db, this.begun.format, ExportSummaries.of(this.begun.db, summaries));
    return true;
  }

  span(from: number, to: number): CsvSpan {
    if (!this.spans) throw new Error("the export's people were not sent to this worker");
    return this.spans.csv(from, to);
  }
}
