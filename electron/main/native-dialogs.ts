// The host calls the Electron shell answers itself: the OS open and save dialogs.
import type { BrowserWindow, Dialog } from 'electron';
import { basename, join } from 'node:path';
import type { HostCalls } from '../engine/route-call';

export const SHEET_FILTERS = [
  { name: 'Spreadsheets (CSV, TSV, Excel)', extensions: ['csv', 'tsv', 'txt', 'xlsx'] },
  { name: 'All files', extensions: ['*'] },
];

export interface NativeDialogOptions {
  dialog: Pick<Dialog, 'showOpenDialog' | 'showSaveDialog'>;
  window: () => BrowserWindow | null;
  /** Where the save dialog starts: the user's Documents folder. */
  documentsDir: string;
}

export async function pickSheet({ dialog, window }: Pick<NativeDialogOptions, 'dialog' | 'window'>): Promise<string | null> {
  const options = { title: 'Open a spreadsheet', properties: ['openFile' as const], filters: SHEET_FILTERS };
  const parent = window();
  const result = parent ? await dialog.showOpenDialog(parent, options) : await dialog.showOpenDialog(options);
  return result.canceled ? null : (result.filePaths[0] ?? null);
}

export function nativeDialogs({ dialog, window, documentsDir }: NativeDialogOptions): HostCalls {
  return {
    'dialog.openSheet': async () => ({ supported: true, file: await pickSheet({ dialog, window }) }),
    'dialog.saveExport': async ({ defaultName, format }) => {
      const options = {
        title: 'Export matches',
        // basename: the renderer suggests a name, never a folder.
        defaultPath: join(documentsDir, basename(defaultName)),
        filters: [format === 'xlsx' ? { name: 'Excel workbook', extensions: ['xlsx'] } : { name: 'CSV', extensions: ['csv'] }],
        properties: ['createDirectory' as const, 'showOverwriteConfirmation' as const],
      };
      const parent = window();
      const result = parent ? await dialog.showSaveDialog(parent, options) : await dialog.showSaveDialog(options);
      return { supported: true, path: result.canceled || !result.filePath ? null : result.filePath };
    },
  };
}
