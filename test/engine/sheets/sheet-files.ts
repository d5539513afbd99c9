import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { onTestFinished } from 'vitest';
import type { OpenedSheet } from '../../../electron/engine/sheets';

/** A fresh folder under the OS temp folder, removed when the current test finishes. */
export function tempFolder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'matchdesk-sheets-'));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** Writes `content` to a new file in a fresh temp folder and returns its path. */
export function sheetFile(name: string, content: string | Buffer | Uint8Array): string {
  const path = join(tempFolder(), name);
  writeFileSync(path, content);
  return path;
}

export async function allRows(sheet: OpenedSheet): Promise<string[][]> {
  const rows: string[][] = [];
  for await (const row of sheet.rows()) rows.push(row);
  return rows;
}

/** Minimal SpreadsheetML parts, for workbooks laid out the way Excel writes them rather than exceljs. */
export const XLSX_CONTENT_TYPES =
  '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>' +
  '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
  '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
  '<Default Extension="xml" ContentType="application/xml"/>' +
  '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>' +
  '</Types>';
export const XLSX_ROOT_RELS =
  '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>' +
  '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
  '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/>' +
  '</Relationships>';
export const SHEET_NS = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
export const REL_NS = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
export const WORKSHEET_REL_TYPE = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet';
