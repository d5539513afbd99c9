import type { RefreshProgress } from '../../../../shared/contract';
import { ProgressPanel, type ProgressTone } from '../../ui/progress-panel';
import { refreshCounts, refreshPercent, refreshSentence, refreshStepLabel } from './refresh-text';

const TONES: Record<RefreshProgress['status'], ProgressTone> = {
  running: 'accent',
  paused: 'muted',
  cancelled: 'muted',
  done: 'success',
  failed: 'danger',
  out_of_credits: 'danger',
};

export function RefreshProgressView({ progress }: { progress: RefreshProgress }) {
  const value = refreshPercent(progress);
  const label = refreshStepLabel(progress);
  return (
    <ProgressPanel
      status={progress.status}
      label={label}
      tone={TONES[progress.status]}
      percent={value}
      barLabel="Refresh progress"
      barText={progress.rowsWriting ? `${value}% of the rows gone through, ${label.toLowerCase()}` : `${value}% of the people asked, ${label.toLowerCase()}`}
      sentence={refreshSentence(progress)}
      counts={refreshCounts(progress)}
      testIds={{ panel: 'refresh-progress-view', status: 'refresh-status', bar: 'refresh-progress', sentence: 'refresh-sentence' }}
    />
  );
}
