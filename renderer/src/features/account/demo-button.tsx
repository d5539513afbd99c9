import { useState } from 'react';
import type { ContractError } from '../../../../shared/contract';
import { api } from '../../api';
import { useAppData } from '../../app-data';
import { useRoute } from '../../navigation/use-route';
import { Button } from '../../ui/button';
import { toContractError } from '../../ui/contract-error';
import { ErrorBanner } from '../../ui/error-banner';

/** Starts the built-in practice service and imports the sample sheet, then opens its mapping. */
export function DemoButton({ large = false }: { large?: boolean }) {
  const { navigate } = useRoute();
  const { refresh } = useAppData();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ContractError | null>(null);

  const start = async () => {
    setBusy(true);
    setError(null);
    try {
      const { project } = await api.callOrThrow('demo.start', {});
      refresh();
      navigate({ screen: 'mapping', projectId: project.id });
    } catch (thrown) {
      setError(toContractError(thrown));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="demo-button">
      <Button variant="primary" className={large ? 'button--large' : ''} busy={busy} onClick={start} data-testid="demo-start">
        {busy ? 'Starting the demo…' : 'Try with demo data'}
      </Button>
      <ErrorBanner error={error} title="The demo could not start" onDismiss={() => setError(null)} />
    </div>
  );
}
