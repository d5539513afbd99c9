import type { Strategy } from '../../../shared/model';
import { ASKABLE_STATES, type RowStatusRecord } from '../rows/row-status';

/** One step of a row's plan: the query's id for the current service (runs/query-ids.ts), and its terms (JSON) it is compared by. */
export interface PlannedStep {
  id: number;
  signature: string;
  strategy: Strategy;
}

const ASKABLE = new Set(ASKABLE_STATES);

/** A row's status before any run: its first query to ask, or nothing to ask at all. */
export function freshStatus(rowIndex: number, plan: PlannedStep[], label: string): RowStatusRecord {
  return restartAt(rowIndex, plan, 0, label);
}

/**
 * A row's status after its plan changed (a new mapping, new strategies, or another service). What the row
 * learned stays valid as long as the queries it depended on are the same: the steps that found nobody and the
 * step that resolved it. So a row keeps its candidates and its decision when the plan through its current step
 * is unchanged, and otherwise restarts at the first step that changed (its decision dropped, since the
 * candidates it was about are no longer what the row asks).
 */
export function replannedStatus(old: RowStatusRecord | null, oldSignatures: string[], plan: PlannedStep[], label: string, rowIndex: number): RowStatusRecord {
  if (!old) return freshStatus(rowIndex, plan, label);
  const same = commonPrefix(oldSignatures, plan.map((p) => p.signature));
  const s = old.step;
  const askable = ASKABLE.has(old.outcome) || old.outcome === 'no_query';

  if (same === oldSignatures.length && same === plan.length) return keep(old, plan, label);
  if (same > s) {
    if (old.outcome === 'no_candidates') {
      // Every old step found nobody; a plan that now goes further has something new to ask.
      return plan.length > s + 1 ? restartAt(rowIndex, plan, s + 1, label) : keep(old, plan, label);
    }
    if (askable || old.outcome === 'to_review') return keep(old, plan, label);
  }
  return restartAt(rowIndex, plan, Math.min(same, s), label, old.fetchedAt);
}

function keep(old: RowStatusRecord, plan: PlannedStep[], label: string): RowStatusRecord {
  // A row still waiting to be asked asks the current service's query; a resolved row keeps the query its
  // candidates are stored under.
  const current = plan[old.step];
  if (ASKABLE.has(old.outcome) && current) return { ...old, label, queryId: current.id, strategy: current.strategy };
  return { ...old, label };
}

/** Pending at `step`; when the plan has no such step the earlier ones all found nobody (or there is nothing). */
function restartAt(rowIndex: number, plan: PlannedStep[], step: number, label: string, oldFetchedAt: number | null = null): RowStatusRecord {
  const base = { rowIndex, fetchedAt: null, candidateCount: 0, chosenRank: null, chosen: null, source: null, decidedAt: null, label, verdict: null } as const;
  if (plan.length === 0) return { ...base, state: 'no_query', outcome: 'no_query', step: 0, strategy: null, queryId: null };
  if (step < plan.length) {
    const p = plan[step]!;
    return { ...base, state: 'pending', outcome: 'pending', step, strategy: p.strategy, queryId: p.id };
  }
  const last = plan[plan.length - 1]!;
  // Every step the plan still has found nobody before: still answered, by the answer fetched then.
  return { ...base, state: 'no_candidates', outcome: 'no_candidates', step: plan.length - 1, strategy: last.strategy, queryId: last.id, fetchedAt: oldFetchedAt };
}

function commonPrefix(a: string[], b: string[]): number {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
}
