import type { JobChangeStatus } from '../../../../shared/model';
import { formatCount, formatDateTime } from '../../ui/format';
import { formatChanged } from '../projects/changed-count';
import { JOB_CHANGE_LABELS, JOB_CHANGE_ORDER } from './job-change-labels';
import type { JobChangeSummary } from './use-review-list';

interface JobChangeChipsProps {
  summary: JobChangeSummary | null;
  /** A state filter is on too: the two apply together, and the label says so. */
  andState: boolean;
  active: JobChangeStatus[] | null;
  changedOnly: boolean;
  onChange: (jobChanges: JobChangeStatus[] | null) => void;
  onChangedOnly: (on: boolean) => void;
}

/**
 * Where the matched people are now against the sheet's company ("412 moved, 58 left, 3,120 still there"), each a
 * filter; and, once the project was refreshed, the rows whose person's job changed at that refresh.
 */
export function JobChangeChips({ summary, andState, active, changedOnly, onChange, onChangedOnly }: JobChangeChipsProps) {
  return (
    <div className="chips job-change-chips" role="group" aria-label="Matched rows by where the person is now">
      <span className="chips__label" aria-hidden="true">
        {andState ? 'and now:' : 'Now:'}
      </span>
      {JOB_CHANGE_ORDER.map((status) => {
        const pressed = active?.length === 1 && active[0] === status;
        const count = summary?.jobChanges[status] ?? 0;
        return (
          <button
            key={status}
            type="button"
            className={`chip chip--job chip--job-${status}`}
            aria-pressed={pressed}
            onClick={() => onChange(pressed ? null : [status])}
            data-testid={`job-chip-${status}`}
            data-count={count}
          >
            <span className="chip__label">{JOB_CHANGE_LABELS[status]}</span> <span className="chip__count">{summary ? formatCount(count) : '…'}</span>
          </button>
        );
      })}
      {summary?.lastRefreshAt && (
        <button
          type="button"
          className="chip chip--changed"
          aria-pressed={changedOnly}
          onClick={() => onChangedOnly(!changedOnly)}
          data-testid="job-chip-changed"
          data-count={summary.changedAtLastRefresh}
          title={`Rows whose person's job changed at the refresh of ${formatDateTime(summary.lastRefreshAt)}`}
        >
          <span className="chip__label">
            Changed<span className="chip__long"> at last refresh</span>
          </span>{' '}
          <span className="chip__count">{formatChanged(summary.changedAtLastRefresh, '…')}</span>
        </button>
      )}
    </div>
  );
}
