// The evaluation runner end to end at a small size: the real engine, the simulator on 127.0.0.1, a real SQLite
// file in a temp folder. It checks that every row's decision is read and scored, not what the engine decides:
// the quality targets are the bench's to measure.
import { describe, expect, it } from 'vitest';
import { EVALUATION_CATEGORIES } from '../../electron/simulator/evaluation-set';
import { runEvaluation } from '../../bench/quality/run-evaluation';

describe('runEvaluation', () => {
  it('runs the engine on the labeled sheet and scores every row of every category', async () => {
    const lines: string[] = [];
    // Enough people for a company that begins another's name (sister_company rows).
    const run = await runEvaluation({ people: 8000, seed: 5, rowsPerCategory: 12, concurrency: 2, log: (line) => lines.push(line) });
    const perCategory = EVALUATION_CATEGORIES.map((c) => run.rowsByCategory[c]);
    expect(perCategory.every((n) => n > 0)).toBe(true);
    expect(run.rows).toBe(perCategory.reduce((a, b) => a + b, 0));
    expect(Object.values(run.states).reduce((a, b) => a + b, 0)).toBe(run.rows);
    expect(run.score.overall.rows).toBe(run.rows);
    for (const c of EVALUATION_CATEGORIES) expect(run.score.byCategory[c].rows).toBe(run.rowsByCategory[c]);
    expect(run.mappingFixed).toBe(false);
    // Whatever the engine decides, an e-mail or a profile link finds its owner: accepted, or offered for review.
    for (const c of ['email', 'email_only', 'profile'] as const) {
      const f = run.score.byCategory[c];
      expect(f.automatic - f.wrongAutomatic + f.truthAmongCandidates, c).toBe(f.rows);
    }
    expect(run.checks.map((check) => check.id)).toHaveLength(9);
    // Every accepted row's job change is measured; no refresh was asked for, so none after one.
    expect(run.jobChange.rows).toBe((run.states.auto ?? 0) + (run.states.accepted ?? 0));
    expect(run.checks.map((check) => check.id)).toContain('quality_job_change');
    // And every row whose top candidate is the true person, once a reviewer accepted those left for review.
    expect(run.acceptedByReviewer).toBeGreaterThan(0);
    expect(run.jobChangeMatched.rows).toBeGreaterThan(run.acceptedByReviewer);
    expect(run.checks.map((check) => check.id)).toContain('quality_job_change_matched');
    expect(run.refreshed).toBeNull();
    expect(lines.join('\n')).toMatch(/labeled rows from 8,000 people/);
  });
});
