// What counts as a change between two states of a person, and when a watch is due next: pure, so every case is here.
import { describe, expect, it } from 'vitest';
import { changeBetween } from '../../../electron/engine/rows/person-state';
import { nextDue } from '../../../electron/engine/watch/watches';

const at = (company: string | null, title: string | null = 'Engineer') => ({ company, title, since: null });

describe('a change between two states of a person', () => {
  it('moved, left or a new title; the same company spelled another way, or a new start date alone, is no change', () => {
    expect(changeBetween(at('Globex Inc.'), at('Initech'))).toBe('moved');
    expect(changeBetween(at(null, null), at('Initech'))).toBe('moved');
    expect(changeBetween(at('Globex Inc.'), at(null, null))).toBe('left');
    expect(changeBetween(at('Globex Inc.'), at('Globex Inc.', 'CTO'))).toBe('title');
    expect(changeBetween(at('Globex Inc.'), at('GLOBEX, Inc.'))).toBeNull();
    expect(changeBetween(at('Globex Inc.'), { ...at('Globex Inc.'), since: '2024-01' })).toBeNull();
    expect(changeBetween(at(null, null), at(null, null))).toBeNull();
  });
});

describe('when a watch is due next', () => {
  const monday = Date.parse('2026-11-30T15:00:00Z');
  it('every N days: N days on', () => {
    expect(new Date(nextDue({ everyDays: 30, weekday: null }, monday)).toISOString()).toBe('2026-12-30T15:00:00.000Z');
  });
  it('weekly on a day: the start of its next one (UTC), a week on when it is that day now', () => {
    expect(new Date(nextDue({ everyDays: null, weekday: 3 }, monday)).toISOString()).toBe('2026-12-02T00:00:00.000Z');
    expect(new Date(nextDue({ everyDays: null, weekday: 1 }, monday)).toISOString()).toBe('2026-12-07T00:00:00.000Z');
    expect(new Date(nextDue({ everyDays: null, weekday: 0 }, monday)).toISOString()).toBe('2026-12-06T00:00:00.000Z');
  });
});
