import { useCallback, useRef, useState } from 'react';
import type { ContractError, DecisionsProgress, LearningChange, LearningSummary } from '../../../../shared/contract';
import { api } from '../../api';
import { useJobDetail } from '../../jobs/use-job-detail';
import { learningDue, offeredChange } from './learning-offer';

/** The job a learning is. */
const LEARN = ['learn'] as const;

export interface LearningState {
  /** True while a learning this screen started goes on. */
  learning: boolean;
  /** Its cancel was asked for, and it has not ended yet. */
  cancelling: boolean;
  /** How far it is (its `learn` job's detail); null before its first word. */
  progress: DecisionsProgress | null;
  /** The change the screen offers to accept, from the last learning; null when none is left to offer. */
  offer: LearningChange | null;
  error: ContractError | null;
  /** Counts hand decisions (each row a label); learns in the background once enough were made since the last time. */
  noteDecisions: (rows: number) => void;
  /**
   * Learns now (What was learned's buttons), on top of another project's learning when one is named; the answer is the
   * error of a learning that started from one (the dialog shows it), or null.
   */
  learn: (startFromProjectId?: number) => Promise<ContractError | null>;
  cancel: () => void;
  /** Takes the offer away (accepted, or put away by the reviewer). */
  putAway: (pattern: string) => void;
  /** Offers it again (the accept of its rows was undone). */
  bringBack: (pattern: string) => void;
  /** Offers nothing more (what was learned was reset). */
  forget: () => void;
  dismissError: () => void;
}

/**
 * Learning from the reviewer's decisions while they review: after every LEARN_AFTER_DECISIONS hand decisions the
 * engine's learning.learn runs in the background (a cancellable `learn` job, followed through job.progress), and its
 * answer says what changed; `onLearned` reads the rows again (lifted rows show their new confidence).
 */
export function useLearning(projectId: number, onLearned: (summary: LearningSummary) => void): LearningState {
  const [learning, setLearning] = useState(false);
  const [cancelling, setCancelling] = useState(false);
  const [changes, setChanges] = useState<{ projectId: number; list: LearningChange[] }>({ projectId, list: [] });
  const [putAwaySet, setPutAway] = useState<ReadonlySet<string>>(new Set());
  const [error, setError] = useState<ContractError | null>(null);
  const decided = useRef(0);
  const going = useRef(false);
  const progress = useJobDetail(LEARN, projectId, learning);

  const learn = useCallback(async (startFromProjectId?: number): Promise<ContractError | null> => {
    if (going.current) return null;
    going.current = true;
    // Counted from now; a learning that fails or is cancelled leaves them to be counted by the next.
    const counted = decided.current;
    decided.current = 0;
    setLearning(true);
    setError(null);
    const result = await api.call('learning.learn', { projectId, startFromProjectId });
    going.current = false;
    setLearning(false);
    setCancelling(false);
    // A cancel changes nothing, and says nothing more than its button did.
    if (!result.ok) {
      decided.current += counted;
      if (result.error.kind === 'cancelled') return null;
      if (startFromProjectId !== undefined) return result.error;
      setError(result.error);
      return null;
    }
    setChanges({ projectId, list: result.value.changes });
    setPutAway(new Set());
    onLearned(result.value);
    return null;
  }, [projectId, onLearned]);

  const noteDecisions = (rows: number) => {
    decided.current += rows;
    if (learningDue(decided.current, going.current)) void learn();
  };
  const shown = changes.projectId === projectId ? changes.list : [];
  return {
    learning,
    cancelling,
    progress,
    offer: offeredChange(shown, putAwaySet),
    error,
    noteDecisions,
    learn,
    cancel: () => {
      setCancelling(true);
      void api.call('job.cancel', { projectId, kind: 'learn' });
    },
    putAway: (pattern) => setPutAway((current) => new Set([...current, pattern])),
    bringBack: (pattern) => setPutAway((current) => new Set([...current].filter((p) => p !== pattern))),
    forget: () => setChanges({ projectId, list: [] }),
    dismissError: () => setError(null),
  };
}
