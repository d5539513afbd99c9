import type { ReviewGroup } from '../../../../shared/contract';
import { api } from '../../api';
import { Button } from '../../ui/button';
import { ErrorBanner } from '../../ui/error-banner';
import { formatCount, plural } from '../../ui/format';
import { Modal } from '../../ui/modal';
import { useEngineData } from '../../ui/use-engine-data';

interface GroupDialogProps {
  projectId: number;
  /** The group on show, if any. */
  current: string | null;
  onPick: (group: ReviewGroup) => void;
  onClear: () => void;
  onClose: () => void;
}

/**
 * "Rows like this": the rows waiting for review grouped by reason pattern (review.groups), the largest group first,
 * each with its count; picking one lists its rows, so a reviewer decides a group after checking a few.
 */
export function GroupDialog({ projectId, current, onPick, onClear, onClose }: GroupDialogProps) {
  const groups = useEngineData(`review-groups:${projectId}`, () => api.callOrThrow('review.groups', { projectId }));
  const value = groups.value;
  return (
    <Modal
      title="Group by reason"
      onClose={onClose}
      className="group-dialog"
      footer={
        <>
          {current !== null && (
            <Button variant="quiet" onClick={onClear} data-testid="group-clear">
              Show every row
            </Button>
          )}
          <Button onClick={onClose}>Close</Button>
        </>
      }
    >
      <ErrorBanner error={groups.error} title="Could not group the rows" onRetry={groups.reload} />
      {!value && !groups.error && <p className="muted">Grouping the rows to review…</p>}
      {value && value.length === 0 && <p>No row is waiting for review.</p>}
      {value && value.length > 0 && (
        <>
          <p className="muted">
            The {plural(value.reduce((n, g) => n + g.rows, 0), 'row')} waiting for review, by why they wait. Pick a group to check a few of its rows and decide the rest alike.
          </p>
          <ul className="group-dialog__groups" data-testid="review-groups">
            {value.map((group, index) => (
              <li key={group.pattern}>
                <button
                  type="button"
                  className="group-dialog__group"
                  aria-current={group.pattern === current || undefined}
                  onClick={() => onPick(group)}
                  autoFocus={current === null ? index === 0 : group.pattern === current}
                  data-testid="review-group"
                  data-pattern={group.pattern}
                >
                  <span className="group-dialog__words">
                    {group.words}
                    {!group.learnable && <span className="muted"> · always yours to decide</span>}
                  </span>
                  <span className="group-dialog__count">{formatCount(group.rows)}</span>
                </button>
              </li>
            ))}
          </ul>
        </>
      )}
    </Modal>
  );
}
