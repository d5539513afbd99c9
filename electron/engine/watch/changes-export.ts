import type { Database } from 'better-sqlite3';
import { existsSync, mkdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { ExportResult, PersonChange } from '../../../shared/contract';
import { writeTable, type ExportCell } from '../export';
import { safeFileName } from '../file-names';
import { requireProject } from '../rows/project-record';
import { projectChanges } from './changes';

/** The columns after the sheet's own: what a CRM needs to update a contact, one change a row. */
export const CHANGE_COLUMNS = [
  'change_person',
  'change_person_id',
  'change_kind',
  'change_old_company',
  'change_old_title',
  'change_new_company',
  'change_new_title',
  'change_date',
  'change_detected_date',
  'change_important',
] as const;

export interface ChangesExportRequest {
  projectId: number;
  since: string;
  format: 'csv' | 'xlsx';
  destination: string | null;
  bom: boolean;
  delimiter: string;
}

/**
 * Writes the matched rows whose person moved, left or changed title since the day, one row a change: the sheet's
 * columns, the person, old and new company and title, when it changed (as the service wrote it) and the day a
 * refresh found it. Without a destination the file goes into `exportDir` under a fresh name (a download in the browser).
 */
export async function changesExport(db: Database, req: ChangesExportRequest, exportDir: string): Promise<ExportResult> {
  const project = requireProject(db, req.projectId);
  const changes = projectChanges(db, project.id, { beforeDate: req.since });
  let path = req.destination;
  let downloadRef: string | null = null;
  if (!path) {
    mkdirSync(exportDir, { recursive: true, mode: 0o700 });
    const stem = `${safeFileName(project.name)}-changes-since-${req.since}`;
    let name = `${stem}.${req.format}`;
    for (let n = 2; existsSync(join(exportDir, name)); n++) name = `${stem}-${n}.${req.format}`;
    path = join(exportDir, name);
    downloadRef = name;
  }
  const width = project.headers.length;
  const rows = changes.map((c) => changeRow(c, width));
  const written = await writeTable({ path, format: req.format, bom: req.bom, delimiter: req.delimiter, sheetName: 'Changes' }, [...project.headers, ...CHANGE_COLUMNS], rows);
  return { path, downloadRef, fileName: basename(path), rows: written.rows };
}

function changeRow(c: PersonChange, width: number): ExportCell[] {
  const cells: ExportCell[] = Array.from({ length: width }, (_, i) => c.cells[i] ?? '');
  return [
    ...cells,
    c.personName ?? '',
    c.personId ?? '',
    c.kind,
    c.from.company ?? '',
    c.from.title ?? '',
    c.to.company ?? '',
    c.to.title ?? '',
    c.changeDate ?? '',
    c.detectedAt.slice(0, 10),
    c.important ? 'yes' : 'no',
  ];
}
