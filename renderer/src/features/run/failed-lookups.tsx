import type { FailedQuery } from '../../../../shared/contract';
import { plural } from '../../ui/format';
import { STRATEGY_LABELS } from '../import-mapping/field-labels';

export function FailedLookups({ failures }: { failures: FailedQuery[] }) {
  if (failures.length === 0) return null;
  return (
    <div className="table-wrap failed-lookups" tabIndex={0} role="region" aria-label="Each failed lookup and why">
      <table className="table table--compact" data-testid="failed-lookups">
        <caption className="sr-only">Failed lookups</caption>
        <thead>
          <tr>
            <th scope="col">Looked up by</th>
            <th scope="col">Terms</th>
            <th scope="col">What went wrong</th>
            <th scope="col" className="num">
              Rows
            </th>
          </tr>
        </thead>
        <tbody>
          {failures.map((failure) => (
            <tr key={failure.queryId}>
              <td>{failure.strategy ? STRATEGY_LABELS[failure.strategy] : '—'}</td>
              <td className="mono">{failure.terms}</td>
              <td className="text-danger">{failure.error}</td>
              <td className="num">{plural(failure.rows, 'row')}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
