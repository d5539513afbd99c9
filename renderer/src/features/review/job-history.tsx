import type { JobView } from '../../../../shared/contract';

/** Jobs shown before the rest are summed up: the recent ones say where the person is and what they left. */
const SHOWN_JOBS = 4;

function period(job: JobView): string {
  const start = job.started ?? '?';
  if (job.status === 'current') return `${start} – now`;
  // An end that cannot be read is shown as such, never as a date.
  return `${start} – ${job.status === 'unknown' ? 'end unreadable' : (job.ended ?? '?')}`;
}

/**
 * The person's jobs as a short timeline, most recent first, the sheet's company marked in words (not by colour alone):
 * whether the person is still there, or when they left it, at a glance.
 */
export function JobHistory({ jobs, asOf }: { jobs: JobView[]; asOf: string | null }) {
  if (jobs.length === 0) return null;
  const shown = jobs.slice(0, SHOWN_JOBS);
  const atSheet = jobs.findIndex((j) => j.atSheetCompany);
  // The sheet's company is always in view, even when it was a job long ago.
  if (atSheet >= SHOWN_JOBS) shown[SHOWN_JOBS - 1] = jobs[atSheet]!;
  const hidden = jobs.length - shown.length;
  return (
    <div className="job-history" data-testid="job-history">
      <ol className="job-history__list" aria-label={`Jobs, most recent first${asOf ? `, as of ${asOf.slice(0, 10)}` : ''}`}>
        {shown.map((job, index) => (
          <li key={index} className={`job-history__item job-history__item--${job.status} ${job.atSheetCompany ? 'is-sheet' : ''}`} data-sheet-company={job.atSheetCompany || undefined}>
            <span className="job-history__period">{period(job)}</span>
            <span className="job-history__what">
              {[job.title, job.company].filter(Boolean).join(' · ') || 'a job with no title or company'}
              {job.atSheetCompany && <span className="job-history__mark">sheet's company</span>}
            </span>
          </li>
        ))}
      </ol>
      {hidden > 0 && <p className="job-history__more muted">+{hidden} earlier</p>}
    </div>
  );
}
