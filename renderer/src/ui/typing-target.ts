// Single-key shortcuts (j, k, 1-5, Enter) must never steal keys from a field the user is typing in.

const TEXT_INPUT_TYPES = new Set(['text', 'search', 'email', 'number', 'password', 'url', 'tel', 'date', 'datetime-local', 'month', 'time', 'week', '']);

export interface KeyTarget {
  tagName: string;
  type?: string;
  isContentEditable?: boolean;
}

export function isTypingTarget(target: KeyTarget | null): boolean {
  if (!target) return false;
  if (target.isContentEditable) return true;
  const tag = target.tagName.toUpperCase();
  if (tag === 'TEXTAREA' || tag === 'SELECT') return true;
  if (tag === 'INPUT') return TEXT_INPUT_TYPES.has((target.type ?? '').toLowerCase());
  return false;
}

/** Controls that already do something on Enter or Space; a shortcut on those keys would do it twice. */
export function activatesOnEnter(target: KeyTarget | null): boolean {
  if (!target) return false;
  const tag = target.tagName.toUpperCase();
  return tag === 'BUTTON' || tag === 'A' || tag === 'SUMMARY' || tag === 'INPUT' || tag === 'SELECT' || tag === 'TEXTAREA';
}
