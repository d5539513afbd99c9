import { useCallback, useEffect, useRef, useState } from 'react';
import type { CallOutput } from '../../../shared/contract';
import { api } from '../api';

/** The calls that say what long step of a project is going on: its last word, or null. */
type GoingOnCall = 'decisions.underWay' | 'export.underWay' | 'mapping.underWay';

/** While following a step this screen did not start, how often it asks whether it has ended. */
const POLL_MS = 1_000;

/** Both calls take the project alone (typed by the union: a generic call name leaves its input unworked out). */
function askGoingOn(call: GoingOnCall, projectId: number) {
  return api.call(call, { projectId });
}

export interface FoundGoingOn<W> {
  /** The step's last word as the engine had it; null when none goes on (or once it has ended). */
  word: W | null;
  /** The user cancelled it from this screen: `onEnded` is told so. */
  cancelledHere: () => void;
}

/**
 * A long step found going on in the project when the screen opened: started before the user went elsewhere, or in
 * another window. Its last word, asked again each second until the step has ended; then `onEnded` (read the rows
 * again, say so, go on), told whether it was cancelled from this screen. The step's answer goes to the screen that
 * started it.
 */
export function useFoundGoingOn<N extends GoingOnCall>(call: N, projectId: number, onEnded: (cancelledHere: boolean) => void): FoundGoingOn<CallOutput<N>> {
  const [found, setFound] = useState<CallOutput<N> | null>(null);
  const endedRef = useRef(onEnded);
  useEffect(() => {
    endedRef.current = onEnded;
  });
  const cancelledRef = useRef(false);
  const cancelledHere = useCallback(() => {
    cancelledRef.current = true;
  }, []);

  useEffect(() => {
    let live = true;
    void askGoingOn(call, projectId).then((result) => {
      if (live && result.ok && result.value) setFound(result.value as CallOutput<N>);
    });
    return () => {
      live = false;
      setFound(null);
    };
  }, [call, projectId]);

  const following = found !== null;
  useEffect(() => {
    if (!following) return;
    const timer = setInterval(() => {
      void askGoingOn(call, projectId).then((result) => {
        if (!result.ok || result.value !== null) return;
        setFound(null);
        endedRef.current(cancelledRef.current);
        cancelledRef.current = false;
      });
    }, POLL_MS);
    return () => clearInterval(timer);
  }, [call, following, projectId]);

  return { word: found, cancelledHere };
}
