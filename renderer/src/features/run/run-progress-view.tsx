import type { RunProgress } from '../../../../shared/contract';
import { runPercent } from '../../../../shared/progress';
import { ProgressPanel } from '../../ui/progress-panel';
import { runCountsText, runOutcome, runStatusLabel, runStatusSentence, runTone } from './run-text';

/** `cause`: the commonest reason lookups failed, once the run has finished with failures. */
export function RunProgressView({ progress, cause = null }: { progress: RunProgress; cause?: string | null }) {
  const value = runPercent(progress);
  const outcome = runOutcome(progress);
  const label = runStatusLabel(outcome);
  return (
    <ProgressPanel
      status={progress.status}
      label={label}
      tone={runTone(outcome)}
      percent={value}
      barLabel="Run progress"
      barText={`${value}%, ${label.toLowerCase()}`}
      sentence={runStatusSentence(progress, cause)}
      counts={runCountsText(progress)}
      data={{ 'data-outcome': outcome }}
      testIds={{ status: 'run-status', bar: 'run-progress' }}
    />
  );
}
