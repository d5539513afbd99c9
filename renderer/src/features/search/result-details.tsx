import type { SearchResultRow } from '../../../../shared/contract';
import { jobPeriod, personJobs } from './person-jobs';

const SHOWN_JOBS = 8;

/** The selected person's jobs, most recent first, with the one that satisfied the filters marked. */
export function ResultDetails({ row }: { row: SearchResultRow | undefined }) {
  if (!row) return <div className="result-details muted">Select a person to see their jobs.</div>;
  const jobs = personJobs(row.person);
  const matched = row.job?.index ?? null;
  return (
    <div className="result-details" aria-live="polite" data-testid="result-details">
      <p className="result-details__who">
        <strong>{row.summary.name ?? row.personId}</strong>
        {row.summary.location && <span className="muted"> · {row.summary.location}</span>}
        {row.summary.social && <span className="muted mono"> · {row.summary.social}</span>}
        <span className="muted"> · first found on page {row.firstPage}</span>
      </p>
      {jobs.length === 0 ? (
        <p className="muted">The record lists no jobs.</p>
      ) : (
        <ol className="result-details__jobs">
          {jobs.slice(0, SHOWN_JOBS).map((job) => (
            <li key={job.index} className={job.index === matched ? 'is-matched' : ''}>
              <span className="result-details__job">{[job.title, job.company].filter(Boolean).join(' at ') || '(no title or company)'}</span>
              <span className="muted result-details__period">{jobPeriod(job.started, job.ended)}</span>
              {job.index === matched && <span className="badge badge--accent">matched</span>}
            </li>
          ))}
          {jobs.length > SHOWN_JOBS && <li className="muted">and {jobs.length - SHOWN_JOBS} more</li>}
        </ol>
      )}
    </div>
  );
}
