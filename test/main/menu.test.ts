import type { MenuItemConstructorOptions } from 'electron';
import { describe, expect, it } from 'vitest';
import { appMenuTemplate, type MenuActions } from '../../electron/main/menu';

function template(overrides: Partial<MenuActions> = {}) {
  const calls: string[] = [];
  const actions: MenuActions = {
    isMac: false,
    isDev: false,
    newFromFile: () => calls.push('newFromFile'),
    exportMatches: () => calls.push('exportMatches'),
    openDataFolder: () => calls.push('openDataFolder'),
    ...overrides,
  };
  return { menu: appMenuTemplate(actions), calls };
}

function items(menu: MenuItemConstructorOptions[], label: string): MenuItemConstructorOptions[] {
  const top = menu.find((entry) => entry.label === label);
  return (top?.submenu ?? []) as MenuItemConstructorOptions[];
}

describe('the app menu', () => {
  it('has File, Edit, View and Help menus', () => {
    expect(template().menu.map((entry) => entry.label)).toEqual(['&File', '&Edit', '&View', '&Help']);
  });

  it('sends File > New from file and Export to their actions, and ends with Quit', () => {
    const { menu, calls } = template();
    const file = items(menu, '&File');
    for (const entry of file) (entry.click as (() => void) | undefined)?.();
    expect(calls).toEqual(['newFromFile', 'exportMatches']);
    expect(file.map((entry) => entry.label ?? entry.role ?? entry.type)).toEqual(['New from File…', 'Export…', 'separator', 'Quit']);
  });

  it('offers devtools only in development', () => {
    const roles = (isDev: boolean) => items(template({ isDev }).menu, '&View').map((entry) => entry.role);
    expect(roles(false)).not.toContain('toggleDevTools');
    expect(roles(false)).not.toContain('reload');
    expect(roles(true)).toContain('toggleDevTools');
  });

  it('offers the About panel and the data folder under Help', () => {
    const { menu, calls } = template();
    const help = items(menu, '&Help');
    expect(help.map((entry) => entry.label ?? entry.role)).toEqual(['about', 'Show Data Folder']);
    (help[1]!.click as () => void)();
    expect(calls).toEqual(['openDataFolder']);
  });

  it('adds the macOS app and window menus there', () => {
    const roles = template({ isMac: true }).menu.map((entry) => entry.role);
    expect(roles).toContain('appMenu');
    expect(roles).toContain('windowMenu');
  });
});
