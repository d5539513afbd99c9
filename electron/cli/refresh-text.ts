import type { RefreshPreview, RefreshProgress } from '../../shared/contract';
import type { JobChangeStatus } from '../../shared/model';
import { formatDuration } from './progress';

export function formatRefreshPreview(p: RefreshPreview): string {
  const lines = [
    `Matched rows:         ${p.matchedRows}`,
    `People to ask:        ${p.people} (each once, by profile)`,
    ...(p.rowsWithoutProfile > 0 ? [`Rows without profile: ${p.rowsWithoutProfile} (keep what they have)`] : []),
    ...(p.olderThanDays !== null ? [`Left out:             ${p.recentPeople} (record younger than ${p.olderThanDays} days)`] : []),
    `Calls:                ${p.calls}`,
    `Estimated time:       ${formatDuration(p.estimatedSeconds)}`,
  ];
  return lines.join('\n') + '\n';
}

export function formatRefreshLine(p: RefreshProgress): string {
  if (p.rowsWriting) {
    const share = p.rowsWriting.total > 0 ? Math.floor((100 * p.rowsWriting.done) / p.rowsWriting.total) : 100;
    return `${p.status}: ${p.peopleDone}/${p.peopleTotal} people asked, bringing their rows up to date (${share}%), ${p.rowsUpdated} rows updated, ${p.rowsChanged} changed`;
  }
  const pct = p.peopleTotal > 0 ? Math.floor((100 * p.peopleDone) / p.peopleTotal) : 100;
  const speed = p.status === 'running' && p.ratePerSec > 0 ? `, ${p.ratePerSec.toFixed(0)} people/s${p.etaSeconds !== null ? `, ETA ${formatDuration(p.etaSeconds)}` : ''}` : '';
  return (
    `${p.status}: ${p.peopleDone}/${p.peopleTotal} people (${pct}%), ${p.calls} calls, ` +
    `${p.rowsChanged} rows changed, ${p.notFound} not found, ${p.failed} failed${speed}`
  );
}

/** What a finished refresh found, in sentences. */
export function formatRefreshOutcome(p: RefreshProgress): string {
  const lines = [`Asked ${p.peopleDone} ${p.peopleDone === 1 ? 'person' : 'people'} in ${p.calls} ${p.calls === 1 ? 'call' : 'calls'}: ${p.rowsUpdated} matched rows brought up to date, ${p.rowsChanged} of them with a job change since.`];
  if (p.notFound > 0) {
    lines.push(`${p.notFound} ${p.notFound === 1 ? 'person is' : 'people are'} no longer found by their profile; their ${p.rowsNotFound} ${p.rowsNotFound === 1 ? 'row keeps' : 'rows keep'} what they had.`);
  }
  if (p.rowsWithoutProfile > 0) lines.push(`${p.rowsWithoutProfile} matched ${p.rowsWithoutProfile === 1 ? 'row has' : 'rows have'} no profile to ask by and kept what they had.`);
  return lines.join('\n') + '\n';
}

const JOB_CHANGE_WORDS: Record<JobChangeStatus, string> = { no_change: 'still there', moved: 'moved', left: 'left', unknown: 'unknown' };

/** "412 moved, 58 left, 3,120 still there, 9 unknown" */
export function formatJobChanges(counts: Record<JobChangeStatus, number>): string {
  const order: JobChangeStatus[] = ['moved', 'left', 'no_change', 'unknown'];
  return order.map((j) => `${counts[j].toLocaleString('en-US')} ${JOB_CHANGE_WORDS[j]}`).join(', ');
}
