import { useEffect, useId, useRef, useState } from 'react';
import type { ContractError, RefreshProgress } from '../../../../shared/contract';
import { detailOf } from '../../../../shared/job-detail';
import { api } from '../../api';
import { cancelThenStatus } from '../../jobs/cancel-then-status';
import { Button } from '../../ui/button';
import { toContractError } from '../../ui/contract-error';
import { ErrorBanner } from '../../ui/error-banner';
import { formatCount, formatDateTime, formatEstimate, plural } from '../../ui/format';
import { askToNotify } from '../../shell/use-work-title';
import { Modal } from '../../ui/modal';
import { useDebouncedValue } from '../../ui/use-debounced-value';
import { useEngineData } from '../../ui/use-engine-data';
import { RefreshProgressView } from './refresh-progress-view';
import { RESUMABLE_REFRESH } from './refresh-text';

interface RefreshDialogProps {
  projectId: number;
  onClose: () => void;
  /** A refresh ended (done, cancelled, stopped): the rows and their counts have changed. */
  onFinished: () => void;
  /** Show the rows whose person's job changed at this refresh. */
  onShowChanged: () => void;
}

type Action = 'start' | 'pause' | 'resume' | 'cancel';

/** While a refresh runs, its status is also read this often: an event lost with a dropped connection is not waited for. */
const POLL_MS = 2_000;

/**
 * Refresh: ask the service again for the people the matched rows chose. What it will ask (people, calls, time) is
 * shown first, as for a run; then its progress, with pause and cancel. Closing the dialog leaves it running.
 */
export function RefreshDialog({ projectId, onClose, onFinished, onShowChanged }: RefreshDialogProps) {
  const status = useEngineData(`refresh-status:${projectId}`, () => api.callOrThrow('refresh.status', { projectId }));
  const [live, setLive] = useState<RefreshProgress | null>(null);
  const [olderThan, setOlderThan] = useState('');
  const days = useDebouncedValue(olderThan, 300);
  const olderThanDays = days.trim() === '' || !(Number(days) >= 0) ? null : Number(days);
  const [busy, setBusy] = useState<Action | null>(null);
  const [error, setError] = useState<ContractError | null>(null);
  const daysId = useId();

  const progress = live ?? status.value ?? null;
  const phase = refreshPhase(progress, live !== null, status.value !== undefined);
  const preview = useEngineData(phase === 'preview' ? `refresh-preview:${projectId}:${olderThanDays}:${progress?.refreshId ?? 0}` : null, () =>
    api.callOrThrow('refresh.preview', { projectId, ...(olderThanDays !== null ? { olderThanDays } : {}) }),
  );

  // One subscription for the dialog's life: subscribing again on every render of the screen would drop the event
  // stream in between (the browser host closes it when nobody listens) and lose the last event.
  const finishedRef = useRef(onFinished);
  useEffect(() => {
    finishedRef.current = onFinished;
  });
  useEffect(
    () =>
      api.on('job.progress', (job) => {
        const next = detailOf(job, 'refresh', projectId);
        if (next === null) return;
        setLive(next);
        if (next.status !== 'running') finishedRef.current();
      }),
    [projectId],
  );
  useEffect(() => {
    if (phase !== 'running') return;
    const timer = setInterval(() => {
      void api.call('refresh.status', { projectId }).then((result) => {
        if (!result.ok || !result.value || result.value.status === 'running') return;
        setLive(result.value);
        finishedRef.current();
      });
    }, POLL_MS);
    return () => clearInterval(timer);
  }, [phase, projectId]);

  const act = async (action: Action) => {
    if (action === 'start' || action === 'resume') askToNotify();
    setBusy(action);
    setError(null);
    try {
      const result =
        action === 'start'
          ? await api.callOrThrow('refresh.start', { projectId, ...(olderThanDays !== null ? { olderThanDays } : {}) })
          : action === 'cancel'
            ? await cancelThenStatus({ projectId, kind: 'refresh' }, 'refresh.status', { projectId })
            : await api.callOrThrow(`refresh.${action}`, { projectId });
      if (result) setLive(result);
      if (result && result.status !== 'running') onFinished();
    } catch (thrown) {
      setError(toContractError(thrown));
    } finally {
      setBusy(null);
    }
  };

  const value = preview.value;
  return (
    <Modal
      title="Refresh the matched people"
      onClose={onClose}
      className="refresh-dialog"
      footer={
        <>
          {phase === 'finished' && progress!.rowsChanged > 0 && (
            <Button onClick={onShowChanged} data-testid="refresh-show-changed">
              Show the {plural(progress!.rowsChanged, 'row')} that changed
            </Button>
          )}
          <Button onClick={onClose} autoFocus={phase !== 'preview'}>
            Close
          </Button>
          {/* Once everyone is asked, the rows are written whatever is pressed: nothing is left to pause or cancel. */}
          {phase === 'running' && !progress!.rowsWriting && (
            <>
              <Button busy={busy === 'pause'} onClick={() => act('pause')} data-testid="refresh-pause">
                Pause
              </Button>
              <Button variant="danger" busy={busy === 'cancel'} onClick={() => act('cancel')} data-testid="refresh-cancel">
                Cancel
              </Button>
            </>
          )}
          {phase === 'resumable' && (
            <>
              <Button variant="danger" busy={busy === 'cancel'} onClick={() => act('cancel')} data-testid="refresh-cancel">
                Cancel it
              </Button>
              <Button variant="primary" busy={busy === 'resume'} onClick={() => act('resume')} data-testid="refresh-resume">
                Resume
              </Button>
            </>
          )}
          {phase === 'preview' && (
            <Button variant="primary" busy={busy === 'start'} disabled={!value || value.people === 0} onClick={() => act('start')} data-testid="refresh-start">
              {/* Counting takes seconds on a large project (a million rows: 4-30 s): until then nobody is known, not "nobody to ask". */}
              {!value ? 'Ask for the people' : value.people > 0 ? `Ask for ${plural(value.people, 'person', 'people')}` : 'Nobody to ask'}
            </Button>
          )}
        </>
      }
    >
      <ErrorBanner error={status.error ?? error} title="The refresh could not go on" onDismiss={() => setError(null)} />
      {phase === 'preview' && (
        <>
          {progress && <p className="muted">Last refreshed {formatDateTime(progress.startedAt)}.</p>}
          <p>
            Asks the service again for the person each matched row chose, each once however many rows chose them, past the cache. Every decision stays as it is; where each
            person works now, and whether they moved or left, is brought up to date, and what changed is kept.
          </p>
          <div className="field field--inline">
            <label htmlFor={daysId}>Only people fetched more than</label>
            <input id={daysId} className="refresh-dialog__days" type="number" min={0} inputMode="numeric" value={olderThan} onChange={(event) => setOlderThan(event.target.value)} placeholder="any" data-testid="refresh-older-than" />
            <span>days ago</span>
          </div>
          <ErrorBanner error={preview.error} title="Could not work out what to ask" onRetry={preview.reload} />
          {!value && !preview.error && <p className="muted">Counting…</p>}
          {value && (
            <dl className="stats" data-testid="refresh-preview">
              <div className="stats__item" data-testid="refresh-preview-rows">
                <dt>Matched rows</dt>
                <dd>{formatCount(value.matchedRows)}</dd>
              </div>
              <div className="stats__item stats__item--strong" data-testid="refresh-preview-people">
                <dt>People to ask</dt>
                <dd>{formatCount(value.people)}</dd>
              </div>
              <div className="stats__item stats__item--strong" data-testid="refresh-preview-calls">
                <dt>Calls to the service</dt>
                <dd>{formatCount(value.calls)}</dd>
              </div>
              <div className="stats__item" data-testid="refresh-preview-time">
                <dt>Estimated time</dt>
                <dd>{formatEstimate(value.estimatedSeconds)}</dd>
              </div>
            </dl>
          )}
          {value && value.rowsWithoutProfile > 0 && <p className="muted">{plural(value.rowsWithoutProfile, 'matched row')} have no profile to ask by and keep what they have.</p>}
          {value && value.olderThanDays !== null && value.recentPeople > 0 && <p className="muted">{plural(value.recentPeople, 'person', 'people')} fetched more recently are left out.</p>}
        </>
      )}
      {progress && phase !== 'preview' && phase !== 'loading' && <RefreshProgressView progress={progress} />}
    </Modal>
  );
}

type Phase = 'loading' | 'preview' | 'running' | 'resumable' | 'finished';

/** What the dialog shows: the cost of a new refresh, one going on or waiting to be resumed, or how the one just run ended. */
function refreshPhase(progress: RefreshProgress | null, seenHere: boolean, loaded: boolean): Phase {
  if (!loaded && !seenHere) return 'loading';
  if (progress?.status === 'running') return 'running';
  if (progress && RESUMABLE_REFRESH.includes(progress.status)) return 'resumable';
  if (progress && seenHere) return 'finished';
  return 'preview';
}
