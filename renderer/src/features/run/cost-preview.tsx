import type { RunPreview } from '../../../../shared/contract';
import { creditsText, mayRunOut } from '../../../../shared/credits-text';
import { STRATEGIES } from '../../../../shared/model';
import { formatCount, formatEstimate } from '../../ui/format';
import { STRATEGY_LABELS } from '../import-mapping/field-labels';

/** What a run will cost before anything is sent. */
export function CostPreview({ preview }: { preview: RunPreview }) {
  const items: { label: string; value: string; testId: string; strong?: boolean }[] = [
    { label: 'Rows', value: formatCount(preview.rows), testId: 'rows' },
    { label: 'Rows with nothing to look up', value: formatCount(preview.rowsWithoutQuery), testId: 'rows-without-query' },
    // Blank rows are kept in the project and its export at their place, but are not among the rows above.
    ...(preview.blankRows > 0 ? [{ label: 'Blank rows (not looked up)', value: formatCount(preview.blankRows), testId: 'blank-rows' }] : []),
    { label: 'Distinct lookups (first round)', value: formatCount(preview.distinctQueries), testId: 'distinct-queries' },
    { label: 'Already in the cache', value: formatCount(preview.cachedFresh), testId: 'cached' },
    { label: 'To fetch', value: formatCount(preview.toFetch), testId: 'to-fetch', strong: true },
    { label: 'Calls to the service', value: formatCount(preview.calls), testId: 'calls', strong: true },
    { label: 'Estimated time', value: formatEstimate(preview.estimatedSeconds), testId: 'estimated-time' },
  ];
  // Only when the service has said how many remain: without a cap there is nothing to set the run against.
  const credits = creditsText(preview);
  const byStrategy = STRATEGIES.filter((strategy) => (preview.byStrategy[strategy] ?? 0) > 0);
  return (
    <div data-testid="cost-preview">
      <dl className="stats">
        {items.map((item) => (
          <div key={item.testId} className={`stats__item ${item.strong ? 'stats__item--strong' : ''}`} data-testid={`preview-${item.testId}`}>
            <dt>{item.label}</dt>
            <dd>{item.value}</dd>
          </div>
        ))}
      </dl>
      {byStrategy.length > 0 && (
        <p className="muted">
          First lookups by{' '}
          {byStrategy.map((strategy, index) => (
            <span key={strategy}>
              {index > 0 && ', '}
              {STRATEGY_LABELS[strategy].toLowerCase()}: {formatCount(preview.byStrategy[strategy] ?? 0)}
            </span>
          ))}
          . Rows that find nobody try their next way in a later round, which can add calls.
        </p>
      )}
      {credits && (
        <p data-testid="preview-credits">
          <strong>Credits: {credits}.</strong>{' '}
          <span className="muted">
            A bound: each lookup returns up to 5 people, and a person already billed costs nothing again.
            {mayRunOut(preview) && ' This can pass the credits that remain: the run stops there, keeping what landed, and goes on once there are more.'}
          </span>
        </p>
      )}
      {preview.offline && <p className="muted">Offline: only cached answers are used and nothing is sent. Rows without a cached answer are marked offline.</p>}
    </div>
  );
}
