import type { RefreshProgress } from '../../../../shared/contract';
import { refreshCounts, refreshPercent, refreshSentence, refreshStepLabel } from './refresh-text';

const TONES: Record<RefreshProgress['status'], string> = {
  running: 'accent',
  paused: 'muted',
  cancelled: 'muted',
  done: 'success',
  failed: 'danger',
  out_of_credits: 'danger',
};

export function RefreshProgressView({ progress }: { progress: RefreshProgress }) {
  const value = refreshPercent(progress);
  const tone = TONES[progress.status];
  const label = refreshStepLabel(progress);
  return (
    <div className="run-progress" data-status={progress.status} data-testid="refresh-progress-view">
      <div className="run-progress__head">
        <strong className={`status status--${tone}`} data-testid="refresh-status">
          {label}
        </strong>
        <span>{value}%</span>
      </div>
      <div
        className={`progress progress--${tone}`}
        role="progressbar"
        aria-label="Refresh progress"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={value}
        aria-valuetext={progress.rowsWriting ? `${value}% of the rows gone through, ${label.toLowerCase()}` : `${value}% of the people asked, ${label.toLowerCase()}`}
        data-testid="refresh-progress"
      >
        <div className="progress__bar" style={{ width: `${value}%` }} />
      </div>
      <p className={tone === 'danger' ? 'text-danger' : ''} role={progress.status === 'running' ? undefined : 'status'} data-testid="refresh-sentence">
        {refreshSentence(progress)}
      </p>
      <ul className="run-progress__counts">
        {refreshCounts(progress).map((text) => (
          <li key={text}>{text}</li>
        ))}
      </ul>
    </div>
  );
}
