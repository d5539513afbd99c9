// The review screen's keys in one table: the handler and the help overlay both read it, so they cannot drift.

export type ReviewAction =
  | { type: 'move'; by: -1 | 1 }
  | { type: 'page'; direction: -1 | 1 }
  | { type: 'edge'; to: 'first' | 'last' }
  | { type: 'choose'; rank: number }
  | { type: 'acceptTop' }
  | { type: 'reject' }
  | { type: 'skip' }
  | { type: 'undo' }
  | { type: 'help' }
  | { type: 'focusFilter' }
  | { type: 'groups' };

export interface KeyPress {
  key: string;
  ctrlKey?: boolean;
  metaKey?: boolean;
  altKey?: boolean;
}

/** The moves within a list of rows, by their keys: the review's and the search results' tables share them. */
export type ListMove = Extract<ReviewAction, { type: 'move' | 'page' | 'edge' }>;

/** Arrow keys (and j/k), Page Up/Down, Home/End: a move of the selection within a list. */
export function listMoveForKey(key: string): ListMove | null {
  switch (key) {
    case 'ArrowDown':
    case 'j':
      return { type: 'move', by: 1 };
    case 'ArrowUp':
    case 'k':
      return { type: 'move', by: -1 };
    case 'PageDown':
      return { type: 'page', direction: 1 };
    case 'PageUp':
      return { type: 'page', direction: -1 };
    case 'Home':
      return { type: 'edge', to: 'first' };
    case 'End':
      return { type: 'edge', to: 'last' };
    default:
      return null;
  }
}

export function reviewActionForKey(press: KeyPress): ReviewAction | null {
  if (press.altKey) return null;
  const key = press.key.length === 1 ? press.key.toLowerCase() : press.key;
  if (press.ctrlKey || press.metaKey) return key === 'z' ? { type: 'undo' } : null;
  const move = listMoveForKey(key);
  if (move) return move;
  switch (key) {
    case '1':
    case '2':
    case '3':
    case '4':
    case '5':
      return { type: 'choose', rank: Number(key) };
    case 'Enter':
      return { type: 'acceptTop' };
    case 'n':
      return { type: 'reject' };
    case 's':
      return { type: 'skip' };
    case 'u':
      return { type: 'undo' };
    case '?':
      return { type: 'help' };
    case '/':
      return { type: 'focusFilter' };
    case 'g':
      return { type: 'groups' };
    default:
      return null;
  }
}

export const REVIEW_KEY_HELP: { keys: string[]; what: string }[] = [
  { keys: ['↓', 'j'], what: 'Next row' },
  { keys: ['↑', 'k'], what: 'Previous row' },
  { keys: ['Page Down', 'Page Up'], what: 'A screenful down or up' },
  { keys: ['Home', 'End'], what: 'First or last row' },
  { keys: ['1', '2', '3', '4', '5'], what: 'Choose that candidate' },
  { keys: ['Enter'], what: 'Accept the top candidate' },
  { keys: ['n'], what: 'None fits' },
  { keys: ['s'], what: 'Skip for now' },
  { keys: ['u', 'Ctrl+Z'], what: 'Undo the last decision' },
  { keys: ['/'], what: 'Filter rows by text' },
  { keys: ['g'], what: 'Group rows by reason (rows like this)' },
  { keys: ['?'], what: 'Show these keys' },
];

/** Where the selection goes for a move, clamped to the list. */
export function movedPosition(position: number, total: number, action: ListMove, pageRows: number): number {
  if (total <= 0) return 0;
  const last = total - 1;
  switch (action.type) {
    case 'move':
      return Math.min(last, Math.max(0, position + action.by));
    case 'page':
      return Math.min(last, Math.max(0, position + action.direction * Math.max(1, pageRows)));
    case 'edge':
      return action.to === 'first' ? 0 : last;
  }
}
