import { useId, useState } from 'react';
import { api } from '../../api';
import { Button } from '../../ui/button';
import { ErrorBanner } from '../../ui/error-banner';
import { formatConfidence, formatThreshold, plural } from '../../ui/format';
import { Modal } from '../../ui/modal';
import { useEngineData } from '../../ui/use-engine-data';

interface AcceptConfidentDialogProps {
  projectId: number;
  onAccept: (minConfidence: number) => void;
  onClose: () => void;
}

/** "Accept all at or above X": how many rows each threshold takes, shown before anything is accepted. */
export function AcceptConfidentDialog({ projectId, onAccept, onClose }: AcceptConfidentDialogProps) {
  const preview = useEngineData(`accept-preview:${projectId}`, () => api.callOrThrow('decisions.acceptPreview', { projectId }));
  const [picked, setPicked] = useState<number | null>(null);
  const name = useId();
  const value = preview.value;
  const threshold = picked ?? value?.setting ?? null;
  const rows = value?.thresholds.find((t) => t.minConfidence === threshold)?.rows ?? 0;

  return (
    <Modal
      title="Accept the confident rows"
      onClose={onClose}
      className="accept-dialog"
      footer={
        <>
          <Button onClick={onClose} autoFocus>
            Cancel
          </Button>
          <Button variant="primary" disabled={!value || rows === 0 || threshold === null} onClick={() => threshold !== null && onAccept(threshold)} data-testid="accept-confident-confirm">
            {rows === 0 ? 'Nothing to accept' : `Accept ${plural(rows, 'row')}`}
          </Button>
        </>
      }
    >
      <ErrorBanner error={preview.error} title="Could not count the rows" onRetry={preview.reload} />
      {!value && !preview.error && <p className="muted">Counting…</p>}
      {value && (
        <>
          <p>
            Rows still waiting for review whose best candidate is at least this confident, and at least {formatConfidence(value.minLead)} ahead of the runner-up. One action: undo
            takes it all back.
          </p>
          <fieldset className="accept-dialog__choices">
            <legend className="sr-only">Threshold</legend>
            {value.thresholds.map((t) => (
              <label key={t.minConfidence} className={`accept-dialog__choice ${t.minConfidence === threshold ? 'is-picked' : ''}`}>
                <input type="radio" name={name} checked={t.minConfidence === threshold} onChange={() => setPicked(t.minConfidence)} data-testid={`threshold-${t.minConfidence}`} />
                <span>At or above {formatThreshold(t.minConfidence)}</span>
                <span className="accept-dialog__count">{plural(t.rows, 'row')}</span>
                {t.minConfidence === value.setting && <span className="muted">(setting)</span>}
              </label>
            ))}
          </fieldset>
          {value.guarded > 0 && (
            <p className="muted" data-testid="accept-guarded">
              {plural(value.guarded, 'row')} stay for you at any threshold: namesakes at one company, a name without a company, a near name, or an e-mail whose owner has
              another name.
            </p>
          )}
        </>
      )}
    </Modal>
  );
}
