import { describe, expect, it } from 'vitest';
import { freshStatus, replannedStatus, type PlannedStep } from '../../../electron/engine/runs/replan-row';
import type { RowStatusRecord } from '../../../electron/engine/rows/row-status';

/** A query's id for the current service, by its one-letter name. */
const idOf = (name: string) => name.charCodeAt(0);
/** The id the same terms had for another service. */
const otherService = (name: string) => 1000 + idOf(name);
const step = (name: string): PlannedStep => ({ id: idOf(name), signature: name, strategy: 'email' });
const plan = (...names: string[]) => names.map(step);

function status(over: Partial<RowStatusRecord>): RowStatusRecord {
  return {
    rowIndex: 7,
    state: 'pending',
    outcome: 'pending',
    step: 0,
    strategy: 'email',
    queryId: idOf('a'),
    fetchedAt: null,
    candidateCount: 0,
    chosenRank: null,
    chosen: null,
    source: null,
    decidedAt: null,
    verdict: null,
    label: 'old',
    ...over,
  };
}
const accepted = status({
  state: 'accepted',
  outcome: 'to_review',
  step: 1,
  queryId: otherService('b'),
  candidateCount: 3,
  chosenRank: 2,
  chosen: { rank: 2, score: 0.8, summary: { id: 'p1', name: 'Jane', title: null, company: null, social: null, location: null } },
  source: 'manual',
  decidedAt: '2026-01-01T00:00:00.000Z',
});

describe('a row after its plan changed', () => {
  it('starts pending at its first query, or has nothing to ask', () => {
    expect(freshStatus(3, plan('a', 'b'), 'Jane')).toMatchObject({ rowIndex: 3, state: 'pending', step: 0, queryId: idOf('a'), label: 'Jane' });
    expect(freshStatus(3, [], '')).toMatchObject({ state: 'no_query', outcome: 'no_query', queryId: null });
  });

  it('keeps its candidates and decision while the queries it depended on are unchanged', () => {
    // Resolved at step 1 by "b"; a later step changed: nothing it depended on did.
    const next = replannedStatus(accepted, ['a', 'b', 'c'], plan('a', 'b', 'z'), 'new label', 7);
    expect(next).toEqual({ ...accepted, label: 'new label' });
    // Another service, same terms: the row keeps the query its candidates are stored under.
    expect(replannedStatus(accepted, ['a', 'b'], plan('a', 'b'), 'l', 7).queryId).toBe(otherService('b'));
  });

  it('restarts at the first changed query, dropping a decision about candidates it no longer asks for', () => {
    const next = replannedStatus(accepted, ['a', 'b'], plan('a', 'x'), 'l', 7);
    expect(next).toMatchObject({ state: 'pending', outcome: 'pending', step: 1, queryId: idOf('x'), chosenRank: null, chosen: null, source: null, decidedAt: null });
    expect(replannedStatus(accepted, ['a', 'b'], plan('y', 'b'), 'l', 7)).toMatchObject({ state: 'pending', step: 0, queryId: idOf('y') });
  });

  it('asks the new step of a row that had found nobody, and keeps it when there is none', () => {
    const none = status({ state: 'no_candidates', outcome: 'no_candidates', step: 1, queryId: idOf('b') });
    expect(replannedStatus(none, ['a', 'b'], plan('a', 'b', 'c'), 'l', 7)).toMatchObject({ state: 'pending', step: 2, queryId: idOf('c') });
    expect(replannedStatus(none, ['a', 'b'], plan('a', 'b'), 'l', 7)).toMatchObject({ state: 'no_candidates', step: 1 });
    // Fewer steps than were already asked, all of which found nobody.
    expect(replannedStatus(none, ['a', 'b'], plan('a'), 'l', 7)).toMatchObject({ state: 'no_candidates', step: 0, queryId: idOf('a') });
  });

  it('moves a waiting row to the current query of its step, and keeps a skip made before any run', () => {
    const waiting = status({ state: 'error', outcome: 'error', step: 0, queryId: otherService('a') });
    expect(replannedStatus(waiting, ['a'], plan('a'), 'l', 7)).toMatchObject({ state: 'error', queryId: idOf('a') });
    const skipped = status({ state: 'skipped', source: 'manual', decidedAt: 'x' });
    expect(replannedStatus(skipped, ['a', 'b'], plan('a'), 'l', 7)).toMatchObject({ state: 'skipped', queryId: idOf('a') });
    expect(replannedStatus(skipped, ['a'], plan('q'), 'l', 7)).toMatchObject({ state: 'pending', decidedAt: null });
    expect(replannedStatus(status({ state: 'no_query', outcome: 'no_query', queryId: null }), [], plan('a'), 'l', 7)).toMatchObject({ state: 'pending', queryId: idOf('a') });
  });
});
