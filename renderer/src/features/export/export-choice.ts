import type { CallInput, ExportChoice } from '../../../../shared/contract';

export type { ExportChoice };
export type ExportFormat = ExportChoice['format'];
/** changed: the matched rows whose person's job changed at the last refresh. */
export type ExportScope = ExportChoice['scope'];
export type Delimiter = ExportChoice['delimiter'];

export const DEFAULT_EXPORT_CHOICE: ExportChoice = { format: 'csv', scope: 'all', candidates: false, bom: true, delimiter: ',' };

export const DELIMITERS: { value: Delimiter; label: string }[] = [
  { value: ',', label: 'Comma ( , )' },
  { value: ';', label: 'Semicolon ( ; ), for Excel in many European locales' },
  { value: '\t', label: 'Tab' },
  { value: '|', label: 'Vertical bar ( | )' },
];

/** A file name for the save dialog: the project's name, safe on every OS. */
export function defaultExportName(projectName: string, choice: Pick<ExportChoice, 'format' | 'scope'>): string {
  const printable = Array.from(projectName, (char) => (char.charCodeAt(0) < 32 ? ' ' : char)).join('');
  const base =
    printable
      .replace(/\.(csv|tsv|txt|xlsx)$/i, '')
      .replace(/[\\/:*?"<>|]+/g, ' ')
      .replace(/\s+/g, ' ')
      .trim()
      .slice(0, 120) || 'matchdesk';
  const scope = choice.scope === 'matched' ? 'matched' : choice.scope === 'changed' ? 'changed at last refresh' : 'all rows';
  return `${base} - ${scope}.${choice.format}`;
}

export function exportInputFor(projectId: number, choice: ExportChoice, destination: string | null): CallInput<'export.run'> {
  return {
    projectId,
    format: choice.format,
    scope: choice.scope,
    candidates: choice.candidates,
    destination,
    ...(choice.format === 'csv' ? { bom: choice.bom, delimiter: choice.delimiter } : {}),
  };
}
