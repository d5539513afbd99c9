import { useEffect, useState } from 'react';
import { nextTheme, parseTheme, themeLabel, type ThemeChoice } from '../ui/theme';

const THEME_KEY = 'matchdesk.theme';

function readTheme(): ThemeChoice {
  try {
    return parseTheme(window.localStorage.getItem(THEME_KEY));
  } catch {
    return 'system';
  }
}

export function ThemeToggle() {
  const [theme, setTheme] = useState<ThemeChoice>(readTheme);

  useEffect(() => {
    const root = document.documentElement;
    if (theme === 'system') delete root.dataset.theme;
    else root.dataset.theme = theme;
    try {
      window.localStorage.setItem(THEME_KEY, theme);
    } catch {
      // Without storage the choice lasts until reload; the system theme is a fine fallback.
    }
  }, [theme]);

  const next = nextTheme(theme);
  return (
    <button type="button" className="nav__theme" onClick={() => setTheme(next)} aria-label={`${themeLabel(theme)}. Switch to ${next === 'system' ? 'the system theme' : next}`}>
      <span aria-hidden="true">{theme === 'dark' ? '☾' : theme === 'light' ? '☀' : '◐'}</span> {themeLabel(theme)}
    </button>
  );
}
