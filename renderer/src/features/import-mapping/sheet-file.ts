// Which files Matchdesk can import, and which file each project of this session came from (the XLSX sheet
// picker re-imports the same file with another sheet, and the engine does not hand file references back).

export const SHEET_ACCEPT = '.csv,.tsv,.txt,.xlsx';
const SHEET_EXTENSIONS = ['.csv', '.tsv', '.txt', '.xlsx'];

export function isSupportedSheetName(fileName: string): boolean {
  const lower = fileName.toLowerCase();
  return SHEET_EXTENSIONS.some((extension) => lower.endsWith(extension));
}

export function unsupportedSheetMessage(fileName: string): string {
  return `"${fileName}" is not a file Matchdesk can read. Use a CSV, TSV or text file with comma, tab or semicolon separated values, or an Excel .xlsx workbook.`;
}

/** A readable project name from a file path or upload name. */
export function fileNameOf(reference: string): string {
  const parts = reference.split(/[\\/]/);
  return parts[parts.length - 1] || reference;
}

export interface SourceStore {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

const SOURCES_KEY = 'matchdesk.sheetSources';

function readSources(store: SourceStore): Record<string, string> {
  try {
    const parsed: unknown = JSON.parse(store.getItem(SOURCES_KEY) ?? '{}');
    return typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, string>) : {};
  } catch {
    return {};
  }
}

export function rememberSheetSource(store: SourceStore, projectId: number, fileRef: string): void {
  const sources = readSources(store);
  sources[String(projectId)] = fileRef;
  store.setItem(SOURCES_KEY, JSON.stringify(sources));
}

export function sheetSourceOf(store: SourceStore, projectId: number): string | null {
  const value = readSources(store)[String(projectId)];
  return typeof value === 'string' ? value : null;
}

/** sessionStorage when the page has one; an in-memory stand-in otherwise (tests, locked-down browsers). */
export function sessionSources(): SourceStore {
  try {
    if (typeof window !== 'undefined' && window.sessionStorage) return window.sessionStorage;
  } catch {
    // Access to sessionStorage can throw in a sandboxed frame.
  }
  const memory = new Map<string, string>();
  return { getItem: (key) => memory.get(key) ?? null, setItem: (key, value) => void memory.set(key, value) };
}
