import { columnLetter } from '../../ui/format';

/** The first rows as imported, so the user can see which column holds what. */
export function SampleTable({ headers, rows }: { headers: string[]; rows: string[][] }) {
  return (
    <div className="table-wrap sample-table" tabIndex={0} role="region" aria-label="First rows of the sheet">
      <table className="table table--compact">
        <thead>
          <tr>
            {headers.map((header, index) => (
              <th key={index} scope="col">
                <span className="column-letter">{columnLetter(index)}</span> {header || <span className="muted">(no header)</span>}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row, rowIndex) => (
            <tr key={rowIndex}>
              {headers.map((_, index) => (
                <td key={index} title={row[index] ?? ''}>
                  {row[index] ?? ''}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
