import type { ContractError } from '../../../shared/contract';
import { errorHint, errorTitle } from './contract-error';

interface ErrorBannerProps {
  error: ContractError | null;
  onDismiss?: () => void;
  onRetry?: () => void;
  /** Overrides the heading when the screen knows better what failed ("Could not save the mapping"). */
  title?: string;
}

export function ErrorBanner({ error, onDismiss, onRetry, title }: ErrorBannerProps) {
  if (!error) return null;
  const hint = errorHint(error);
  return (
    <div className="banner banner--error" role="alert">
      <div className="banner__text">
        <strong>{title ?? errorTitle(error)}</strong>
        <p>{error.message}</p>
        {hint && <p className="banner__hint">{hint}</p>}
      </div>
      <div className="banner__actions">
        {onRetry && (
          <button type="button" className="button button--secondary button--small" onClick={onRetry}>
            Try again
          </button>
        )}
        {onDismiss && (
          <button type="button" className="button button--quiet button--small" onClick={onDismiss} aria-label="Dismiss this message">
            Dismiss
          </button>
        )}
      </div>
    </div>
  );
}

export function Notice({ tone = 'info', children }: { tone?: 'info' | 'warning' | 'success'; children: React.ReactNode }) {
  return <div className={`banner banner--${tone}`}>{children}</div>;
}
