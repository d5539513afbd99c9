// The worker that writes the second half of a large CSV export (csv-half-thread.ts starts it, csv-halves.ts says
// how the halves join). An entry of its own, so that it loads only what that half needs: the export's reading of rows
// and people, the CSV writing and better-sqlite3. It opens its read-only connection at once and says so, then writes
// the one half it is sent.
import Sqlite, { type Database } from 'better-sqlite3';
import { parentPort, workerData } from 'node:worker_threads';
import type { CsvHalfReply, CsvHalfWorkerData } from './csv-half-thread';
import { writeSecondHalf, type SecondHalfRequest } from './csv-halves';

const port = parentPort;
if (!port) throw new Error('csv-half-worker.ts runs as a worker thread (csv-half-thread.ts starts it)');
const { dbPath, readCacheMb } = workerData as CsvHalfWorkerData;
const tell = (reply: CsvHalfReply) => port.postMessage(reply);
const failed = (error: unknown): CsvHalfReply => ({ kind: 'failed', error: error instanceof Error ? `${error.name}: ${error.message}` : String(error) });

let db: Database | null = null;
try {
  db = new Sqlite(dbPath, { readonly: true, fileMustExist: true });
  db.pragma(`cache_size = -${readCacheMb * 1024}`);
  tell({ kind: 'ready' });
} catch (error) {
  tell(failed(error));
}

port.once('message', (request: SecondHalfRequest) => {
  if (!db) return tell(failed(new Error('the database could not be opened')));
  writeSecondHalf(db, request).then(
    (lines) => tell({ kind: 'written', lines }),
    (error: unknown) => tell(failed(error)),
  );
});
