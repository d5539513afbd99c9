import type { ProjectSummary } from '../../../../shared/contract';
import { api } from '../../api';
import { useConfirm } from '../../ui/confirm-dialog';
import { toContractError } from '../../ui/contract-error';
import { ErrorBanner } from '../../ui/error-banner';
import { plural } from '../../ui/format';
import { useEngineData } from '../../ui/use-engine-data';
import { useToast } from '../../ui/toasts';
import { DemoButton } from '../account/demo-button';
import { SavedSearches } from '../search/saved-searches';
import { NewFromFileButton } from './new-from-file-button';
import { ProjectRow } from './project-row';

export function ProjectsScreen() {
  const projects = useEngineData('projects', () => api.callOrThrow('projects.list', {}));
  const confirm = useConfirm();
  const toast = useToast();
  const list = projects.value ?? [];

  const rename = async (project: ProjectSummary, name: string) => {
    try {
      const renamed = await api.callOrThrow('projects.rename', { projectId: project.id, name });
      projects.setValue(list.map((p) => (p.id === renamed.id ? renamed : p)));
      return true;
    } catch (thrown) {
      toast(toContractError(thrown).message, 'error');
      return false;
    }
  };

  const remove = async (project: ProjectSummary) => {
    const sure = await confirm({
      title: `Delete ${project.name}?`,
      message: `The project's ${plural(project.rowCount, 'row')} and every decision in it are deleted. Answers already fetched stay in the cache, so a re-import costs nothing.`,
      confirmLabel: 'Delete project',
      danger: true,
    });
    if (!sure) return;
    try {
      await api.callOrThrow('projects.delete', { projectId: project.id });
      projects.setValue(list.filter((p) => p.id !== project.id));
      toast(`Deleted ${project.name}.`);
    } catch (thrown) {
      toast(toContractError(thrown).message, 'error');
    }
  };

  return (
    <div className="screen projects-screen">
      <header className="screen__header screen__header--row">
        <div>
          <h1 tabIndex={-1}>Projects</h1>
          <p className="screen__lead">Each project is one imported sheet, its matches and your decisions.</p>
        </div>
        <NewFromFileButton />
      </header>
      <ErrorBanner error={projects.error} title="Could not load the projects" onRetry={projects.reload} />

      <div className="drop-hint" aria-hidden="true">
        Drop a CSV, TSV or Excel file anywhere in this window to start a new project.
      </div>

      {projects.value && list.length === 0 && (
        <section className="card empty-state" aria-label="No projects yet">
          <h2>No projects yet</h2>
          <p>Import a sheet with names, e-mails or profile links, or see the whole flow with sample data first.</p>
          <DemoButton large />
        </section>
      )}

      {list.length > 0 && (
        <div className="table-wrap card">
          <table className="table projects-table">
            <caption className="sr-only">Recent projects</caption>
            <thead>
              <tr>
                <th scope="col">Project</th>
                <th scope="col" className="num">
                  Rows
                </th>
                <th scope="col" className="num">
                  Matched
                </th>
                <th scope="col" className="num">
                  To review
                </th>
                <th scope="col">Last change</th>
                <th scope="col">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {list.map((project) => (
                <ProjectRow key={project.id} project={project} onRename={(name) => rename(project, name)} onDelete={() => void remove(project)} />
              ))}
            </tbody>
          </table>
        </div>
      )}
      {projects.loading && !projects.value && <p className="muted">Loading projects…</p>}
      <SavedSearches />
    </div>
  );
}
