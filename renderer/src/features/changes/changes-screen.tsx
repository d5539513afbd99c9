import { useEffect, useId, useState } from 'react';
import { api } from '../../api';
import { routeToHash } from '../../navigation/route';
import { Button } from '../../ui/button';
import { toContractError } from '../../ui/contract-error';
import { ErrorBanner } from '../../ui/error-banner';
import { formatCount, plural } from '../../ui/format';
import { useEngineData } from '../../ui/use-engine-data';
import { useJobDetail } from '../../jobs/use-job-detail';
import { useToast } from '../../ui/toasts';
import { ProjectHeader } from '../projects/project-header';
import { ChangeTable } from './change-table';
import { changeCountWords, countChanges } from './change-text';
import { ChangesExport } from './changes-export';
import { isoDayOf, sinceChoices, validDay, type SincePreset } from './since-day';
import { inboxChanged, useInbox } from './use-inbox';

/** The job whose detail says how a refresh goes. */
const REFRESH = ['refresh'] as const;

/**
 * Who moved, left or changed title: the changes not seen yet (the inbox, marked seen in one go), and the changes since
 * any day (a preset or a day picked), exported as a file a CRM imports.
 */
export function ChangesScreen({ projectId }: { projectId: number }) {
  const toast = useToast();
  const project = useEngineData(`project:${projectId}`, () => api.callOrThrow('projects.get', { projectId }));
  // A refresh that ends while the screen is open found changes: the project and the list are read again.
  const refreshEvent = useJobDetail(REFRESH, projectId);
  const ended = refreshEvent && refreshEvent.status !== 'running' ? refreshEvent.refreshId : 0;
  const reloadProject = project.reload;
  useEffect(() => {
    if (ended) reloadProject();
  }, [ended, reloadProject]);
  const summary = project.value?.summary;
  const refreshed = Boolean(summary?.lastRefreshAt);
  const inbox = useInbox(projectId, refreshed);
  const [marking, setMarking] = useState(false);
  // The presets count from the day the screen opened.
  const [openedAt] = useState(() => Date.now());
  const choices = sinceChoices(openedAt, summary?.lastRefreshAt ?? null);
  const [picked, setPicked] = useState<{ preset: SincePreset | null; day: string } | null>(null);
  const since = picked ?? { preset: 'quarter' as const, day: choices[0]!.day };
  const [typed, setTyped] = useState<string | null>(null);
  const dayId = useId();
  const changes = useEngineData(refreshed ? `changes:${projectId}:${since.day}#${ended}` : null, () => api.callOrThrow('watch.changes', { projectId, since: since.day }));
  const list = changes.value ?? null;

  const markSeen = async () => {
    setMarking(true);
    try {
      const next = await api.callOrThrow('watch.markSeen', { projectId });
      inbox.setValue(next);
      inboxChanged(projectId);
      toast('Every change so far is marked as seen.', 'success');
    } catch (thrown) {
      toast(toContractError(thrown).message, 'error');
    } finally {
      setMarking(false);
    }
  };

  const pickDay = (text: string) => {
    setTyped(text);
    const day = validDay(text);
    if (day) setPicked({ preset: null, day });
  };
  const typedProblem = typed !== null && typed !== '' && validDay(typed) === null ? 'Pick a day, or type it as YYYY-MM-DD.' : null;

  return (
    <div className="screen changes-screen">
      <ProjectHeader projectId={projectId} current="changes" summary={summary} title="Changes" />
      <ErrorBanner error={project.error} onRetry={project.reload} />
      {summary && !refreshed && (
        <section className="card" data-testid="changes-none">
          <h2>No refresh yet</h2>
          <p>
            Changes are what a refresh finds: who moved to another company, left theirs, or changed title. Use <strong>Refresh people…</strong> on the{' '}
            <a href={routeToHash({ screen: 'review', projectId })}>review screen</a>, or watch this project to refresh it on a schedule.
          </p>
        </section>
      )}

      {refreshed && (
        <section className="card changes-section" aria-labelledby="inbox-heading" data-testid="inbox">
          <div className="changes-section__head">
            <h2 id="inbox-heading">Not seen yet</h2>
            {inbox.value && (
              <span className="muted" data-testid="inbox-summary">
                {inbox.value.unseen === 0
                  ? 'Nothing new: every change found so far has been seen.'
                  : `${plural(inbox.value.unseen, 'change')}: ${changeCountWords(inbox.value.counts)}${inbox.value.important > 0 ? ` · ${formatCount(inbox.value.important)} important` : ''}`}
              </span>
            )}
            <span className="changes-section__spacer" />
            {inbox.value && inbox.value.unseen > 0 && (
              <Button busy={marking} onClick={markSeen} data-testid="inbox-mark-seen">
                Mark all as seen
              </Button>
            )}
          </div>
          <ErrorBanner error={inbox.error} title="Could not read the changes not seen yet" onRetry={inbox.reload} />
          {inbox.value && inbox.value.unseen > 0 && <ChangeTable changes={inbox.value.changes} label="Changes not seen yet" testId="inbox-table" />}
        </section>
      )}

      {refreshed && (
        <section className="card changes-section" aria-labelledby="since-heading" data-testid="changes-since">
          <h2 id="since-heading">Changes since a day</h2>
          <div className="changes-since__pick">
            <div className="chips" role="group" aria-label="Since">
              {choices.map((choice) => (
                <button
                  key={choice.preset}
                  type="button"
                  className="chip"
                  aria-pressed={since.preset === choice.preset}
                  onClick={() => {
                    setTyped(null);
                    setPicked({ preset: choice.preset, day: choice.day });
                  }}
                  data-testid={`since-${choice.preset}`}
                >
                  <span className="chip__label">{choice.label}</span> <span className="chip__count">{choice.day}</span>
                </button>
              ))}
            </div>
            <div className="field field--inline">
              <label htmlFor={dayId}>Since</label>
              <input
                id={dayId}
                type="date"
                value={typed ?? since.day}
                max={isoDayOf(openedAt)}
                aria-invalid={typedProblem !== null || undefined}
                onChange={(event) => pickDay(event.target.value)}
                data-testid="since-day"
              />
            </div>
          </div>
          {typedProblem && <p className="field__error">{typedProblem}</p>}
          <p className="muted" aria-live="polite" data-testid="changes-since-summary">
            {list === null
              ? 'Reading the changes…'
              : list.length === 0
                ? `No one moved, left or changed title since ${since.day}.`
                : `Since ${since.day}: ${plural(list.length, 'change')}, ${changeCountWords(countChanges(list))}.`}
          </p>
          <ErrorBanner error={changes.error} title="Could not read the changes" onRetry={changes.reload} />
          {list && list.length > 0 && <ChangeTable changes={list} label={`Changes since ${since.day}`} testId="changes-table" />}
          {summary && <ChangesExport projectId={projectId} projectName={summary.name} since={since.day} count={list?.length ?? null} />}
        </section>
      )}
    </div>
  );
}
