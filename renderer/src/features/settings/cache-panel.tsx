import { useState } from 'react';
import { api } from '../../api';
import { Button } from '../../ui/button';
import { useConfirm } from '../../ui/confirm-dialog';
import { toContractError } from '../../ui/contract-error';
import { ErrorBanner } from '../../ui/error-banner';
import { formatBytes, formatCount, plural } from '../../ui/format';
import { useEngineData } from '../../ui/use-engine-data';
import { useToast } from '../../ui/toasts';

export function CachePanel() {
  const stats = useEngineData('cache-stats', () => api.callOrThrow('cache.stats', {}));
  const confirm = useConfirm();
  const toast = useToast();
  const [clearing, setClearing] = useState(false);

  const clear = async () => {
    const sure = await confirm({
      title: 'Clear the cache?',
      message: 'Every fetched answer is forgotten. Projects and decisions stay, but running a project again costs calls (and credits) again.',
      confirmLabel: 'Clear the cache',
      danger: true,
    });
    if (!sure) return;
    setClearing(true);
    try {
      const { removed } = await api.callOrThrow('cache.clear', {});
      toast(`Removed ${plural(removed, 'cached answer')}.`, 'success');
      stats.reload();
    } catch (thrown) {
      toast(toContractError(thrown).message, 'error');
    } finally {
      setClearing(false);
    }
  };

  const value = stats.value;
  return (
    <section className="card" aria-labelledby="cache-heading">
      <div className="section-head">
        <h2 id="cache-heading">Cache of fetched answers</h2>
        <Button variant="danger" busy={clearing} onClick={clear} disabled={!value || value.entries === 0} data-testid="clear-cache">
          Clear cache…
        </Button>
      </div>
      <ErrorBanner error={stats.error} onRetry={stats.reload} />
      {/* A large cache takes seconds to count (every answer is read), more after a restart. */}
      {!value && stats.loading && (
        <p className="muted" data-testid="cache-stats-counting">
          Counting the answers…
        </p>
      )}
      {value && (
        <dl className="stats" data-testid="cache-stats">
          <div className="stats__item">
            <dt>Answers</dt>
            <dd>{formatCount(value.entries)}</dd>
          </div>
          <div className="stats__item">
            <dt>Fresh</dt>
            <dd>{formatCount(value.fresh)}</dd>
          </div>
          <div className="stats__item">
            <dt>Stale (fetched again when needed)</dt>
            <dd>{formatCount(value.stale)}</dd>
          </div>
          <div className="stats__item">
            <dt>Failed lookups</dt>
            <dd>{formatCount(value.errors)}</dd>
          </div>
          <div className="stats__item">
            <dt>Size</dt>
            <dd>{formatBytes(value.bytes)}</dd>
          </div>
        </dl>
      )}
    </section>
  );
}
