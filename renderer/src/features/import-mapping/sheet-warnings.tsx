import type { MappingPreview, SheetWarning } from '../../../../shared/contract';
import { formatCount, plural } from '../../ui/format';

interface SheetWarningsProps {
  warnings: SheetWarning[];
  preview: MappingPreview | undefined;
  /** The mapping's preview is checking every row: its problems are not known yet. */
  counting?: boolean;
}

/** What the import and the mapping found wrong, with counts, so the user can fix the sheet or accept it. */
export function SheetWarnings({ warnings, preview, counting = false }: SheetWarningsProps) {
  const problems = preview?.problems ?? [];
  const unusable = preview?.unusableRows ?? 0;
  if (counting && warnings.length === 0) return <p className="muted">Checking every row for problems…</p>;
  if (warnings.length === 0 && problems.length === 0 && unusable === 0) {
    return <p className="text-success">✓ No problems found in the sheet.</p>;
  }
  return (
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
          {problem.message} <span className="muted">({plural(problem.count, 'row')})</span>
        </li>
      ))}
      {counting && <li className="muted">Checking every row for problems…</li>}
      {unusable > 0 && (
        <li>
          <span aria-hidden="true">⚠ </span>
          {plural(unusable, 'row has', 'rows have')} nothing usable to look up with the chosen strategies; they are kept and exported unmatched.
        </li>
      )}
    </ul>
  );
}
