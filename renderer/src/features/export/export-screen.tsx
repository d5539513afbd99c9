import { useState } from 'react';
import type { ContractError, ExportResult } from '../../../../shared/contract';
import { CANCELLING, exportProgressParts } from '../../../../shared/progress';
import { api } from '../../api';
import { useAppData } from '../../app-data';
import { Button } from '../../ui/button';
import { toContractError } from '../../ui/contract-error';
import { ErrorBanner } from '../../ui/error-banner';
import { ProgressLine } from '../../ui/progress-line';
import { formatCount, plural } from '../../ui/format';
import { useCancel } from '../../ui/use-cancel';
import { useEngineData } from '../../ui/use-engine-data';
import { useFoundGoingOn } from '../../jobs/use-found-job';
import { useJobDetail } from '../../jobs/use-job-detail';
import { formatChanged, useChangedCount } from '../projects/changed-count';
import { ProjectHeader } from '../projects/project-header';
import { DEFAULT_EXPORT_CHOICE, DELIMITERS, defaultExportName, exportInputFor, type Delimiter, type ExportChoice } from './export-choice';
import { BreakableText } from '../../ui/breakable-text';
import { routeToHash } from '../../navigation/route';

type Outcome = { result: ExportResult; downloaded: boolean };

/** The job whose detail says how far an export is. */
const EXPORT = ['export'] as const;

export function ExportScreen({ projectId }: { projectId: number }) {
  const data = useAppData();
  const project = useEngineData(`project:${projectId}`, () => api.callOrThrow('projects.get', { projectId }));
  const [choice, setChoice] = useState<ExportChoice>(DEFAULT_EXPORT_CHOICE);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ContractError | null>(null);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  /** What a cancelled export left (the engine's words: the file there stays as it was). */
  const [cancelled, setCancelled] = useState<string | null>(null);
  /** Set once the file is being written (after the save dialog, where there is one), with how far it is. */
  const [writing, setWriting] = useState(false);
  /** An export found going on when the screen opened (started before the user went elsewhere, or in another window), and how it ended. */
  const [endedElsewhere, setEndedElsewhere] = useState<'ended' | 'cancelled' | null>(null);
  const found = useFoundGoingOn(EXPORT, projectId, (cancelledHere) => {
    // Its choices stay on the screen once it has ended.
    if (found.word) setChoice(found.word.choice);
    setEndedElsewhere(cancelledHere ? 'cancelled' : 'ended');
  });
  const going = writing || found.word !== null;
  /** The choices shown: an export found going on shows what it writes, not this screen's own. */
  const shown = found.word?.choice ?? choice;
  const event = useJobDetail(EXPORT, projectId, going);
  const progress = event ?? found.word;
  const summary = project.value?.summary;
  /** Rows an export of every row writes as to_review: said before it is written, with the matched rows one click away. */
  const toReview = summary?.counts.to_review ?? 0;
  const changed = useChangedCount(projectId, summary?.changedAtLastRefresh);
  const set = <K extends keyof ExportChoice>(name: K, value: ExportChoice[K]) => setChoice((current) => ({ ...current, [name]: value }));

  const run = async () => {
    setBusy(true);
    setError(null);
    setOutcome(null);
    setCancelled(null);
    setEndedElsewhere(null);
    try {
      const defaultName = defaultExportName(summary?.name ?? 'matchdesk', choice);
      const dialog = await api.callOrThrow('dialog.saveExport', { defaultName, format: choice.format });
      if (dialog.supported && dialog.path === null) return;
      setWriting(true);
      const result = await api.callOrThrow('export.run', exportInputFor(projectId, choice, dialog.supported ? dialog.path : null));
      if (!dialog.supported) {
        api.downloadExport(result);
        if (result.candidates) api.downloadExport({ ...result.candidates, candidates: null });
      }
      setOutcome({ result, downloaded: !dialog.supported });
    } catch (thrown) {
      const failure = toContractError(thrown);
      if (failure.kind === 'cancelled') setCancelled(failure.message);
      else setError(failure);
    } finally {
      setBusy(false);
      setWriting(false);
    }
  };

  const { cancelling, cancel } = useCancel(going, () => {
    found.cancelledHere();
    void api.call('job.cancel', { projectId, kind: 'export' });
  });

  return (
    <div className="screen export-screen">
      <ProjectHeader projectId={projectId} current="export" summary={summary} title="Export" />
      <ErrorBanner error={project.error} onRetry={project.reload} />
      <section className="card export-form" aria-labelledby="export-heading">
        <h2 id="export-heading">What to export</h2>
        <p className="muted">The original columns in their original order, followed by the match columns.</p>

        <fieldset disabled={going}>
          <legend>Format</legend>
          <label className="radio">
            <input type="radio" name="format" checked={shown.format === 'csv'} onChange={() => set('format', 'csv')} /> CSV
          </label>
          <label className="radio">
            <input type="radio" name="format" checked={shown.format === 'xlsx'} onChange={() => set('format', 'xlsx')} /> Excel workbook (.xlsx)
          </label>
        </fieldset>

        <fieldset disabled={going}>
          <legend>Rows</legend>
          <label className="radio">
            <input type="radio" name="scope" checked={shown.scope === 'all'} onChange={() => set('scope', 'all')} /> All rows
            {summary && <span className="muted"> ({formatCount(summary.rowCount)})</span>}
          </label>
          <label className="radio">
            <input type="radio" name="scope" checked={shown.scope === 'matched'} onChange={() => set('scope', 'matched')} /> Matched rows only
            {summary && <span className="muted"> ({formatCount(summary.matched)})</span>}
          </label>
          {summary?.lastRefreshAt && (
            <label className="radio">
              <input type="radio" name="scope" checked={shown.scope === 'changed'} onChange={() => set('scope', 'changed')} data-testid="export-scope-changed" /> Only rows whose
              person's job changed at the last refresh
              <span className="muted"> ({formatChanged(changed)})</span>
            </label>
          )}
        </fieldset>

        {shown.scope === 'all' && toReview > 0 && (
          <div className="banner banner--info" data-testid="export-to-review">
            <div className="banner__text">
              <strong>{plural(toReview, 'row is', 'rows are')} still to review</strong>
              <p>
                They are written with match_status "to_review" and no match. <a href={routeToHash({ screen: 'review', projectId })}>Review them</a> first, or
                export the matched rows only.
              </p>
            </div>
            {!going && (
              <div className="banner__actions">
                <Button variant="secondary" onClick={() => set('scope', 'matched')} data-testid="export-matched-only">
                  Matched rows only
                </Button>
              </div>
            )}
          </div>
        )}

        <fieldset disabled={going}>
          <legend>Candidates</legend>
          <label className="radio">
            <input type="checkbox" checked={shown.candidates} onChange={(event) => set('candidates', event.target.checked)} /> Also export every candidate in long form (one line per row
            and candidate) as a second file beside the matches
          </label>
        </fieldset>

        {shown.format === 'csv' && (
          <fieldset disabled={going}>
            <legend>CSV options</legend>
            <label className="radio">
              <input type="checkbox" checked={shown.bom} onChange={(event) => set('bom', event.target.checked)} /> Start with a byte order mark (lets Excel read accents correctly)
            </label>
            <div className="field field--inline">
              <label htmlFor="export-delimiter">Separator</label>
              <select id="export-delimiter" value={shown.delimiter} onChange={(event) => set('delimiter', event.target.value as Delimiter)}>
                {DELIMITERS.map((delimiter) => (
                  <option key={delimiter.label} value={delimiter.value}>
                    {delimiter.label}
                  </option>
                ))}
              </select>
            </div>
          </fieldset>
        )}

        <ErrorBanner error={error} title="The export failed" onDismiss={() => setError(null)} />
        <div className="form-actions">
          <Button variant="primary" busy={busy} disabled={found.word !== null} onClick={run} data-testid="export-button">
            {data.info?.host === 'electron' ? 'Export…' : 'Export'}
          </Button>
          {going && (
            <>
              <ProgressLine parts={cancelling ? CANCELLING : exportProgressParts(progress)} label="Export progress" testId="export-progress" />
              <Button variant="secondary" onClick={cancel} disabled={cancelling} title="Cancel the export (Esc)" aria-keyshortcuts="Escape" data-testid="export-cancel">
                Cancel
              </Button>
            </>
          )}
        </div>
        {endedElsewhere && (
          <div className="banner banner--info" data-testid="export-ended-elsewhere">
            <div className="banner__text">
              <strong role="status">{endedElsewhere === 'cancelled' ? 'Export cancelled' : 'The export has ended'}</strong>
              <p>
                {endedElsewhere === 'cancelled'
                  ? 'The export that was going on was cancelled: the file there stays as it was.'
                  : 'The export that was going on when this screen opened has ended: its file is where it was saved, or in your downloads.'}
              </p>
            </div>
          </div>
        )}
        {cancelled && (
          <div className="banner banner--info" data-testid="export-cancelled">
            <div className="banner__text">
              <strong role="status">Export cancelled</strong>
              <p>{cancelled}</p>
            </div>
          </div>
        )}
        {outcome && (
          <div className="banner banner--success" role="status" data-testid="export-result">
            <div className="banner__text">
              <strong>
                Exported {plural(outcome.result.rows, 'row')} to {outcome.result.fileName}
              </strong>
              <p>{outcome.downloaded ? 'The file was handed to the browser as a download: look in your downloads folder.' : <span className="mono selectable">{outcome.result.path && <BreakableText text={outcome.result.path} />}</span>}</p>
              {outcome.result.candidates && (
                <p>
                  Candidates in long form: {plural(outcome.result.candidates.rows, 'line')} in{' '}
                  {outcome.downloaded ? outcome.result.candidates.fileName : <span className="mono selectable">{outcome.result.candidates.path && <BreakableText text={outcome.result.candidates.path} />}</span>}
                </p>
              )}
            </div>
          </div>
        )}
      </section>
    </div>
  );
}
