// A found person's jobs, read defensively from the record the service sent (its fields are undocumented and may be
// missing or odd), for the details of the selected result.
import type { PersonJson } from '../../../../shared/model';

export interface JobLine {
  index: number;
  title: string | null;
  company: string | null;
  started: string | null;
  ended: string | null;
}

function text(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
}

function record(value: unknown): Record<string, unknown> | null {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
}

export function personJobs(person: PersonJson): JobLine[] {
  const jobs = Array.isArray(person.jobs) ? person.jobs : [];
  const lines: JobLine[] = [];
  jobs.forEach((entry, index) => {
    const job = record(entry);
    if (!job) return;
    const company = record(job.company);
    lines.push({
      index,
      title: text(job.title),
      company: text(company?.name) ?? text(job.company),
      started: text(job.started_at)?.slice(0, 10) ?? null,
      ended: text(job.ended_at)?.slice(0, 10) ?? null,
    });
  });
  return lines;
}

/** "2019-03-01 – 2023-06-30", "2021-01-04 – now", or "" when the record says nothing. */
export function jobPeriod(started: string | null, ended: string | null): string {
  if (!started && !ended) return '';
  return `${started ?? '?'} – ${ended ?? 'now'}`;
}
