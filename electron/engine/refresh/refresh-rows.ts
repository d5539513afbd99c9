import type { Database } from 'better-sqlite3';
import type { Mapping } from '../../../shared/model';
import { FreshPersonWriter } from './apply-fresh-person';
import { saveRefresh, type RefreshCounters, type RefreshRecord } from './refresh-records';

/** Rows read per transaction while a refresh brings its rows up to date: a short slice, so other calls get in between. */
const ROWS_PER_SLICE = 1_000;

/**
 * Brings the refresh's waiting rows up to date (FreshPersonWriter.writeAfter), the whole project in sheet order, a
 * slice at a time: each slice adds to `counters` and, when it wrote a row, `persist`s them in its transaction (a crash
 * loses no more than a slice). `goOn`, before each slice, gives other calls their turn and says whether to go on.
 * `onSlice`: after each commit, with the last row read. Returns false when stopped before the end.
 */
export async function writeWaitingRows(
  db: Database,
  writer: FreshPersonWriter,
  counters: RefreshCounters,
  persist: () => void,
  onSlice: (lastRow: number) => void,
  goOn: () => Promise<boolean>,
): Promise<boolean> {
  const slice = db.transaction((after: number) => {
    writer.begin();
    const written = writer.writeAfter(after, ROWS_PER_SLICE);
    counters.rowsUpdated += written.updated;
    counters.rowsChanged += written.changed;
    if (written.updated > 0) persist();
    return written.lastRow;
  });
  for (let after = -1; ; ) {
    if (!(await goOn())) return false;
    const last = slice(after);
    if (!db.inTransaction) writer.committed();
    if (last === null) return true;
    after = last;
    onSlice(after);
  }
}

/**
 * A stopped refresh whose found people's rows were not all written (the app closed or stopped meanwhile), before it is
 * cancelled or replaced by a newer one: those people would not be asked again, and their rows would keep what they
 * had. Writes them and returns the refresh's counters; its status stays.
 */
export async function writeLeftRows(db: Database, record: RefreshRecord, mapping: Mapping, at: () => string, turn: () => Promise<void>): Promise<RefreshCounters> {
  const counters = { ...record.counters };
  const writer = new FreshPersonWriter(db, record.projectId, record.id, mapping, record.scope);
  const persist = () => saveRefresh(db, record.id, { status: record.status, counters, message: record.message, updatedAt: at(), finishedAt: record.finishedAt });
  await writeWaitingRows(db, writer, counters, persist, () => undefined, async () => {
    await turn();
    return true;
  });
  return counters;
}
