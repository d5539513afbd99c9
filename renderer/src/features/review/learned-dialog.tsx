import { useId, useState } from 'react';
import type { ContractError, LearningSummary } from '../../../../shared/contract';
import { api } from '../../api';
import { Button } from '../../ui/button';
import { ErrorBanner } from '../../ui/error-banner';
import { plural } from '../../ui/format';
import { Modal } from '../../ui/modal';
import { useEngineData } from '../../ui/use-engine-data';
import { LEARN_AFTER_DECISIONS } from './learning-offer';
import { sourceOptionLabel, startFromLabel } from './learning-sources';

interface LearnedDialogProps {
  projectId: number;
  /** A learning goes on: the summary is read again when it ends, and nothing else may start. */
  learning: boolean;
  /** Learns now; on top of another project's learning when one is named (its refusal is the answer). */
  onLearn: (startFromProjectId?: number) => Promise<ContractError | null>;
  /** What was learned is gone: the rows it lifted are back to what the model alone says. */
  onReset: (summary: LearningSummary) => void;
  onClose: () => void;
}

/**
 * What the project learned from the reviewer's decisions, in sentences (learning.summary), and its reset: asked to
 * confirm first, as it cannot be undone (the decisions themselves stay, and a later learning counts them again). A
 * project that learned nothing may start from what another learned (learning.sources), if the user chooses it.
 */
export function LearnedDialog({ projectId, learning, onLearn, onReset, onClose }: LearnedDialogProps) {
  const summary = useEngineData(`learned:${projectId}:${learning}`, () => api.callOrThrow('learning.summary', { projectId }));
  const [confirming, setConfirming] = useState(false);
  const [resetting, setResetting] = useState(false);
  const [error, setError] = useState<ContractError | null>(null);
  const value = summary.value;
  const learned = value !== undefined && (value.labels > 0 || value.sentences.length > 0);
  const sources = useEngineData(value && !learned ? `learning-sources:${projectId}` : null, () => api.callOrThrow('learning.sources', { projectId }));
  const [picked, setPicked] = useState<number | null>(null);
  const [startError, setStartError] = useState<ContractError | null>(null);
  const sourceId = useId();
  const source = sources.value?.find((s) => s.projectId === picked) ?? sources.value?.[0] ?? null;

  const startFrom = async (projectIdFrom: number) => {
    setStartError(null);
    setStartError(await onLearn(projectIdFrom));
  };

  const reset = async () => {
    setResetting(true);
    setError(null);
    const result = await api.call('learning.reset', { projectId });
    setResetting(false);
    setConfirming(false);
    if (!result.ok) return setError(result.error);
    summary.setValue(result.value);
    onReset(result.value);
  };

  return (
    <Modal
      title="What was learned"
      onClose={onClose}
      className="learned-dialog"
      footer={
        confirming ? (
          <>
            <span className="learned-dialog__confirm" id="learned-reset-words">
              {value && value.labels > 0 ? `Forget what ${plural(value.labels, 'decision')} taught?` : 'Forget what was learned?'} This cannot be undone; your decisions stay.
            </span>
            <Button onClick={() => setConfirming(false)} autoFocus>
              Keep it
            </Button>
            <Button variant="danger" busy={resetting} onClick={() => void reset()} aria-describedby="learned-reset-words" data-testid="learned-reset-confirm">
              Reset
            </Button>
          </>
        ) : (
          <>
            {learned && (
              <Button variant="danger" onClick={() => setConfirming(true)} disabled={learning} data-testid="learned-reset">
                Reset what was learned…
              </Button>
            )}
            <Button onClick={() => void onLearn()} busy={learning} title="Learn from the decisions made so far, now" data-testid="learned-learn">
              Learn now
            </Button>
            <Button onClick={onClose} autoFocus>
              Close
            </Button>
          </>
        )
      }
    >
      <ErrorBanner error={summary.error} title="Could not read what was learned" onRetry={summary.reload} />
      <ErrorBanner error={error} title="What was learned was not reset" onDismiss={() => setError(null)} />
      <ErrorBanner error={startError} title="Could not start from what it learned" onDismiss={() => setStartError(null)} />
      {!value && !summary.error && <p className="muted">Reading…</p>}
      {value && (
        <>
          {value.note && <p className="banner banner--info">{value.note}</p>}
          {learned ? (
            <>
              <p className="muted" data-testid="learned-figures">
                {value.labels > 0 ? `From ${plural(value.labels, 'decision')} you made by hand; ` : 'From what another project learned; '}
                {plural(value.rowsLifted, 'row')} waiting for review now {value.rowsLifted === 1 ? 'looks' : 'look'} like the{' '}
                {value.labels > 0 ? 'rows you accepted' : 'rows accepted there'}.
              </p>
              <ul className="learned-dialog__sentences" data-testid="learned-sentences">
                {value.sentences.map((sentence) => (
                  <li key={sentence}>{sentence}</li>
                ))}
              </ul>
            </>
          ) : (
            <p data-testid="learned-nothing">
              Nothing learned yet. Each row you accept or mark “none fits” teaches the app; after every {LEARN_AFTER_DECISIONS} it learns which kinds of rows you accept, and rows
              like them may then be accepted in one step. Twins, conflicting names and a name without a company always stay with you.
            </p>
          )}
          {!learned && source && (
            <div className="learned-dialog__start" data-testid="learned-start">
              <label htmlFor={sourceId}>Or start from what another project learned:</label>
              <select id={sourceId} value={source.projectId} onChange={(event) => setPicked(Number(event.target.value))} data-testid="learned-source">
                {sources.value!.map((s) => (
                  <option key={s.projectId} value={s.projectId}>
                    {sourceOptionLabel(s)}
                  </option>
                ))}
              </select>
              <Button onClick={() => void startFrom(source.projectId)} busy={learning} data-testid="learned-start-from">
                {startFromLabel(source)}
              </Button>
            </div>
          )}
        </>
      )}
    </Modal>
  );
}
