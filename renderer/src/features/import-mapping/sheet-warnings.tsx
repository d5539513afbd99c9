import { useState } from 'react';
import type { MappingPreview, PreviewRow, SheetWarning } from '../../../../shared/contract';
import { formatCount, plural } from '../../ui/format';
import { WarningRowsDialog } from './warning-rows-dialog';

interface SheetWarningsProps {
  warnings: SheetWarning[];
  preview: MappingPreview | undefined;
  /** The mapping's preview is checking every row: its problems are not known yet. */
  counting?: boolean;
  /** The sheet's headers, for the rows a warning opens. */
  headers: string[];
}

/** What the import and the mapping found wrong, with counts, so the user can fix the sheet or accept it. */
export function SheetWarnings({ warnings, preview, counting = false, headers }: SheetWarningsProps) {
  const problems = preview?.problems ?? [];
  const unusable = preview?.unusableRows ?? 0;
  const byName = preview?.unusableByName ?? null;
  const [open, setOpen] = useState<{ title: string; count: number; rows: PreviewRow[] } | null>(null);
  // Each count of the mapping's own checks opens the rows it counts.
  const rowsLink = (label: string, title: string, count: number, rows: PreviewRow[], testId: string) => (
    <button type="button" className="link-button" onClick={() => setOpen({ title, count, rows })} data-testid={testId}>
      {label}
    </button>
  );
  if (counting && warnings.length === 0) return <p className="muted">Checking every row for problems…</p>;
  if (warnings.length === 0 && problems.length === 0 && unusable === 0) {
    return <p className="text-success">✓ No problems found in the sheet.</p>;
  }
  return (
    <>
      <ul className="warnings" data-testid="sheet-warnings">
        {warnings.map((warning) => (
          <li key={`w-${warning.code}-${warning.message}`}>
            <span aria-hidden="true">⚠ </span>
            {warning.message}
            {warning.count !== undefined && <span className="muted"> ({formatCount(warning.count)})</span>}
          </li>
        ))}
        {problems.map((problem) => (
          <li key={`p-${problem.message}`}>
            <span aria-hidden="true">⚠ </span>
            {problem.message} ({rowsLink(`show ${plural(problem.count, 'row')}`, problem.message, problem.count, problem.examples, 'warning-problem-rows')})
          </li>
        ))}
        {counting && <li className="muted">Checking every row for problems…</li>}
        {unusable > 0 && (
          <li>
            <span aria-hidden="true">⚠ </span>
            {rowsLink(plural(unusable, 'row has', 'rows have'), 'Rows with nothing usable to look up', unusable, preview?.unusableExamples ?? [], 'warning-unusable-rows')} nothing usable to look
            up with the chosen strategies; they are kept and exported unmatched.
            {byName !== null && byName > 0 && (
              <span data-testid="warning-unusable-by-name">
                {' '}
                Ticking “Name alone” would look up {byName === unusable ? (unusable === 1 ? 'it' : `all ${formatCount(byName)}`) : `${formatCount(byName)} of them`} (by name only, so more of them
                go to review).
              </span>
            )}
          </li>
        )}
      </ul>
      {open && <WarningRowsDialog title={open.title} count={open.count} rows={open.rows} headers={headers} onClose={() => setOpen(null)} />}
    </>
  );
}
