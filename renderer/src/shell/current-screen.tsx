import { AccountScreen } from '../features/account/account-screen';
import { ChangesScreen } from '../features/changes/changes-screen';
import { ExportScreen } from '../features/export/export-screen';
import { MappingScreen } from '../features/import-mapping/mapping-screen';
import { ProjectsScreen } from '../features/projects/projects-screen';
import { ReviewScreen } from '../features/review/review-screen';
import { RunScreen } from '../features/run/run-screen';
import { SearchScreen } from '../features/search/search-screen';
import { SettingsScreen } from '../features/settings/settings-screen';
import type { Route } from '../navigation/route';

export function CurrentScreen({ route }: { route: Route }) {
  switch (route.screen) {
    case 'projects':
      return <ProjectsScreen />;
    case 'account':
      return <AccountScreen />;
    case 'settings':
      return <SettingsScreen />;
    case 'search':
      return <SearchScreen searchId={route.searchId} />;
    case 'mapping':
      return <MappingScreen key={route.projectId} projectId={route.projectId} />;
    case 'run':
      return <RunScreen key={route.projectId} projectId={route.projectId} />;
    case 'review':
      return <ReviewScreen key={route.projectId} projectId={route.projectId} />;
    case 'export':
      return <ExportScreen key={route.projectId} projectId={route.projectId} />;
    case 'changes':
      return <ChangesScreen key={route.projectId} projectId={route.projectId} />;
  }
}
