import type { SearchSummary } from '../../../../shared/contract';
import { api } from '../../api';
import { routeToHash } from '../../navigation/route';
import { Button } from '../../ui/button';
import { useConfirm } from '../../ui/confirm-dialog';
import { toContractError } from '../../ui/contract-error';
import { ErrorBanner } from '../../ui/error-banner';
import { formatCount, formatDateTime, plural } from '../../ui/format';
import { useEngineData } from '../../ui/use-engine-data';
import { useToast } from '../../ui/toasts';
import { searchStatusLabel, searchStatusTone } from './search-progress-text';

/** The saved criteria searches, for the Projects screen: each a project of its own, reopened offline at no cost. */
export function SavedSearches() {
  const searches = useEngineData('searches', () => api.callOrThrow('search.list', {}));
  const confirm = useConfirm();
  const toast = useToast();
  const list = searches.value ?? [];

  const remove = async (search: SearchSummary) => {
    const sure = await confirm({
      title: `Delete ${search.name}?`,
      message: `The search and the ${plural(search.people, 'person', 'people')} it found are deleted from this computer. Running it again asks the service anew.`,
      confirmLabel: 'Delete search',
      danger: true,
    });
    if (!sure) return;
    try {
      await api.callOrThrow('search.delete', { searchId: search.searchId });
      searches.setValue(list.filter((s) => s.searchId !== search.searchId));
      toast(`Deleted ${search.name}.`);
    } catch (thrown) {
      toast(toContractError(thrown).message, 'error');
    }
  };

  if (searches.error) return <ErrorBanner error={searches.error} title="Could not load the saved searches" onRetry={searches.reload} />;
  if (list.length === 0) return null;
  return (
    <section className="saved-searches" aria-labelledby="saved-searches-heading" data-testid="saved-searches">
      <div className="section-head">
        <h2 id="saved-searches-heading">Searches</h2>
        <a className="button button--secondary button--small" href={routeToHash({ screen: 'search', searchId: null })}>
          New search
        </a>
      </div>
      <div className="table-wrap card">
        <table className="table projects-table">
          <caption className="sr-only">Saved criteria searches</caption>
          <thead>
            <tr>
              <th scope="col">Search</th>
              <th scope="col">State</th>
              <th scope="col" className="num">
                People
              </th>
              <th scope="col">Last change</th>
              <th scope="col">
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {list.map((search) => {
              const href = routeToHash({ screen: 'search', searchId: search.searchId });
              return (
                <tr key={search.searchId} data-testid="saved-search-row" data-search-id={search.searchId}>
                  <th scope="row" className="project-name">
                    <a href={href}>{search.name}</a>
                    <span className="project-name__source">
                      <span className="badge">search</span> {search.filters.length === 1 ? '1 filter' : `${search.filters.length} filters`}
                    </span>
                  </th>
                  <td>
                    <span className={`status status--${searchStatusTone(search.status)}`}>{searchStatusLabel(search.status)}</span>
                  </td>
                  <td className="num">{formatCount(search.people)}</td>
                  <td>{formatDateTime(search.updatedAt)}</td>
                  <td>
                    <div className="row-actions">
                      <a className="button button--secondary button--small" href={href} aria-label={`Open ${search.name}`}>
                        Open
                      </a>
                      <Button small variant="danger" onClick={() => void remove(search)} aria-label={`Delete ${search.name}`}>
                        Delete
                      </Button>
                    </div>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </section>
  );
}
