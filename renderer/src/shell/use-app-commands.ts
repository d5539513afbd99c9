import { useEffect, useRef } from 'react';
import { api } from '../api';
import { useImport } from '../features/import-mapping/import-context';
import { projectIdOf, type Route } from '../navigation/route';
import { useRoute } from '../navigation/use-route';
import { useToast } from '../ui/toasts';

/** The app menu (File > New from file…, File > Export…) does what the matching buttons do. */
export function useAppCommands(shown: Route | null): void {
  const { importReference } = useImport();
  const { navigate } = useRoute();
  const toast = useToast();
  const latest = useRef({ shown, importReference, navigate, toast });
  useEffect(() => {
    latest.current = { shown, importReference, navigate, toast };
  });

  useEffect(
    () =>
      api.on('app.command', (command) => {
        const { shown: route, importReference: importFile, navigate: go, toast: say } = latest.current;
        if (command.command === 'open-file') {
          void importFile(command.file);
          return;
        }
        const projectId = route ? projectIdOf(route) : null;
        if (projectId === null) say('Open a project first, then export it.', 'warning');
        else go({ screen: 'export', projectId });
      }),
    [],
  );
}
