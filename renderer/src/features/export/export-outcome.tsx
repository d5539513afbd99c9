import { BreakableText } from '../../ui/breakable-text';
import type { ExportOutcomeValue } from './use-file-export';

interface ExportOutcomeProps {
  outcome: ExportOutcomeValue;
  /** How many of what it wrote, in words ("12 changes"). */
  rows: (count: number) => string;
  testId: string;
  className?: string;
  onDismiss?: () => void;
}

/** Where an export went: the file's path, or that the browser was handed it as a download. */
export function ExportOutcome({ outcome, rows, testId, className, onDismiss }: ExportOutcomeProps) {
  return (
    <div className={`banner banner--success${className ? ` ${className}` : ''}`} role="status" data-testid={testId}>
      <div className="banner__text">
        <strong>
          Exported {rows(outcome.result.rows)} to {outcome.result.fileName}
        </strong>
        <p>
          {outcome.downloaded ? (
            'The file was handed to the browser as a download: look in your downloads folder.'
          ) : (
            <span className="mono selectable">{outcome.result.path && <BreakableText text={outcome.result.path} />}</span>
          )}
        </p>
      </div>
      {onDismiss && (
        <button type="button" className="button button--quiet button--small" onClick={onDismiss} aria-label="Dismiss this message">
          Dismiss
        </button>
      )}
    </div>
  );
}
