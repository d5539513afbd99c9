import type { Database } from 'better-sqlite3';
import { existsSync, mkdirSync } from 'node:fs';
import { basename, dirname, extname, join } from 'node:path';
import type { ExportChoice, ExportProgress, ExportResult } from '../../../shared/contract';
import { EngineError } from '../engine-errors';
import { ExportError, PartFiles, XLSX_MAX_ROWS, exportLabel, writeTable, type RowPages, type UnfinishedExports } from '../export';
import { safeFileName } from '../file-names';
import type { ProjectRecord } from '../rows/project-record';
import { progressPace } from '../progress-pace';
import { HALVES_FROM_ROWS, exportHalves, type Halves } from './export-halves';
import { EXPORT_PAGE_ROWS, candidateLineCount, candidatesExport, matchExport, originalWidth, type ExportPaging } from './export-rows';
import type { ExportHalfThread } from './export-half-thread';

export interface ExportRequest extends ExportChoice {
  destination: string | null;
  /** Where the candidates go; null puts them beside the matches as `<name>-candidates.<ext>`. */
  candidatesDestination: string | null;
}

/**
 * Writes the project's matches (and, when asked, its candidates in long form to `<name>-candidates.<ext>` beside
 * them). Without a destination the file goes into `exportDir` under a fresh name, and its name is the reference
 * the browser host turns into a download. `onProgress` hears how far it is, a few times a second. Cancelled by
 * `signal` (looked at after each page), it removes its part files and leaves the files there as they were.
 * `unfinished` records the part files while they are written, so that a kill leaves none behind past the next start.
 * With `halves`, the matches of `halves.fromRows` rows or more (HALVES_FROM_ROWS) are made on two threads, the
 * second on a worker of the export's own that `halves.worker` starts (export-halves.ts), CSV or Excel, any scope.
 */
export async function exportProject(
  db: Database,
  project: ProjectRecord,
  req: ExportRequest,
  exportDir: string,
  onProgress: (progress: ExportProgress) => void = () => undefined,
  signal?: AbortSignal,
  unfinished?: UnfinishedExports,
  halves?: { worker: () => ExportHalfThread | null; fromRows?: number },
): Promise<ExportResult> {
  let path: string;
  let downloadRef: string | null = null;
  if (req.destination) {
    path = req.destination;
  } else {
    mkdirSync(exportDir, { recursive: true, mode: 0o700 });
    const fileName = freeName(exportDir, `${safeFileName(project.name)}-matches`, req.format, req.candidates);
    path = join(exportDir, fileName);
    downloadRef = fileName;
  }
  const candidatesFile = req.candidates ? candidatesTarget(path, req) : null;
  // An Excel sheet holds 1,048,576 rows: the matches of the largest sheet Matchdesk imports always fit, but its
  // candidates (up to five lines a row) may not, which writing would find out only a million lines in.
  if (candidatesFile?.format === 'xlsx') {
    const lines = candidateLineCount(db, project.id, req.scope);
    if (lines >= XLSX_MAX_ROWS) throw tooManyCandidateLines(candidatesFile.path, lines);
  }
  const cancelled = () => {
    const name = basename(path);
    return new EngineError('cancelled', `The export was cancelled: ${existsSync(path) ? `${name} was left as it was` : `${name} was not written`}.`);
  };
  const choice: ExportChoice = { format: req.format, scope: req.scope, candidates: req.candidates, bom: req.bom, delimiter: req.delimiter };
  const pace = progressPace();
  // The rows an export goes through: blank ones too, which it writes at their place.
  const rowsTotal = project.rowCount + project.blankRows;
  /** Tells the part's start at once, then its pages a few times a second (and its end, below); cancels between pages. */
  const progressOf = (part: ExportProgress['part']): Pick<ExportPaging, 'onPage'> => {
    const tell = (rowsDone: number) => onProgress({ projectId: project.id, choice, part, rowsDone, rowsTotal });
    if (pace(part)) tell(0);
    return {
      onPage: (rowsDone) => {
        if (signal?.aborted) throw cancelled();
        if (pace(part)) tell(rowsDone);
      },
    };
  };
  // The matches and their candidates replace the files there only once both are whole.
  const together = new PartFiles(unfinished);
  const target = { format: req.format, bom: req.bom, delimiter: req.delimiter, together };
  let written: { rows: number };
  let candidates: ExportResult['candidates'] = null;
  try {
    const paging = progressOf('matches');
    const width = originalWidth(db, project);
    const split = halves && rowsTotal >= (halves.fromRows ?? HALVES_FROM_ROWS);
    const two = split ? await twoHalves(db, project, req, path, width, together, halves.worker, paging.onPage) : null;
    try {
      const matches = matchExport(db, project, req.scope, { pageRows: EXPORT_PAGE_ROWS, ...paging }, width);
      written = await writeTable({ ...target, path, sheetName: 'Matches' }, matches.headers, two?.rows ?? matches.rows);
    } finally {
      await two?.close();
    }
    onProgress({ projectId: project.id, choice, part: 'matches', rowsDone: rowsTotal, rowsTotal });
    if (candidatesFile) {
      const table = candidatesExport(db, project, req.scope, progressOf('candidates'));
      const result = await writeTable({ ...target, ...candidatesFile, sheetName: 'Candidates' }, table.headers, table.rows);
      onProgress({ projectId: project.id, choice, part: 'candidates', rowsDone: rowsTotal, rowsTotal });
      const fileName = basename(candidatesFile.path);
      candidates = { path: candidatesFile.path, downloadRef: downloadRef === null ? null : fileName, fileName, rows: result.rows };
    }
    if (signal?.aborted) throw cancelled();
    await together.commit();
  } catch (err) {
    await together.discard();
    throw err;
  }
  return { path, downloadRef, fileName: basename(path), rows: written.rows, candidates };
}

/**
 * The matches of a large export as two halves (export-halves.ts), the second written by a worker of its own into
 * `<path>.2.part`; null where there is no worker, the database has no file or cannot be read apart: the export then
 * goes on one thread.
 */
async function twoHalves(
  db: Database,
  project: ProjectRecord,
  req: ExportRequest,
  path: string,
  width: number,
  together: PartFiles,
  worker: () => ExportHalfThread | null,
  onPage: ((rowsDone: number) => void) | undefined,
): Promise<{ rows: RowPages; close: () => Promise<void> } | null> {
  if (db.memory) return null;
  const lastRow = db.prepare('SELECT max(row_index) FROM rows WHERE project_id = ?').pluck().get(project.id) as number | null;
  const thread = lastRow === null ? null : worker();
  if (!thread) return null;
  let halves: Halves;
  try {
    // The worker's connection opened first: the engine's thread waits for it to begin its read transaction.
    const ready = thread.connection();
    ready.catch(() => undefined);
    const secondPath = `${path}.2.part`;
    await together.scratch(secondPath);
    const format = req.format === 'csv' ? { kind: 'csv' as const, delimiter: req.delimiter ?? ',' } : { kind: 'xlsx' as const };
    halves = exportHalves({ db, projectId: project.id, scope: req.scope, width, format, lastRow: lastRow!, worker: thread, ready, secondPath, onPage });
  } catch {
    void thread.close();
    return null;
  }
  return {
    rows: halves.rows,
    close: async () => {
      await halves.close();
      await thread.close();
    },
  };
}

/** Where the candidates go, and as what: a named file keeps the format its name says, whatever the matches file's is. */
function candidatesTarget(path: string, req: ExportRequest): { path: string; format: 'csv' | 'xlsx' } {
  if (!req.candidatesDestination) return { path: candidatesPathFor(path, req.format), format: req.format };
  return { path: req.candidatesDestination, format: extname(req.candidatesDestination).toLowerCase() === '.xlsx' ? 'xlsx' : 'csv' };
}

function tooManyCandidateLines(path: string, lines: number): ExportError {
  return new ExportError(
    'too_many_rows',
    path,
    `Can't save ${exportLabel(path)}: an Excel sheet holds at most ${XLSX_MAX_ROWS.toLocaleString('en-US')} rows, and the candidates of these rows take ` +
      `${lines.toLocaleString('en-US')} lines (one per row and candidate). Save the candidates as CSV, or export the matches without them.`,
  );
}

/** `<folder>/<name>-candidates.<ext>` beside the matches file. */
export function candidatesPathFor(path: string, format: 'csv' | 'xlsx'): string {
  const ext = extname(path);
  const stem = ext ? basename(path, ext) : basename(path);
  return join(dirname(path), `${stem}-candidates${ext || `.${format}`}`);
}

function freeName(dir: string, stem: string, format: string, withCandidates: boolean): string {
  for (let n = 1; ; n++) {
    const name = n === 1 ? `${stem}.${format}` : `${stem} (${n}).${format}`;
    const taken = existsSync(join(dir, name)) || (withCandidates && existsSync(candidatesPathFor(join(dir, name), format as 'csv' | 'xlsx')));
    if (!taken) return name;
  }
}
