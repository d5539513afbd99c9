import { useEffect, useState } from 'react';

/** Below this window width the menu starts folded, so a small window keeps its width for the screen's work. */
export const NARROW_WINDOW = '(max-width: 1000px)';

/**
 * Whether the side menu is folded, and the switch for it. It follows the window's width until the user folds or
 * unfolds it; crossing the width again hands it back to the width.
 */
export function useFoldedNav(): { folded: boolean; toggle: () => void } {
  const [narrow, setNarrow] = useState(() => window.matchMedia(NARROW_WINDOW).matches);
  const [chosen, setChosen] = useState<boolean | null>(null);

  useEffect(() => {
    const query = window.matchMedia(NARROW_WINDOW);
    const onChange = () => {
      setNarrow(query.matches);
      setChosen(null);
    };
    query.addEventListener('change', onChange);
    return () => query.removeEventListener('change', onChange);
  }, []);

  const folded = chosen ?? narrow;
  return { folded, toggle: () => setChosen(!folded) };
}
