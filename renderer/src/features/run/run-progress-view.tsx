import type { RunProgress } from '../../../../shared/contract';
import { runPercent } from '../../../../shared/progress';
import { runCountsText, runOutcome, runStatusLabel, runStatusSentence, runTone } from './run-text';

/** `cause`: the commonest reason lookups failed, once the run has finished with failures. */
export function RunProgressView({ progress, cause = null }: { progress: RunProgress; cause?: string | null }) {
  const value = runPercent(progress);
  const outcome = runOutcome(progress);
  const tone = runTone(outcome);
  const label = runStatusLabel(outcome);
  return (
    <div className="run-progress" data-status={progress.status} data-outcome={outcome}>
      <div className="run-progress__head">
        <strong className={`status status--${tone}`} data-testid="run-status">
          {label}
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
        aria-valuetext={`${value}%, ${label.toLowerCase()}`}
        data-testid="run-progress"
      >
        <div className="progress__bar" style={{ width: `${value}%` }} />
      </div>
      <p className={tone === 'danger' || tone === 'warning' ? `text-${tone}` : ''} role={progress.status === 'running' ? undefined : 'status'}>
        {runStatusSentence(progress, cause)}
      </p>
      <ul className="run-progress__counts">
        {runCountsText(progress).map((text) => (
          <li key={text}>{text}</li>
        ))}
      </ul>
    </div>
  );
}
