import type { RunProgress } from '../../../../shared/contract';
import { runCountsText, runPercent, runStatusLabel, runStatusSentence } from './run-text';

export function RunProgressView({ progress }: { progress: RunProgress }) {
  const value = runPercent(progress);
  const tone = progress.status === 'failed' || progress.status === 'out_of_credits' ? 'danger' : progress.status === 'done' ? 'success' : progress.status === 'running' ? 'accent' : 'muted';
  return (
    <div className="run-progress" data-status={progress.status}>
      <div className="run-progress__head">
        <strong className={`status status--${tone}`} data-testid="run-status">
          {runStatusLabel(progress.status)}
        </strong>
        <span>{value}%</span>
      </div>
      <div
        className={`progress progress--${tone}`}
        role="progressbar"
        aria-label="Run progress"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={value}
        aria-valuetext={`${value}%, ${runStatusLabel(progress.status).toLowerCase()}`}
        data-testid="run-progress"
      >
        <div className="progress__bar" style={{ width: `${value}%` }} />
      </div>
      <p className={progress.status === 'failed' || progress.status === 'out_of_credits' ? 'text-danger' : ''} role={progress.status === 'running' ? undefined : 'status'}>
        {runStatusSentence(progress)}
      </p>
      <ul className="run-progress__counts">
        {runCountsText(progress).map((text) => (
          <li key={text}>{text}</li>
        ))}
      </ul>
    </div>
  );
}
