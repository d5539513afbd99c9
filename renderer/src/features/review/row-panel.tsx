import type { ContractError, RowDetail } from '../../../../shared/contract';
import { Button } from '../../ui/button';
import { ErrorBanner } from '../../ui/error-banner';
import { formatConfidence, formatCount, formatDateTime, plural } from '../../ui/format';
import { STRATEGY_LABELS } from '../import-mapping/field-labels';
import { CandidateCard } from './candidate-card';
import { noCandidatesText, STATE_LABELS } from './row-states';
import { BreakableText } from '../../ui/breakable-text';
import { JOB_CHANGE_LABELS } from './job-change-labels';
import { ImportantToggle } from '../changes/important-toggle';

interface RowPanelProps {
  /** The panel still shows the previous row: its buttons must not act on the new selection. */
  busy: boolean;
  detail: RowDetail | undefined;
  error: ContractError | null;
  applyToIdentical: boolean;
  onApplyToIdenticalChange: (on: boolean) => void;
  onChoose: (rank: number) => void;
  onReject: () => void;
  onSkip: () => void;
  onUndo: () => void;
  onClear: () => void;
}

/** The selected row: what the sheet says, then who the service found. */
export function RowPanel({ busy, detail, error, applyToIdentical, onApplyToIdenticalChange, onChoose, onReject, onSkip, onUndo, onClear }: RowPanelProps) {
  if (error) return <ErrorBanner error={error} title="Could not load this row" />;
  if (!detail) return <p className="muted row-panel__empty">{busy ? 'Loading the row…' : 'Select a row to see its candidates.'}</p>;
  const decided = detail.source !== null;
  const cells = detail.headers.map((header, index) => ({ header, value: detail.cells[index] ?? '' })).filter((cell) => cell.value.trim() !== '');

  return (
    <div className="row-panel" data-testid="row-panel" data-row-index={detail.rowIndex}>
      <div className="row-panel__head">
        <h2>Row {formatCount(detail.rowNumber)}</h2>
        <span className={`state state--${detail.state}`} data-testid="row-state">
          {STATE_LABELS[detail.state]}
        </span>
        {detail.strategy && detail.candidates.length > 0 && <span className="muted">found by {STRATEGY_LABELS[detail.strategy].toLowerCase()}</span>}
        {decided && detail.decidedAt && (
          <span className="muted">
            {detail.source === 'auto' ? 'auto-accepted' : 'decided'} {formatDateTime(detail.decidedAt)}
          </span>
        )}
      </div>

      {detail.jobChange && <JobChangeLine detail={detail} />}

      <dl className="cells" aria-label="The row in the sheet">
        {cells.map((cell, index) => (
          <div key={index} className="cells__item">
            <dt>{cell.header || `Column ${index + 1}`}</dt>
            <dd>
              <BreakableText text={cell.value} />
            </dd>
          </div>
        ))}
      </dl>
      {detail.problems.length > 0 && (
        <ul className="warnings">
          {detail.problems.map((problem) => (
            <li key={problem}>⚠ {problem}</li>
          ))}
        </ul>
      )}

      <div className="row-panel__candidates-head">
        <h3>{detail.candidates.length > 0 ? `${plural(detail.candidates.length, 'candidate')}, most likely first` : 'Candidates'}</h3>
        {detail.confidence !== null && (
          <span className="badge" data-testid="row-confidence">
            {formatConfidence(detail.confidence)} confident
          </span>
        )}
      </div>
      {detail.guard ? (
        <p className="row-panel__reason" data-testid="row-reason">
          <strong>Check: </strong>
          {detail.guard}
        </p>
      ) : (
        detail.reason && (
          <p className="row-panel__reason" data-testid="row-reason">
            {detail.reason}
          </p>
        )
      )}
      {detail.candidates.length === 0 ? (
        <p className={detail.state === 'error' ? 'text-danger' : 'muted'}>{noCandidatesText(detail.state, detail.error)}</p>
      ) : (
        <ol className="candidates" aria-label="Candidates, best first">
          {detail.candidates.map((candidate, index) => (
            <CandidateCard
              key={candidate.rank}
              candidate={candidate}
              position={index + 1}
              scored={detail.scored}
              chosen={detail.chosenRank === candidate.rank}
              disabled={busy}
              onChoose={() => onChoose(candidate.rank)}
            />
          ))}
        </ol>
      )}

      <ImportantToggle detail={detail} />

      <div className="row-panel__actions">
        {detail.identicalRows > 0 && (
          <label className="switch" data-testid="apply-identical">
            <input type="checkbox" checked={applyToIdentical} onChange={(event) => onApplyToIdenticalChange(event.target.checked)} />
            Apply to {plural(detail.identicalRows, 'identical row')} (same lookup)
          </label>
        )}
        <div className="form-actions">
          {detail.candidates.length > 0 && (
            <Button small disabled={busy} onClick={onReject} data-testid="decide-reject">
              None fits <kbd>n</kbd>
            </Button>
          )}
          <Button small disabled={busy} onClick={onSkip} data-testid="decide-skip">
            Skip <kbd>s</kbd>
          </Button>
          <Button small disabled={busy} onClick={onUndo} data-testid="decide-undo">
            Undo <kbd>u</kbd>
          </Button>
          {decided && (
            <Button small variant="quiet" disabled={busy} onClick={onClear} data-testid="decide-clear">
              Clear decision
            </Button>
          )}
        </div>
      </div>
    </div>
  );
}

/** Where the chosen person is now against the sheet's company, and what the last refresh that asked for them changed. */
function JobChangeLine({ detail }: { detail: RowDetail }) {
  const change = detail.jobChange!;
  const refresh = detail.refresh;
  return (
    <div className="row-panel__job-change" data-testid="row-job-change" data-job-change={change.status}>
      <p>
        <span className={`job-change job-change--${change.status}`}>{JOB_CHANGE_LABELS[change.status]}</span> {change.reason}
      </p>
      {refresh?.changed && (
        <p className="muted" data-testid="row-refresh-change">
          Changed at the refresh of {formatDateTime(refresh.at)}: before it, {refresh.previousCompany ? `at ${refresh.previousCompany}` : 'no current job'}
          {refresh.previousJobChange ? ` (${JOB_CHANGE_LABELS[refresh.previousJobChange].toLowerCase()})` : ''}.
        </p>
      )}
      {refresh && !refresh.changed && <p className="muted">No change at the refresh of {formatDateTime(refresh.at)}.</p>}
    </div>
  );
}
