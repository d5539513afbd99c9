import type { SearchFilter } from '../../../../shared/search-filters';
import { Button } from '../../ui/button';
import { useToast } from '../../ui/toasts';
import { requestJson } from './filter-builder-state';

/** The request body as the service takes it, read-only, for people who know the API. */
export function RequestJson({ filters }: { filters: SearchFilter[] }) {
  const toast = useToast();
  const json = requestJson(filters);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(json);
      toast('Copied the request.', 'success');
    } catch {
      toast('The clipboard is not available here: select the text and copy it.', 'warning');
    }
  };

  return (
    <details className="request-json" data-testid="request-json">
      <summary>The request as JSON</summary>
      <p className="muted">
        The body of <span className="mono">POST …/search</span>. Company page links are turned into slugs and long value lists are split into several calls when it runs.
      </p>
      <div className="request-json__box">
        <pre className="request-json__text mono" tabIndex={0} aria-label="The request as JSON (read-only)" data-testid="request-json-text">
          {json}
        </pre>
        <Button small className="request-json__copy" onClick={() => void copy()}>
          Copy
        </Button>
      </div>
    </details>
  );
}
