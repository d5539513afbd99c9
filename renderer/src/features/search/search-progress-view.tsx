import type { SearchProgress } from '../../../../shared/contract';
import { searchCountsText, searchPercent, searchStatusLabel, searchStatusSentence, searchStatusTone } from './search-progress-text';

export function SearchProgressView({ progress }: { progress: SearchProgress }) {
  const value = searchPercent(progress);
  const tone = searchStatusTone(progress.status);
  const stopped = progress.status === 'failed' || progress.status === 'out_of_credits';
  return (
    <div className="run-progress search-progress" data-status={progress.status} data-testid="search-progress">
      <div className="run-progress__head">
        <strong className={`status status--${tone}`} data-testid="search-status">
          {searchStatusLabel(progress.status)}
        </strong>
        {value !== null && <span>{value}%</span>}
      </div>
      <div
        className={`progress progress--${tone} ${value === null ? 'progress--indefinite' : ''}`}
        role="progressbar"
        aria-label="Search progress"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={value ?? undefined}
        aria-valuetext={value === null ? `${searchStatusLabel(progress.status)}, ${progress.people} found so far` : `${value}%, ${searchStatusLabel(progress.status).toLowerCase()}`}
      >
        <div className="progress__bar" style={{ width: value === null ? undefined : `${value}%` }} />
      </div>
      <p className={stopped ? 'text-danger' : ''} role={progress.status === 'running' ? undefined : 'status'}>
        {searchStatusSentence(progress)}
      </p>
      <ul className="run-progress__counts" data-testid="search-counts">
        {searchCountsText(progress).map((text) => (
          <li key={text}>{text}</li>
        ))}
      </ul>
    </div>
  );
}
