import { formatCount } from '../../ui/format';
import { useProjectEvent } from '../../ui/use-project-event';

/**
 * The rows changed at a project's last refresh as a screen shows them: the figure the engine gave, or, while that is
 * null (a large project's are counted in the background: review/changed-count.ts), the one its
 * `project.changedCount` event brings once counted.
 */
export function useChangedCount(projectId: number, given: number | null | undefined): number | null {
  const counted = useProjectEvent('project.changedCount', projectId, given === null);
  return given ?? counted?.changedAtLastRefresh ?? null;
}

/** "1,204", or `counting` while the engine counts them. */
export function formatChanged(count: number | null, counting = 'counting…'): string {
  return count === null ? counting : formatCount(count);
}
