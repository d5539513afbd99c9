// The one place the browser host differs from Electron: a page in a browser may name only files it uploaded,
// and exports come back as downloads. Inputs are rewritten here before the engine parses them.
import type { CallName, ContractError } from '../../shared/contract';
import { UPLOAD_PREFIX, type Uploads } from './uploads';

const FILE_CALLS: readonly CallName[] = ['projects.import', 'job.cancel', 'projects.sheets', 'search.columnValues'];

export type Translated = { ok: true; input: unknown } | { ok: false; error: ContractError };

export function translateBrowserInput(name: CallName, input: unknown, uploads: Pick<Uploads, 'pathOf'>): Translated {
  if (!isObject(input)) return { ok: true, input };
  if (FILE_CALLS.includes(name) && 'file' in input) {
    const file = input.file;
    // Anything but a string is left for the contract's schema to refuse with its usual message.
    if (typeof file !== 'string') return { ok: true, input };
    // A path would let any page that got hold of the token read any file this user can read.
    if (!file.startsWith(UPLOAD_PREFIX)) {
      return { ok: false, error: { kind: 'invalid_input', message: 'The browser host opens only files uploaded through the page, not a path on this computer. Drop the file on the window or pick it again.', code: 'path_refused' } };
    }
    const path = uploads.pathOf(file);
    if (!path) {
      return { ok: false, error: { kind: 'not_found', message: 'The uploaded file is no longer here (the browser host may have been restarted). Pick the file again.', code: 'upload_gone' } };
    }
    return { ok: true, input: { ...input, file: path } };
  }
  if (name === 'export.run' || name === 'search.export' || name === 'watch.exportChanges') {
    // The page cannot choose where a file lands on this computer: the host writes it and offers a download.
    const named = (field: string) => field in input && input[field] !== null && input[field] !== undefined;
    if (named('destination') || named('candidatesDestination')) {
      return { ok: false, error: { kind: 'invalid_input', message: 'The browser host delivers exports as downloads; it does not accept a destination path.', code: 'path_refused' } };
    }
    return { ok: true, input: { ...input, destination: null } };
  }
  return { ok: true, input };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
