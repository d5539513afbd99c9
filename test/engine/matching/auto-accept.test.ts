import { describe, expect, it } from 'vitest';
import { autoAccepts, type Verdict } from '../../../electron/engine/matching';
import type { AutoAcceptRule } from '../../../shared/model';

const rule: AutoAcceptRule = { enabled: true, minConfidence: 0.95, minLead: 0.5 };
const verdict = (confidence: number, runnerUp = 0, guard: string | null = null): Verdict => ({ confidence, runnerUp, guard });

describe('autoAccepts', () => {
  it('accepts a confident best candidate with a clear lead and no guard', () => {
    expect(autoAccepts(verdict(0.99, 0.01), rule)).toBe(true);
    expect(autoAccepts(verdict(0.95, 0.45), rule)).toBe(true); // exactly at both limits
    expect(autoAccepts(verdict(0.9499999999, 0), rule)).toBe(true); // a sum of shares that lands a hair under
  });

  it('refuses below the threshold, with a thin lead, or when a guard applies, whatever the confidence', () => {
    expect(autoAccepts(verdict(0.94, 0), rule)).toBe(false);
    expect(autoAccepts(verdict(0.96, 0.5), { ...rule, minConfidence: 0.6 })).toBe(false);
    expect(autoAccepts(verdict(1, 0, 'two candidates have this name and hold or held Globex'), rule)).toBe(false);
  });

  it('follows the threshold the user sets, and does nothing when the rule is off', () => {
    expect(autoAccepts(verdict(0.9, 0.05), { ...rule, minConfidence: 0.9 })).toBe(true);
    expect(autoAccepts(verdict(0.97, 0), { ...rule, minConfidence: 0.99 })).toBe(false);
    expect(autoAccepts(verdict(1, 0), { ...rule, enabled: false })).toBe(false);
  });
});
