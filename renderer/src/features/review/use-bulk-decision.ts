import { useEffect, useRef, useState } from 'react';
import type { BulkDecision, DecisionsProgress } from '../../../../shared/contract';
import { api } from '../../api';
import { useProjectEvent } from '../../ui/use-project-event';

/** While following a decision this screen did not start, how often it asks whether it has ended. */
const POLL_MS = 1_000;

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
 * or one found going on when the screen opened, started before the user went elsewhere or in another window. One
 * found is followed until it ends, then `onEnded` reads the rows again: its answer goes to the screen that started it.
 */
export function useBulkDecision(projectId: number, onEnded: () => void): BulkDecisionState {
  const [started, setStarted] = useState<BulkDecision | null>(null);
  const [found, setFound] = useState<DecisionsProgress | null>(null);
  // One found going on comes first: the screen's own (an undo pressed meanwhile) waits behind it in the engine.
  const action = found?.action ?? started;
  const event = useProjectEvent('decisions.progress', projectId, action !== null);
  const endedRef = useRef(onEnded);
  useEffect(() => {
    endedRef.current = onEnded;
  });

  useEffect(() => {
    let live = true;
    void api.call('decisions.underWay', { projectId }).then((result) => {
      if (live && result.ok && result.value) setFound(result.value);
    });
    return () => {
      live = false;
      setFound(null);
    };
  }, [projectId]);

  const following = found !== null;
  useEffect(() => {
    if (!following) return;
    const timer = setInterval(() => {
      void api.call('decisions.underWay', { projectId }).then((result) => {
        if (!result.ok || result.value !== null) return;
        setFound(null);
        endedRef.current();
      });
    }, POLL_MS);
    return () => clearInterval(timer);
  }, [following, projectId]);

  const progress = event && event.action === action ? event : found && found.action === action ? found : null;
  return { action, progress, foundGoingOn: following, setStarted };
}
