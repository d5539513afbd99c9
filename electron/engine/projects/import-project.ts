import type { Database } from 'better-sqlite3';
import { basename, extname } from 'node:path';
import { DEFAULT_STRATEGIES } from '../../../shared/model';
import type { ImportProgress } from '../../../shared/contract';
import type { Clock } from '../clock';
import { EngineError } from '../engine-errors';
import { detectMapping } from '../matching';
import { progressPace } from '../progress-pace';
import { openSheet } from '../sheets';
import { removeProject } from './project-cleanup';

export interface ImportRequest {
  file: string;
  sheet?: string;
  name?: string;
}

/** Rows per transaction while importing: bounded memory, and few enough commits to stay fast. */
const ROWS_PER_TRANSACTION = 2500;
/** Rows the column guesses look at. */
const DETECTION_ROWS = 200;

export interface ImportOptions {
  maxRows?: number;
  /** Aborted when the user cancels the import (cancellable-calls.ts): looked at between batches. */
  signal?: AbortSignal;
}

/**
 * Streams a sheet into a new project: rows in file order, cells exactly as read, in batched transactions, and
 * the mapping guessed from the first rows. A blank row between data rows is stored at its place as [] (row_index k
 * is the sheet's row first_row + k), counted in blank_rows and not in row_count, which counts the rows to match.
 * The project exists with status 'importing' until the last row is in;
 * on any failure it is deleted again (rows and all, by cascade) and the error goes to the caller, so no half-made
 * project remains. Cancelled by its signal, it leaves the project list at once too, and its rows follow in the
 * background (project-cleanup.ts; `wake` the cleanup after): a cascade of a large sheet's rows would hold the engine
 * for seconds after the user cancelled it. Its queries are not planned here: the user confirms the mapping first
 * (mapping.save), and until then plan_scope stays NULL and every row counts as pending.
 */
export async function importProject(
  db: Database,
  clock: Clock,
  req: ImportRequest,
  /** Told the rows read after the first batch, at most four times a second after, and at the end (percent 100). */
  onProgress: (progress: Omit<ImportProgress, 'file'>) => void,
  { signal, ...limits }: ImportOptions = {},
): Promise<number> {
  const sheet = await openSheet(req.file, { ...(req.sheet === undefined ? {} : { sheet: req.sheet }), ...limits });
  const sourceName = basename(req.file);
  const cancelled = () => new EngineError('cancelled', `The import of ${sourceName} was cancelled: nothing of it was kept.`);
  let projectId: number | null = null;
  try {
    if (signal?.aborted) throw cancelled();
    const now = new Date(clock.now()).toISOString();
    const name = req.name?.trim() || basename(req.file, extname(req.file)) || sourceName;
    projectId = Number(
      db
        .prepare(
          `INSERT INTO projects (name, kind, source_name, format, sheet_name, headers, status, created_at, updated_at)
           VALUES (?, 'match', ?, ?, ?, ?, 'importing', ?, ?)`,
        )
        .run(name, sourceName, sheet.info.format, sheet.info.sheetName ?? null, JSON.stringify(sheet.headers), now, now).lastInsertRowid,
    );

    // A row at a time: a batch as one JSON array through json_each made SQLite parse each row's text and write it again.
    const insertRow = db.prepare('INSERT INTO rows (project_id, row_index, cells) VALUES (?, ?, ?)');
    // updated_at doubles as the import's heartbeat: deleteAbandonedImports leaves a live import alone.
    const heartbeat = db.prepare('UPDATE projects SET updated_at = ? WHERE id = ?');
    const id = projectId;
    const writeBatch = db.transaction((batch: string[], first: number) => {
      for (let i = 0; i < batch.length; i++) insertRow.run(id, first + i, batch[i]);
      heartbeat.run(new Date(clock.now()).toISOString(), id);
    });
    // Rows stored (blank ones too): the next row's index.
    let rowCount = 0;
    let blankRows = 0;
    const pace = progressPace();
    const tell = () => {
      if (!pace()) return;
      onProgress({ rowsRead: rowCount, percent: Math.min(99, Math.floor(sheet.fractionRead(rowCount) * 100)) });
    };
    // Each row waits for its batch as its JSON text: its cells, read as slices of the sheet's XML or CSV text, would
    // keep that text alive until the batch is stored, long enough for V8 to move it to the old generation.
    let batch: string[] = [];
    const sampleRows: string[][] = [];
    const batches = sheet.rowBatches();
    for await (const read of batches) {
      if (signal?.aborted) throw cancelled();
      for (let i = 0; i < read.length; i++) {
        const cells = read[i]!;
        // A sheet whose size was not known before reading (an xlsx without its dimension) is refused at the first row
        // past the limit, counting on without storing so the message can say how many it has.
        if (rowCount + batch.length >= sheet.maxRows) {
          let total = rowCount + batch.length + read.length - i;
          for await (const more of batches) {
            if (signal?.aborted) throw cancelled();
            total += more.length;
          }
          throw sheet.tooManyRows(total);
        }
        if (cells.length === 0) blankRows++;
        else if (sampleRows.length < DETECTION_ROWS) sampleRows.push(cells);
        batch.push(JSON.stringify(cells));
        if (batch.length >= ROWS_PER_TRANSACTION) {
          writeBatch(batch, rowCount);
          rowCount += batch.length;
          batch = [];
          tell();
        }
      }
    }
    if (batch.length > 0) {
      writeBatch(batch, rowCount);
      rowCount += batch.length;
    }
    onProgress({ rowsRead: rowCount, percent: 100 });
    if (signal?.aborted) throw cancelled();

    const detected = detectMapping(sheet.headers, sampleRows);
    db.prepare(
      `UPDATE projects SET row_count = ?, blank_rows = ?, first_row = ?, warnings = ?, guesses = ?, mapping = ?, strategies = ?, plan_scope = NULL,
         status = 'ready', updated_at = ?
       WHERE id = ?`,
    ).run(
      rowCount - blankRows,
      blankRows,
      sheet.firstRow,
      JSON.stringify(sheet.warnings),
      JSON.stringify(detected.guesses),
      JSON.stringify(detected.mapping),
      JSON.stringify(DEFAULT_STRATEGIES),
      new Date(clock.now()).toISOString(),
      id,
    );
    return id;
  } catch (error) {
    if (projectId !== null && signal?.aborted) removeProject(db, projectId);
    // At once and whole, rows and all by cascade: a refused sheet leaves nothing behind, not even for a moment.
    else if (projectId !== null) db.prepare('DELETE FROM projects WHERE id = ?').run(projectId);
    throw error;
  } finally {
    await sheet.close().catch(() => undefined);
  }
}

/**
 * A project left 'importing' by a crash or a kill is half-made: nothing may be built on it. Another process
 * (the CLI beside the app) may be importing right now, so only imports silent for a while count as abandoned.
 * Their rows are left to ProjectCleanup, as a deleted project's are.
 */
export function deleteAbandonedImports(db: Database, silentSinceIso: string): number {
  const abandoned = db.prepare("SELECT id FROM projects WHERE status = 'importing' AND updated_at < ?").pluck().all(silentSinceIso) as number[];
  return abandoned.filter((id) => removeProject(db, id)).length;
}
