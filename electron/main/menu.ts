// The app menu. Commands that belong to a screen (open a file, export) are sent to the renderer, which carries
// them out exactly as if the user had clicked the button.
import type { MenuItemConstructorOptions } from 'electron';

export interface MenuActions {
  isMac: boolean;
  /** Development builds get reload and devtools; a packaged app does not. */
  isDev: boolean;
  newFromFile(): void;
  exportMatches(): void;
  openDataFolder(): void;
}

export function appMenuTemplate(actions: MenuActions): MenuItemConstructorOptions[] {
  const { isMac, isDev } = actions;
  const template: MenuItemConstructorOptions[] = [];
  if (isMac) template.push({ role: 'appMenu' });
  template.push(
    {
      label: '&File',
      submenu: [
        { label: 'New from File…', accelerator: 'CmdOrCtrl+O', click: () => actions.newFromFile() },
        { label: 'Export…', accelerator: 'CmdOrCtrl+E', click: () => actions.exportMatches() },
        { type: 'separator' },
        isMac ? { role: 'close' } : { role: 'quit', label: 'Quit' },
      ],
    },
    {
      label: '&Edit',
      submenu: [
        { role: 'undo' },
        { role: 'redo' },
        { type: 'separator' },
        { role: 'cut' },
        { role: 'copy' },
        { role: 'paste' },
        { role: 'selectAll' },
      ],
    },
    {
      label: '&View',
      submenu: [
        ...(isDev ? ([{ role: 'reload' }, { role: 'forceReload' }, { role: 'toggleDevTools' }, { type: 'separator' }] as MenuItemConstructorOptions[]) : []),
        { role: 'resetZoom' },
        { role: 'zoomIn' },
        { role: 'zoomOut' },
        { type: 'separator' },
        { role: 'togglefullscreen' },
      ],
    },
  );
  if (isMac) template.push({ role: 'windowMenu' });
  template.push({
    label: '&Help',
    role: 'help',
    submenu: [
      // No web help exists yet: the About panel names the version, the data folder is one click away.
      { role: 'about' },
      { label: 'Show Data Folder', click: () => actions.openDataFolder() },
    ],
  });
  return template;
}
