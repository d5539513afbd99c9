// The worker that writes the second half of a large export (export-half-thread.ts starts it, export-halves.ts says
// how the halves join). An entry of its own, so that it loads only what that half needs: the export's reading of rows
// and people, the writing of CSV lines and of compressed sheet rows, and better-sqlite3. It opens its read-only
// connection at once and says so, then writes the one half it is sent.
import Sqlite, { type Database } from 'better-sqlite3';
import { parentPort, workerData } from 'node:worker_threads';
import type { ExportHalfReply, ExportHalfWorkerData } from './export-half-thread';
import { writeSecondHalf, type SecondHalfRequest } from './export-halves';

const port = parentPort;
if (!port) throw new Error('export-half-worker.ts runs as a worker thread (export-half-thread.ts starts it)');
const { dbPath, readCacheMb } = workerData as ExportHalfWorkerData;
const tell = (reply: ExportHalfReply) => port.postMessage(reply);
const failed = (error: unknown): ExportHalfReply => ({ kind: 'failed', error: error instanceof Error ? `${error.name}: ${error.message}` : String(error) });

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
    (half) => tell({ kind: 'written', half }),
    (error: unknown) => tell(failed(error)),
  );
});
