import type { ProgressParts } from '../../../shared/progress';

/**
 * A long step's progress beside its button: "Writing the rows… 41%". Only the words are a live region, so a screen
 * reader says "Writing the rows…" and then "Saving the rows…", not every percent on the way (they change up to four
 * times a second); the percent is a progress bar it reads when asked.
 */
export function ProgressLine({ parts, label, testId }: { parts: ProgressParts; label: string; testId: string }) {
  return (
    <span className="muted" data-testid={testId}>
      <span role="status">{parts.words}</span>
      {parts.percent !== null && (
        <>
          {' '}
          <span role="progressbar" aria-label={label} aria-valuemin={0} aria-valuemax={100} aria-valuenow={parts.percent}>
            {parts.percent}%
          </span>
        </>
      )}
    </span>
  );
}
