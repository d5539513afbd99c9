import { describe, expect, it } from 'vitest';
import { DEFAULT_VIEW, isFiltered, parseView, reviewFilterOf, viewFilterWords, viewStorageKey } from '../../renderer/src/features/review/review-view';

describe('the review view kept per project', () => {
  it('reads back what was stored, each project under its own key', () => {
    const view = { states: ['to_review' as const], text: 'anna', order: 'confidence_desc' as const, jobChanges: ['moved' as const], changedOnly: true, group: null };
    expect(parseView(JSON.stringify(view))).toEqual(view);
    expect(viewStorageKey(3)).not.toBe(viewStorageKey(4));
  });

  it('falls back to the default view for what is missing, unreadable or of another shape', () => {
    expect(parseView(null)).toEqual(DEFAULT_VIEW);
    expect(parseView('{not json')).toEqual(DEFAULT_VIEW);
    expect(parseView('[1,2]')).toEqual(DEFAULT_VIEW);
    // Each field on its own: a state the app no longer has, an order it never had.
    expect(parseView(JSON.stringify({ states: ['gone'], text: 'x', order: 'random', jobChanges: null, changedOnly: 'yes' }))).toEqual({ ...DEFAULT_VIEW, text: 'x' });
    expect(parseView(JSON.stringify({ states: [] }))).toEqual(DEFAULT_VIEW);
  });

  it('says the active filters in words, joined by "and" as the list applies them', () => {
    expect(isFiltered(DEFAULT_VIEW)).toBe(false);
    expect(viewFilterWords(DEFAULT_VIEW)).toEqual([]);
    const view = { ...DEFAULT_VIEW, states: ['to_review' as const], jobChanges: ['moved' as const], text: ' anna ' };
    expect(isFiltered(view)).toBe(true);
    expect(viewFilterWords(view).join(' and ')).toBe('To review and Moved and “anna”');
    expect(isFiltered({ ...DEFAULT_VIEW, order: 'confidence_asc' })).toBe(false);
  });

  it('keeps a group of rows like this, shows it alone, and says it in its own words', () => {
    const group = { pattern: 'near_name|typo|current_same|none|alone', words: 'Rows with a near name at the same company' };
    const view = { ...DEFAULT_VIEW, group };
    expect(parseView(JSON.stringify(view))).toEqual(view);
    // A stored group of another shape is dropped, the rest of the view kept.
    expect(parseView(JSON.stringify({ ...view, text: 'x', group: { pattern: '' } }))).toEqual({ ...DEFAULT_VIEW, text: 'x' });
    expect(isFiltered(view)).toBe(true);
    expect(viewFilterWords({ ...view, states: ['to_review'], text: 'anna' })).toEqual([group.words]);
    // The engine lists a group's rows in sheet order with no other filter: the list asks for exactly that.
    expect(reviewFilterOf({ ...view, states: ['auto'], order: 'confidence_desc', changedOnly: true, text: 'anna' })).toEqual({
      states: null,
      text: '',
      order: 'file',
      jobChanges: null,
      changedAtLastRefresh: false,
      pattern: group.pattern,
    });
    expect(reviewFilterOf({ ...DEFAULT_VIEW, states: ['auto'], order: 'confidence_desc', text: 'anna' })).toEqual({
      states: ['auto'],
      text: 'anna',
      order: 'confidence_desc',
      jobChanges: null,
      changedAtLastRefresh: false,
      pattern: null,
    });
  });
});
