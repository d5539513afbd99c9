export type ThemeChoice = 'system' | 'light' | 'dark';

const ORDER: ThemeChoice[] = ['system', 'light', 'dark'];

export function nextTheme(current: ThemeChoice): ThemeChoice {
  return ORDER[(ORDER.indexOf(current) + 1) % ORDER.length];
}

export function parseTheme(value: string | null): ThemeChoice {
  return value === 'light' || value === 'dark' ? value : 'system';
}

export function themeLabel(choice: ThemeChoice): string {
  switch (choice) {
    case 'system':
      return 'Theme: as the system';
    case 'light':
      return 'Theme: light';
    case 'dark':
      return 'Theme: dark';
  }
}
