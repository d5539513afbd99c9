import { useEffect, useState } from 'react';
import type { ContractError, FailedQuery, RunProgress } from '../../../../shared/contract';
import { planProgressParts } from '../../../../shared/progress';
import { api } from '../../api';
import { activeProfile, useAppData } from '../../app-data';
import { routeToHash } from '../../navigation/route';
import { useRoute } from '../../navigation/use-route';
import { Button } from '../../ui/button';
import { toContractError } from '../../ui/contract-error';
import { ErrorBanner, Notice } from '../../ui/error-banner';
import { askToNotify } from '../../shell/use-work-title';
import { ProgressLine } from '../../ui/progress-line';
import { useEngineData } from '../../ui/use-engine-data';
import { detailOf } from '../../../../shared/job-detail';
import { useJobDetail } from '../../jobs/use-job-detail';
import { cancelThenStatus } from '../../jobs/cancel-then-status';
import { ProjectHeader } from '../projects/project-header';
import { CostPreview } from './cost-preview';
import { FailedLookups } from './failed-lookups';
import { RunProgressView } from './run-progress-view';
import { isRunActive, runControls, runOutcome } from './run-text';

type RunAction = 'start' | 'pause' | 'resume' | 'cancel' | 'retry';

/** The job whose detail says how far planning the project's queries is. */
const PLAN = ['plan'] as const;

export function RunScreen({ projectId }: { projectId: number }) {
  const { navigate } = useRoute();
  const data = useAppData();
  const profile = activeProfile(data);
  const project = useEngineData(`project:${projectId}`, () => api.callOrThrow('projects.get', { projectId }));
  const status = useEngineData(`run-status:${projectId}`, () => api.callOrThrow('run.status', { projectId }));
  const [live, setLive] = useState<RunProgress | null>(null);
  const [offline, setOffline] = useState(false);
  const [busy, setBusy] = useState<RunAction | null>(null);
  const [actionError, setActionError] = useState<ContractError | null>(null);

  const progress = live ?? status.value ?? null;
  const active = isRunActive(progress?.status);
  const controls = runControls(progress?.status ?? null);

  const preview = useEngineData(active ? null : `run-preview:${projectId}:${offline}:${progress?.runId ?? 0}:${progress?.status ?? ''}`, () =>
    api.callOrThrow('run.preview', { projectId, offline }),
  );
  // Counting a project planned for another service (or never planned) plans its queries first: slow for large sheets.
  const planned = useJobDetail(PLAN, projectId, preview.loading);
  const planning = planned !== null && planned.rowsPlanned < planned.rowsTotal;
  const finished = progress && !active;
  const failures = useEngineData(finished && progress.errors > 0 ? `failures:${projectId}:${progress.runId}:${progress.updatedAt}` : null, () =>
    api.callOrThrow('run.failures', { projectId }),
  );

  useEffect(
    () =>
      api.on('job.progress', (job) => {
        const next = detailOf(job, 'run', projectId);
        if (next === null) return;
        setLive(next);
        if (next.status === 'done' && next.errors === 0) navigate({ screen: 'review', projectId });
      }),
    [projectId, navigate],
  );

  const act = async (action: RunAction) => {
    // Starting a run is when the user may want to hear of its end: the browser asks once (Electron needs no asking).
    if (action === 'start' || action === 'retry' || action === 'resume') askToNotify();
    setBusy(action);
    setActionError(null);
    try {
      const result =
        action === 'start' || action === 'retry'
          ? await api.callOrThrow('run.start', { projectId, offline: action === 'retry' ? false : offline })
          : action === 'cancel'
            ? await cancelThenStatus({ projectId, kind: 'run' }, 'run.status', { projectId })
            : await api.callOrThrow(`run.${action}`, { projectId });
      if (result) setLive(result);
      if (result?.status === 'done' && result.errors === 0 && (action === 'start' || action === 'retry')) navigate({ screen: 'review', projectId });
    } catch (thrown) {
      setActionError(toContractError(thrown));
    } finally {
      setBusy(null);
    }
  };

  const needsProfile = !offline && !profile && data.profiles !== null;

  return (
    <div className="screen run-screen">
      <ProjectHeader projectId={projectId} current="run" summary={project.value?.summary} title="Preview and run" />
      <ErrorBanner error={project.error ?? status.error} onRetry={status.reload} />

      {!active && (
        <section className="card" aria-labelledby="preview-heading">
          <div className="section-head">
            <h2 id="preview-heading">What the run will cost</h2>
            <label className="switch">
              <input type="checkbox" checked={offline} onChange={(event) => setOffline(event.target.checked)} data-testid="offline-toggle" />
              Offline: use cached answers only, send nothing
            </label>
          </div>
          <ErrorBanner error={preview.error} title="Could not work out the cost" onRetry={preview.reload} />
          {preview.value ? (
            <CostPreview preview={preview.value} />
          ) : (
            !preview.error && (
              <p className="muted">
                {planning ? <ProgressLine parts={planProgressParts(planned, false)} label="Planning progress" testId="run-planning" /> : 'Counting…'}
              </p>
            )
          )}
          {needsProfile && (
            <Notice tone="warning">
              No profile is selected. <a href={routeToHash({ screen: 'account' })}>Choose or add one in Account</a>, or run offline.
            </Notice>
          )}
          {profile && !offline && <p className="muted">Runs with the profile {profile.name}.</p>}
        </section>
      )}

      <section className="card" aria-labelledby="run-heading">
        <h2 id="run-heading">Run</h2>
        {progress && <RunProgressView progress={progress} cause={commonestFailure(failures.value)} />}
        <ErrorBanner error={actionError} onDismiss={() => setActionError(null)} />
        <div className="form-actions">
          {controls.start && (
            <Button variant={progress?.status === 'done' ? 'secondary' : 'primary'} busy={busy === 'start'} onClick={() => act('start')} disabled={needsProfile || planning} data-testid="run-start">
              {progress ? 'Start again' : 'Start'}
            </Button>
          )}
          {controls.pause && (
            <Button busy={busy === 'pause'} onClick={() => act('pause')} data-testid="run-pause">
              Pause
            </Button>
          )}
          {controls.resume && (
            <Button variant="primary" busy={busy === 'resume'} onClick={() => act('resume')} data-testid="run-resume">
              Resume
            </Button>
          )}
          {controls.cancel && (
            <Button variant="danger" busy={busy === 'cancel'} onClick={() => act('cancel')} data-testid="run-cancel">
              Cancel
            </Button>
          )}
          {finished && (
            <a className={`button ${runOutcome(progress) === 'done' ? 'button--primary' : 'button--secondary'}`} href={routeToHash({ screen: 'review', projectId })} data-testid="go-review">
              Review the matches
            </a>
          )}
        </div>
        {progress?.status === 'done' && <p className="muted">Starting again looks up only what is not in the cache.</p>}
      </section>

      {finished && progress.errors > 0 && (
        <section className="card" aria-labelledby="failures-heading">
          <div className="section-head">
            <h2 id="failures-heading">Failed lookups</h2>
            <Button busy={busy === 'retry'} onClick={() => act('retry')} disabled={!profile} data-testid="run-retry">
              Retry failed lookups
            </Button>
          </div>
          <ErrorBanner error={failures.error} onRetry={failures.reload} />
          {failures.value && <FailedLookups failures={failures.value} />}
        </section>
      )}
    </div>
  );
}

/** The reason most failed rows share, for the run's one-sentence summary. */
function commonestFailure(failures: FailedQuery[] | undefined): string | null {
  const rowsByReason = new Map<string, number>();
  for (const failure of failures ?? []) rowsByReason.set(failure.error, (rowsByReason.get(failure.error) ?? 0) + failure.rows);
  let commonest: string | null = null;
  for (const [reason, rows] of rowsByReason) if (commonest === null || rows > rowsByReason.get(commonest)!) commonest = reason;
  return commonest;
}
