import { useState } from 'react';
import { BULK_DECISIONS, type BulkDecision, type DecisionsProgress } from '../../../../shared/contract';
import { useFoundGoingOn } from '../../jobs/use-found-job';
import { useJobDetail } from '../../jobs/use-job-detail';

/** The jobs of the decisions over many rows: an accept, an undo, a learning. */
const BULK: readonly BulkDecision[] = BULK_DECISIONS;

export interface BulkDecisionState {
  /** The decision over many rows going on, or null. */
  action: BulkDecision | null;
  /** How far it is: its last event, or what the engine said when the screen found it; null before the first word. */
  progress: DecisionsProgress | null;
  /** True for one this screen did not start (it may end without this screen hearing of it). */
  foundGoingOn: boolean;
  /** Marks the screen's own decision over many rows as going on (`null` once its call answered). */
  setStarted: (action: BulkDecision | null) => void;
}

/**
 * The decision over many rows going on in the project: one this screen started (an accept of confident rows, an undo),
 * or one found going on when the screen opened (jobs/use-found-job.ts), followed until it ends; then `onEnded`
 * reads the rows again.
 */
export function useBulkDecision(projectId: number, onEnded: () => void): BulkDecisionState {
  const [started, setStarted] = useState<BulkDecision | null>(null);
  const found = useFoundGoingOn(BULK, projectId, onEnded).word;
  // One found going on comes first: the screen's own (an undo pressed meanwhile) waits behind it in the engine.
  const action = found?.action ?? started;
  const event = useJobDetail(BULK, projectId, action !== null);
  const progress = event && event.action === action ? event : found && found.action === action ? found : null;
  return { action, progress, foundGoingOn: found !== null, setStarted };
}
