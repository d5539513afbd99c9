import type { SearchProgress } from '../../../../shared/contract';
import { ProgressPanel } from '../../ui/progress-panel';
import { searchCountsText, searchPercent, searchStatusLabel, searchStatusSentence, searchStatusTone } from './search-progress-text';

export function SearchProgressView({ progress }: { progress: SearchProgress }) {
  const value = searchPercent(progress);
  const label = searchStatusLabel(progress.status);
  return (
    <ProgressPanel
      className="search-progress"
      status={progress.status}
      label={label}
      tone={searchStatusTone(progress.status)}
      percent={value}
      barLabel="Search progress"
      barText={value === null ? `${label}, ${progress.people} found so far` : `${value}%, ${label.toLowerCase()}`}
      sentence={searchStatusSentence(progress)}
      counts={searchCountsText(progress)}
      testIds={{ panel: 'search-progress', status: 'search-status', counts: 'search-counts' }}
    />
  );
}
