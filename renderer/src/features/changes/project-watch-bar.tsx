import { useState } from 'react';
import type { ProjectSummary, WatchSummary } from '../../../../shared/contract';
import { routeToHash } from '../../navigation/route';
import { Button } from '../../ui/button';
import { formatCount } from '../../ui/format';
import { useInboxCount } from './use-inbox';
import { WatchDialog } from './watch-dialog';
import { scheduleWords, shortDay, watchLine } from './watch-text';

interface ProjectWatchBarProps {
  projectId: number;
  summary: ProjectSummary | undefined;
  /** The Changes screen is the one on show. */
  onChanges: boolean;
}

/** In the project's header: its watch (or "Watch…"), and the way to its changes with how many are not seen yet. */
export function ProjectWatchBar({ projectId, summary, onChanges }: ProjectWatchBarProps) {
  // The watch as this bar last saved it, until the screen reads the project again (a new summary).
  const [saved, setSaved] = useState<{ watch: WatchSummary | null; over: ProjectSummary } | null>(null);
  const [open, setOpen] = useState(false);
  const inbox = useInboxCount(projectId, Boolean(summary?.lastRefreshAt));
  if (!summary || summary.kind !== 'match') return null;
  const watch = saved?.over === summary ? saved.watch : summary.watch;
  // Before anything is matched there is nobody to watch, and no change to see.
  if (summary.matched === 0 && !watch && !summary.lastRefreshAt) return null;
  const unseen = inbox.value?.unseen ?? 0;

  return (
    <div className="watch-bar" data-testid="watch-bar">
      <Button
        small
        variant="quiet"
        onClick={() => setOpen(true)}
        title={watch ? `${scheduleWords(watch)}: ${watchLine(watch)}${watch.blocked ? `. Blocked: ${watch.blocked}` : ''}` : 'Refresh this project on a schedule and see who moved or left'}
        data-testid="watch-open"
      >
        {/* Each label one span: the button's flex gap would otherwise open between its words ("Watch this project …"). */}
        {watch ? (
          <>
            <span>
              <span aria-hidden="true">◉</span> <span className="watch-bar__long">Watched · </span>
              {watch.due ? 'due now' : `next ${shortDay(watch.nextRefreshAt)}`}
            </span>
            {watch.blocked && <span className="badge badge--danger">blocked</span>}
          </>
        ) : (
          <span>
            Watch<span className="watch-bar__long"> this project</span>…
          </span>
        )}
      </Button>
      <a
        className="button button--quiet button--small"
        href={routeToHash({ screen: 'changes', projectId })}
        aria-current={onChanges ? 'page' : undefined}
        data-testid="changes-link"
      >
        Changes
        {unseen > 0 && (
          <span className="badge badge--accent" data-testid="inbox-badge" data-count={unseen}>
            {formatCount(unseen)}
            <span className="sr-only"> not seen yet</span>
          </span>
        )}
      </a>
      {open && (
        <WatchDialog
          projectId={projectId}
          projectName={summary.name}
          watch={watch}
          onClose={() => setOpen(false)}
          onChanged={(next) => {
            setSaved({ watch: next, over: summary });
            setOpen(false);
          }}
        />
      )}
    </div>
  );
}
