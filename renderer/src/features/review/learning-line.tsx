import type { DecisionsProgress, LearningChange } from '../../../../shared/contract';
import { CANCELLING, decisionsProgressParts } from '../../../../shared/progress';
import { Button } from '../../ui/button';
import { ProgressLine } from '../../ui/progress-line';
import { acceptChangeLabel } from './learning-offer';
import type { LearningState } from './use-learning';

interface LearningLineProps {
  learning: LearningState;
  /** The offer's rows are the list on show: no need to offer to show them. */
  showing: boolean;
  /** An accept or an undo over many rows goes on: the offer waits for it. */
  busy: boolean;
  /** A learning found going on that this screen did not start (another window, or before going elsewhere), with its last word. */
  foundLearning: { progress: DecisionsProgress | null } | null;
  onAccept: (change: LearningChange) => void;
  onShow: (change: LearningChange) => void;
}

/**
 * What learning from the reviewer's decisions is doing, in one line under the toolbar: how far it is while it runs,
 * then what changed ("You accepted 18 of 18 rows with a near name at the same company; 212 more rows now look like
 * them") with the accept of those rows in one undoable step. Nothing at all when there is nothing to say.
 */
export function LearningLine({ learning, showing, busy, foundLearning, onAccept, onShow }: LearningLineProps) {
  const { offer, cancelling } = learning;
  if (learning.learning || foundLearning) {
    const progress = learning.learning ? learning.progress : foundLearning!.progress;
    return (
      <div className="learning-line" data-testid="learning-line">
        <ProgressLine parts={cancelling ? CANCELLING : decisionsProgressParts('learn', progress)} label="Learning progress" testId="learning-progress" />
        {/* Its answer goes to whoever started it: only this screen's own learning is cancelled from here. */}
        {learning.learning && (
          <Button variant="quiet" small onClick={learning.cancel} disabled={cancelling} title="Stop learning: nothing is changed" data-testid="learning-cancel">
            Cancel
          </Button>
        )}
      </div>
    );
  }
  if (!offer) return null;
  return (
    <div className="learning-line learning-line--offer" data-testid="learning-line">
      <p className="learning-line__text" role="status" data-testid="learning-change">
        {offer.sentence}
      </p>
      <div className="learning-line__actions">
        <Button variant="primary" small disabled={busy} onClick={() => onAccept(offer)} title="Accept them in one step; undo (u) takes them all back" data-testid="learning-accept">
          {acceptChangeLabel(offer)}
        </Button>
        {!showing && (
          <Button small onClick={() => onShow(offer)} title="List these rows to check a few first" data-testid="learning-show">
            Show them
          </Button>
        )}
        <Button variant="quiet" small onClick={() => learning.putAway(offer.pattern)} aria-label="Put this away" title="Put this away" data-testid="learning-put-away">
          ✕
        </Button>
      </div>
    </div>
  );
}
