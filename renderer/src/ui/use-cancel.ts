import { useState } from 'react';
import { useEscapeToCancel } from './use-shortcuts';

/**
 * The Cancel of a long step on a screen (a plan, an export): `cancel` asks the engine, by its button or Escape, and
 * `cancelling` holds from then until the step is no longer `active`.
 */
export function useCancel(active: boolean, requestCancel: () => void): { cancelling: boolean; cancel: () => void } {
  const [cancelling, setCancelling] = useState(false);
  // Set while rendering, as React does for state that follows a prop: the next step starts without it.
  if (!active && cancelling) setCancelling(false);
  const cancel = () => {
    setCancelling(true);
    requestCancel();
  };
  useEscapeToCancel(cancel, active && !cancelling);
  return { cancelling, cancel };
}
