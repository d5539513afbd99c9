import { describe, expect, it } from 'vitest';
import type { RunPreview } from '../../shared/contract';
import { formatPreview } from '../../electron/cli/progress';

const preview: RunPreview = {
  rows: 3000,
  blankRows: 0,
  rowsWithoutQuery: 12,
  distinctQueries: 260,
  cachedFresh: 12,
  toFetch: 248,
  calls: 3,
  estimatedSeconds: 4,
  byStrategy: { email: 260 },
  offline: false,
  creditsRemaining: 9870,
  creditsUpTo: 1240,
};

describe("the command line's cost preview", () => {
  it('sets the run against the credits the service said remain', () => {
    expect(formatPreview(preview)).toContain('Credits:              up to 1,240 of 9,870 remaining\n');
    expect(formatPreview(preview)).not.toContain('note:');
  });

  it('says when the run can pass what remains', () => {
    expect(formatPreview({ ...preview, creditsRemaining: 1000 })).toMatch(/Credits: +up to 1,240 of 1,000 remaining\n {2}note: this can pass the credits that remain/);
  });

  it('says nothing of credits when the service never said', () => {
    expect(formatPreview({ ...preview, creditsRemaining: null })).not.toMatch(/credit/i);
  });
});
