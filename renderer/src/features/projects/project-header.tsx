import type { ProjectSummary } from '../../../../shared/contract';
import { routeToHash, type ProjectScreen } from '../../navigation/route';
import { plural } from '../../ui/format';
import { ProjectWatchBar } from '../changes/project-watch-bar';

const STEPS: { screen: ProjectScreen; label: string }[] = [
  { screen: 'mapping', label: 'Columns' },
  { screen: 'run', label: 'Preview and run' },
  { screen: 'review', label: 'Review' },
  { screen: 'export', label: 'Export' },
];

interface ProjectHeaderProps {
  projectId: number;
  current: ProjectScreen;
  summary: ProjectSummary | undefined;
  title: string;
}

/** The project's name and its steps; each screen's own title is the page heading. */
export function ProjectHeader({ projectId, current, summary, title }: ProjectHeaderProps) {
  return (
    <header className="screen__header project-header">
      <div className="project-header__top">
        <div>
          <div className="project-header__crumbs">
            <p className="project-header__project">
              <a href={routeToHash({ screen: 'projects' })}>Projects</a> <span aria-hidden="true">/</span> {summary ? summary.name : '…'}
              {summary && <span className="muted"> · {plural(summary.rowCount, 'row')}</span>}
            </p>
            <ProjectWatchBar projectId={projectId} summary={summary} onChanges={current === 'changes'} />
          </div>
          <h1 tabIndex={-1}>{title}</h1>
        </div>
        <nav aria-label="Project steps">
          <ol className="steps">
            {STEPS.map((step, index) => (
              <li key={step.screen}>
                <a className="steps__link" href={routeToHash({ screen: step.screen, projectId })} aria-current={step.screen === current ? 'step' : undefined}>
                  <span className="steps__number" aria-hidden="true">
                    {index + 1}
                  </span>
                  {step.label}
                </a>
              </li>
            ))}
          </ol>
        </nav>
      </div>
    </header>
  );
}
