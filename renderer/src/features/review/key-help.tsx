import { Button } from '../../ui/button';
import { Modal } from '../../ui/modal';
import { REVIEW_KEY_HELP } from './review-keys';

export function KeyHelp({ onClose }: { onClose: () => void }) {
  return (
    <Modal title="Keyboard shortcuts" onClose={onClose} footer={<Button onClick={onClose} autoFocus>Close</Button>}>
      <table className="table table--compact key-help" data-testid="key-help">
        <tbody>
          {REVIEW_KEY_HELP.map((entry) => (
            <tr key={entry.what}>
              <td>
                {entry.keys.map((key, index) => (
                  <span key={key}>
                    {index > 0 && <span className="muted"> or </span>}
                    <kbd>{key}</kbd>
                  </span>
                ))}
              </td>
              <td>{entry.what}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="muted">Keys do nothing while you type in a field. Press Escape to leave the text filter.</p>
    </Modal>
  );
}
