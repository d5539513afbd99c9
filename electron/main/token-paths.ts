// Where Electron's IPC differs from the engine's contract: the page names files by the tokens of picked-files.ts,
// and each is turned back into its path here, before the engine parses the call. A raw path is refused.
import type { CallName, ContractError } from '../../shared/contract';
import { PICKED_PREFIX, type PickedFiles, type PickedUse, type TokenOwner } from './picked-files';

/** The fields of each call that name a file, and what the call does with it. */
const FILE_FIELDS: Partial<Record<CallName, { field: string; use: PickedUse }[]>> = {
  'projects.import': [{ field: 'file', use: 'read' }],
  'projects.sheets': [{ field: 'file', use: 'read' }],
  // A cancel of an import names its file; the other ways to cancel name none, and pass.
  'job.cancel': [{ field: 'file', use: 'read' }],
  'search.columnValues': [{ field: 'file', use: 'read' }],
  'export.run': [
    { field: 'destination', use: 'write' },
    { field: 'candidatesDestination', use: 'write' },
  ],
  'search.export': [{ field: 'destination', use: 'write' }],
};

export type Translated = { ok: true; input: unknown } | { ok: false; error: ContractError };

const REFUSED: Record<PickedUse, string> = {
  read: 'Matchdesk opens only files picked in its open dialog or dropped on this window, not a path the page names. Drop the file on the window or pick it again.',
  write: 'Matchdesk writes only where its save dialog was answered in this window, not to a path the page names. Export again and choose where in the dialog.',
};

const UNKNOWN: Record<PickedUse, string> = {
  read: 'This window did not pick or have dropped on it the file it names (a token of another window, or one never given). Drop the file on the window or pick it again.',
  write: 'This window did not choose that place in its save dialog (a token of another window, of an opened file, or one never given). Export again and choose where in the dialog.',
};

export function translateTokens(name: CallName, input: unknown, owner: TokenOwner, picked: PickedFiles): Translated {
  const fields = FILE_FIELDS[name];
  if (!fields || !isObject(input)) return { ok: true, input };
  const translated: Record<string, unknown> = { ...input };
  for (const { field, use } of fields) {
    const value = input[field];
    // Absent or null (the host decides), or not a string: left for the contract's schema to take or refuse.
    if (typeof value !== 'string') continue;
    if (!value.startsWith(PICKED_PREFIX)) return refuse(REFUSED[use], 'path_refused');
    const path = picked.pathOf(owner, value, use);
    if (path === null) return refuse(UNKNOWN[use], 'token_unknown');
    translated[field] = path;
  }
  return { ok: true, input: translated };
}

function refuse(message: string, code: string): Translated {
  return { ok: false, error: { kind: 'forbidden', message, code } };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
