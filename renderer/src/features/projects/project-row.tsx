import { useState, type KeyboardEvent } from 'react';
import type { ProjectSummary } from '../../../../shared/contract';
import { routeToHash } from '../../navigation/route';
import { Button } from '../../ui/button';
import { formatCount, formatDateTime } from '../../ui/format';
import { unseenWords } from '../changes/change-text';
import { useInboxCount } from '../changes/use-inbox';
import { scheduleWords, watchLine } from '../changes/watch-text';
import { jobChangeSummary } from '../review/job-change-labels';
import { useChangedCount } from './changed-count';
import { projectOpenScreen, toReviewCount } from './open-screen';

interface ProjectRowProps {
  project: ProjectSummary;
  onRename: (name: string) => Promise<boolean>;
  onDelete: () => void;
}

export function ProjectRow({ project, onRename, onDelete }: ProjectRowProps) {
  const [renaming, setRenaming] = useState(false);
  const changed = useChangedCount(project.id, project.changedAtLastRefresh);
  const inbox = useInboxCount(project.id, project.kind === 'match' && project.lastRefreshAt !== null);
  const unseen = inbox.value?.unseen ?? 0;
  const [name, setName] = useState(project.name);
  const [saving, setSaving] = useState(false);

  const save = async () => {
    const trimmed = name.trim();
    if (trimmed === '' || trimmed === project.name) {
      setRenaming(false);
      setName(project.name);
      return;
    }
    setSaving(true);
    const ok = await onRename(trimmed);
    setSaving(false);
    if (ok) setRenaming(false);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Enter') {
      event.preventDefault();
      void save();
    } else if (event.key === 'Escape') {
      event.preventDefault();
      setName(project.name);
      setRenaming(false);
    }
  };

  const openHref = routeToHash({ screen: projectOpenScreen(project), projectId: project.id });
  return (
    <tr data-testid="project-row">
      <th scope="row" className="project-name">
        {renaming ? (
          <input
            className="inline-input"
            value={name}
            onChange={(event) => setName(event.target.value)}
            onKeyDown={onKeyDown}
            onBlur={() => void save()}
            aria-label={`New name for ${project.name}`}
            disabled={saving}
            autoFocus
          />
        ) : (
          <a href={openHref}>{project.name}</a>
        )}
        {project.sourceName && <span className="project-name__source">{project.sourceName}</span>}
        {project.matched > 0 && (
          <span className="project-name__jobs" data-testid="project-job-changes" title={project.lastRefreshAt ? `Last refreshed ${formatDateTime(project.lastRefreshAt)}` : undefined}>
            Now: {jobChangeSummary(project.jobChanges, formatCount)}
            {project.lastRefreshAt && (changed === null ? ' · counting the rows changed at last refresh…' : ` · ${formatCount(changed)} changed at last refresh`)}
          </span>
        )}
        {project.watch && (
          <span className={`project-name__watch ${project.watch.blocked ? 'text-danger' : ''}`} data-testid="project-watch" title={scheduleWords(project.watch)}>
            Watched: {watchLine(project.watch)}
            {project.watch.blocked && ` · blocked: ${project.watch.blocked}`}
          </span>
        )}
        {unseen > 0 && (
          <a className="project-name__inbox" href={routeToHash({ screen: 'changes', projectId: project.id })} data-testid="project-inbox" data-count={unseen}>
            <span className="badge badge--accent">{formatCount(unseen)}</span> {unseenWords(unseen, inbox.value?.important ?? 0)}
          </a>
        )}
      </th>
      <td className="num">{formatCount(project.rowCount)}</td>
      <td className="num">{formatCount(project.matched)}</td>
      <td className="num">{formatCount(toReviewCount(project))}</td>
      <td>{formatDateTime(project.updatedAt)}</td>
      <td>
        <div className="row-actions">
          <a className="button button--secondary button--small" href={openHref} aria-label={`Open ${project.name}`}>
            Open
          </a>
          <Button small onClick={() => setRenaming(true)} disabled={renaming} aria-label={`Rename ${project.name}`}>
            Rename
          </Button>
          <Button small variant="danger" onClick={onDelete} aria-label={`Delete ${project.name}`}>
            Delete
          </Button>
        </div>
      </td>
    </tr>
  );
}
