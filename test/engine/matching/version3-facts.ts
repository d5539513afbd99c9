import type { CandidateFacts } from '../../../electron/engine/matching';

/**
 * A candidate's facts as facts version 3 stored them in `people` (one row of 17 values, rank and score first), as that
 * version wrote it: people found again keep such rows, which version 4 must still read.
 */
export function version3Row(f: CandidateFacts): string {
  const { summary: s, nameParts: parts } = f;
  return JSON.stringify([
    f.rank, f.score, s.id, s.name, s.title, s.company, s.social, s.location,
    f.firstName, f.lastName, parts ? [parts.tokens, parts.first, parts.last] : null, f.emails,
    f.jobs.map((j) => [j.company, j.domain, j.title, j.started, j.ended, j.status]), f.country,
    f.name === s.name ? 0 : f.name, f.slug === s.social ? 0 : f.slug, f.location === s.location ? 0 : f.location,
  ]);
}
