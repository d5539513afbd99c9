import { describe, expect, it } from 'vitest';
import { listMoveForKey, movedPosition, REVIEW_KEY_HELP, reviewActionForKey } from '../../renderer/src/features/review/review-keys';
import { activatesOnEnter, isTypingTarget } from '../../renderer/src/ui/typing-target';

describe('review keys', () => {
  it('maps the documented keys', () => {
    expect(reviewActionForKey({ key: 'j' })).toEqual({ type: 'move', by: 1 });
    expect(reviewActionForKey({ key: 'ArrowDown' })).toEqual({ type: 'move', by: 1 });
    expect(reviewActionForKey({ key: 'k' })).toEqual({ type: 'move', by: -1 });
    expect(reviewActionForKey({ key: 'ArrowUp' })).toEqual({ type: 'move', by: -1 });
    for (const rank of [1, 2, 3, 4, 5]) expect(reviewActionForKey({ key: String(rank) })).toEqual({ type: 'choose', rank });
    expect(reviewActionForKey({ key: 'n' })).toEqual({ type: 'reject' });
    expect(reviewActionForKey({ key: 's' })).toEqual({ type: 'skip' });
    expect(reviewActionForKey({ key: 'u' })).toEqual({ type: 'undo' });
    expect(reviewActionForKey({ key: 'Enter' })).toEqual({ type: 'acceptTop' });
    expect(reviewActionForKey({ key: '?' })).toEqual({ type: 'help' });
    expect(reviewActionForKey({ key: 'g' })).toEqual({ type: 'groups' });
    expect(reviewActionForKey({ key: 'G' })).toEqual({ type: 'groups' });
  });

  it('moves within a list by the same keys in the review and the search results, and by no other', () => {
    for (const key of ['j', 'k', 'ArrowDown', 'ArrowUp', 'PageDown', 'PageUp', 'Home', 'End']) {
      expect(listMoveForKey(key)).not.toBeNull();
      expect(reviewActionForKey({ key })).toEqual(listMoveForKey(key));
    }
    expect(listMoveForKey('End')).toEqual({ type: 'edge', to: 'last' });
    expect(listMoveForKey('PageUp')).toEqual({ type: 'page', direction: -1 });
    for (const key of ['1', 'Enter', 'n', 'u', '?', '/', 'g']) expect(listMoveForKey(key)).toBeNull();
  });

  it('works with caps lock on, and takes Ctrl+Z as undo', () => {
    expect(reviewActionForKey({ key: 'N' })).toEqual({ type: 'reject' });
    expect(reviewActionForKey({ key: 'z', ctrlKey: true })).toEqual({ type: 'undo' });
    expect(reviewActionForKey({ key: 'z', metaKey: true })).toEqual({ type: 'undo' });
  });

  it('leaves other keys and browser shortcuts alone', () => {
    expect(reviewActionForKey({ key: '6' })).toBeNull();
    expect(reviewActionForKey({ key: 'x' })).toBeNull();
    expect(reviewActionForKey({ key: 'Tab' })).toBeNull();
    expect(reviewActionForKey({ key: 'r', ctrlKey: true })).toBeNull();
    expect(reviewActionForKey({ key: 's', metaKey: true })).toBeNull();
    expect(reviewActionForKey({ key: 'j', altKey: true })).toBeNull();
  });

  it('lists every key in the help table', () => {
    const keys = REVIEW_KEY_HELP.flatMap((entry) => entry.keys);
    for (const key of ['↓', 'j', '↑', 'k', '1', '5', 'Enter', 'n', 's', 'u', '?', 'g']) expect(keys).toContain(key);
    expect(REVIEW_KEY_HELP.find((entry) => entry.keys.includes('g'))?.what).toBe('Group rows by reason (rows like this)');
  });

  it('clamps moves to the list', () => {
    expect(movedPosition(0, 10, { type: 'move', by: -1 }, 5)).toBe(0);
    expect(movedPosition(9, 10, { type: 'move', by: 1 }, 5)).toBe(9);
    expect(movedPosition(3, 10, { type: 'page', direction: 1 }, 5)).toBe(8);
    expect(movedPosition(3, 10, { type: 'page', direction: -1 }, 5)).toBe(0);
    expect(movedPosition(3, 100_000, { type: 'edge', to: 'last' }, 5)).toBe(99_999);
    expect(movedPosition(3, 0, { type: 'move', by: 1 }, 5)).toBe(0);
  });
});

describe('keys while typing', () => {
  it('treats text fields, selects and editable content as typing', () => {
    expect(isTypingTarget({ tagName: 'INPUT', type: 'text' })).toBe(true);
    expect(isTypingTarget({ tagName: 'input', type: 'search' })).toBe(true);
    expect(isTypingTarget({ tagName: 'INPUT', type: 'password' })).toBe(true);
    expect(isTypingTarget({ tagName: 'INPUT' })).toBe(true);
    expect(isTypingTarget({ tagName: 'TEXTAREA' })).toBe(true);
    expect(isTypingTarget({ tagName: 'SELECT' })).toBe(true);
    expect(isTypingTarget({ tagName: 'DIV', isContentEditable: true })).toBe(true);
  });

  it('lets keys through on checkboxes, buttons and the table', () => {
    expect(isTypingTarget({ tagName: 'INPUT', type: 'checkbox' })).toBe(false);
    expect(isTypingTarget({ tagName: 'BUTTON' })).toBe(false);
    expect(isTypingTarget({ tagName: 'DIV' })).toBe(false);
    expect(isTypingTarget(null)).toBe(false);
  });

  it('leaves Enter to buttons and links that act on it themselves', () => {
    expect(activatesOnEnter({ tagName: 'BUTTON' })).toBe(true);
    expect(activatesOnEnter({ tagName: 'A' })).toBe(true);
    expect(activatesOnEnter({ tagName: 'DIV' })).toBe(false);
  });
});
