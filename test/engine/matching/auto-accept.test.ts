import { describe, expect, it } from 'vitest';
import { autoAcceptable } from '../../../electron/engine/matching';
import type { AutoAcceptRule, Candidate } from '../../../shared/model';

const person = { id: 'p1' };
const candidates = (...scores: (number | null)[]): Candidate[] => scores.map((score, i) => ({ rank: i + 1, score, person }));
const exactOnly: AutoAcceptRule = { exactSingle: true, minScore: null, minLead: 0.1 };
const scored: AutoAcceptRule = { exactSingle: false, minScore: 0.8, minLead: 0.1 };

describe('autoAcceptable', () => {
  it('accepts a single candidate found by exact e-mail or profile slug', () => {
    expect(autoAcceptable('email', candidates(null), exactOnly)).toBe(true);
    expect(autoAcceptable('social', candidates(null), exactOnly)).toBe(true);
  });

  it('not for name searches, several candidates, none, or when the rule is off', () => {
    expect(autoAcceptable('name+company', candidates(null), exactOnly)).toBe(false);
    expect(autoAcceptable('name', candidates(null), exactOnly)).toBe(false);
    expect(autoAcceptable('email', candidates(null, null), exactOnly)).toBe(false);
    expect(autoAcceptable('email', [], exactOnly)).toBe(false);
    expect(autoAcceptable('email', candidates(null), { ...exactOnly, exactSingle: false })).toBe(false);
  });

  it('accepts a high score with a clear lead', () => {
    expect(autoAcceptable('name+company', candidates(0.95, 0.5), scored)).toBe(true);
    expect(autoAcceptable('name', candidates(0.8, 0.7), scored)).toBe(true); // exactly at both limits
    expect(autoAcceptable('name', candidates(0.9, 0.8), scored)).toBe(true); // 0.9 - 0.8 is 0.0999... in floats
  });

  it('a lone candidate, or a second without a score, leads by its whole score', () => {
    expect(autoAcceptable('name', candidates(0.85), scored)).toBe(true);
    expect(autoAcceptable('name', candidates(0.85, null), scored)).toBe(true);
    expect(autoAcceptable('name', candidates(0.85), { ...scored, minLead: 0.9 })).toBe(false);
  });

  it('refuses a low score, a thin lead, or no score', () => {
    expect(autoAcceptable('name', candidates(0.79, 0.1), scored)).toBe(false);
    expect(autoAcceptable('name', candidates(0.95, 0.9), scored)).toBe(false);
    expect(autoAcceptable('name', candidates(null, 0.1), scored)).toBe(false);
    expect(autoAcceptable('name', candidates(Number.NaN), scored)).toBe(false);
    expect(autoAcceptable('name', candidates(0.99), { ...scored, minScore: null })).toBe(false);
  });

  it('reads the top candidate by rank, whatever the array order', () => {
    const shuffled: Candidate[] = [{ rank: 2, score: 0.5, person }, { rank: 1, score: 0.95, person }];
    expect(autoAcceptable('name', shuffled, scored)).toBe(true);
  });

  it('either rule can accept', () => {
    const both: AutoAcceptRule = { exactSingle: true, minScore: 0.8, minLead: 0.1 };
    expect(autoAcceptable('email', candidates(0.2), both)).toBe(true);
    expect(autoAcceptable('email', candidates(0.9, 0.2), both)).toBe(true);
    expect(autoAcceptable('email', candidates(0.9, 0.85), both)).toBe(false);
  });
});
