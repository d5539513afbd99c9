import type { CallInput } from '../../../../shared/contract';
import type { Delimiter, ExportFormat } from '../export/export-choice';

export interface SearchExportChoice {
  format: ExportFormat;
  delimiter: Delimiter;
}

export const DEFAULT_SEARCH_EXPORT: SearchExportChoice = { format: 'csv', delimiter: ',' };

/** A file name for the save dialog: the search's name, safe on every OS. */
export function searchExportName(searchName: string, format: ExportFormat): string {
  const printable = Array.from(searchName, (char) => (char.charCodeAt(0) < 32 ? ' ' : char)).join('');
  const base =
    printable
      .replace(/[\\/:*?"<>|]+/g, ' ')
      .replace(/\s+/g, ' ')
      .trim()
      .replace(/[. ]+$/, '')
      .slice(0, 100) || 'search';
  return `${base}.${format}`;
}

export function searchExportInput(searchId: number, choice: SearchExportChoice, destination: string | null): CallInput<'search.export'> {
  return { searchId, format: choice.format, destination, ...(choice.format === 'csv' ? { delimiter: choice.delimiter } : {}) };
}
