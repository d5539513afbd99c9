import { Button } from '../../ui/button';
import type { ReviewGroupPick } from './review-view';

interface LearningToolsProps {
  /** The group of rows like this on show, if any: the button says which. */
  group: ReviewGroupPick | null;
  onGroups: () => void;
  onLearned: () => void;
}

/**
 * The review toolbar's way to rows like this (grouped by reason, key g), naming the group on show, and to what was
 * learned from the decisions. In a small window their labels are short, so the state chips keep their lines.
 */
export function LearningTools({ group, onGroups, onLearned }: LearningToolsProps) {
  return (
    <div className="learning-tools">
      <Button
        small
        className="learning-tools__group"
        onClick={onGroups}
        aria-pressed={group !== null}
        aria-keyshortcuts="g"
        title={group ? `${group.words}: pick another group, or show every row (g)` : 'The rows to review grouped by why they wait, with counts: decide a group after checking a few (g)'}
        data-testid="review-group-by"
      >
        {group ? (
          <span className="learning-tools__words">{group.words}</span>
        ) : (
          <span>
            Group<span className="learning-tools__long"> by reason</span>…
          </span>
        )}
      </Button>
      <Button variant="quiet" small onClick={onLearned} title="What the app learned from your decisions, and its reset" data-testid="review-learned">
        <span className="learning-tools__long">What was learned</span>
        <span className="learning-tools__short" aria-hidden="true">
          Learned
        </span>
      </Button>
    </div>
  );
}
