import type { PreviewRow } from '../../../../shared/contract';
import { Button } from '../../ui/button';
import { formatCount, plural } from '../../ui/format';
import { Modal } from '../../ui/modal';

interface WarningRowsDialogProps {
  title: string;
  /** Rows the warning counts, of which `rows` are the first. */
  count: number;
  rows: PreviewRow[];
  headers: string[];
  onClose: () => void;
}

/** The rows a mapping warning counts (its first ones), with their cells as the sheet has them, to see what is wrong. */
export function WarningRowsDialog({ title, count, rows, headers, onClose }: WarningRowsDialogProps) {
  return (
    <Modal
      title={title}
      onClose={onClose}
      className="warning-rows"
      footer={
        <Button variant="primary" onClick={onClose}>
          Close
        </Button>
      }
    >
      <p className="muted">{rows.length < count ? `The first ${formatCount(rows.length)} of ${plural(count, 'row')}, by their row number in the sheet.` : `${plural(count, 'row')}, by their row number in the sheet.`}</p>
      <div className="warning-rows__table" tabIndex={0} role="region" aria-label="The rows">
        <table className="sample-table" data-testid="warning-rows">
          <thead>
            <tr>
              <th scope="col">Row</th>
              {headers.map((header, index) => (
                <th key={index} scope="col">
                  {header}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.rowNumber}>
                <th scope="row">{formatCount(row.rowNumber)}</th>
                {headers.map((_, index) => (
                  <td key={index}>{row.cells[index] ?? ''}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </Modal>
  );
}
