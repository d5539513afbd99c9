import { useEffect, useRef } from 'react';
import { activatesOnEnter, isTypingTarget } from './typing-target';

/**
 * Calls `onKey` for keys pressed anywhere on the page, except while the user types in a field, while a modal
 * dialog is open, or (for Enter and Space) on a control that already acts on them. Return true to consume.
 */
export function useShortcuts(onKey: (event: KeyboardEvent) => boolean, enabled = true): void {
  const handlerRef = useRef(onKey);
  useEffect(() => {
    handlerRef.current = onKey;
  });

  useEffect(() => {
    if (!enabled) return;
    const listener = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.isComposing) return;
      const target = event.target instanceof HTMLElement ? event.target : null;
      if (isTypingTarget(target)) return;
      if ((event.key === 'Enter' || event.key === ' ') && activatesOnEnter(target)) return;
      if (document.querySelector('dialog[open]')) return;
      if (handlerRef.current(event)) event.preventDefault();
    };
    window.addEventListener('keydown', listener);
    return () => window.removeEventListener('keydown', listener);
  }, [enabled]);
}

/** Escape cancels a long step (an import, a plan, an export) while `active`: the key of the Cancel button beside it. */
export function useEscapeToCancel(cancel: () => void, active: boolean): void {
  useShortcuts((event) => {
    if (event.key !== 'Escape') return false;
    cancel();
    return true;
  }, active);
}
