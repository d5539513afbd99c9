import type { PersonChange } from '../../../../shared/contract';
import { BreakableText } from '../../ui/breakable-text';
import { formatCount, plural } from '../../ui/format';
import { CHANGE_KIND_LABELS, jobWords } from './change-text';

/** Rows a table shows: a long list is for the export, the screen shows its start. */
const SHOWN = 500;

/** One change a row: the sheet's row, who, what changed from and to, when it changed and when a refresh found it. */
export function ChangeTable({ changes, label, testId }: { changes: readonly PersonChange[]; label: string; testId: string }) {
  const shown = changes.slice(0, SHOWN);
  return (
    <>
      {/* It scrolls when long: focusable, so keys scroll it too. */}
      <div className="table-wrap changes-table-wrap" role="region" aria-label={label} tabIndex={0}>
        <table className="table table--compact changes-table" data-testid={testId}>
          <caption className="sr-only">{label}</caption>
          <thead>
            <tr>
              <th scope="col" className="num">
                Row
              </th>
              <th scope="col">Person</th>
              <th scope="col">Change</th>
              <th scope="col">Changed</th>
              <th scope="col">Found</th>
            </tr>
          </thead>
          <tbody>
            {shown.map((change) => (
              <tr key={change.rowIndex} data-testid="change-row" data-kind={change.kind} data-row-index={change.rowIndex}>
                <td className="num">{formatCount(change.rowNumber)}</td>
                <th scope="row" className="changes-table__person">
                  <BreakableText text={change.personName ?? 'Unnamed person'} />
                  {change.important && (
                    <span className="badge badge--accent changes-table__important" data-testid="change-important">
                      important
                    </span>
                  )}
                </th>
                <td>
                  <span className={`job-change job-change--${change.kind}`}>{CHANGE_KIND_LABELS[change.kind]}</span>{' '}
                  <span data-testid="change-from">
                    <BreakableText text={jobWords(change.from)} />
                  </span>{' '}
                  <span aria-hidden="true">→</span>
                  <span className="sr-only">to</span>{' '}
                  <span data-testid="change-to">
                    <BreakableText text={jobWords(change.to)} />
                  </span>
                </td>
                <td className="changes-table__date">{change.changeDate ?? <span className="muted">not given</span>}</td>
                <td className="changes-table__date">{change.detectedAt.slice(0, 10)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {changes.length > shown.length && (
        <p className="muted" data-testid={`${testId}-more`}>
          The first {formatCount(shown.length)} of {plural(changes.length, 'change')} are shown: the export holds them all.
        </p>
      )}
    </>
  );
}
