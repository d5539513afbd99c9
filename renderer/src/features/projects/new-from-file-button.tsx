import { useRef, useState } from 'react';
import { api } from '../../api';
import { Button } from '../../ui/button';
import { toContractError } from '../../ui/contract-error';
import { useToast } from '../../ui/toasts';
import { useImport } from '../import-mapping/import-context';
import { SHEET_ACCEPT } from '../import-mapping/sheet-file';

/** The native open dialog where the host has one (Electron), a file input where it does not (browser). */
export function NewFromFileButton({ variant = 'primary' }: { variant?: 'primary' | 'secondary' }) {
  const { importFile, importReference, state } = useImport();
  const toast = useToast();
  const input = useRef<HTMLInputElement>(null);
  const [asking, setAsking] = useState(false);

  const open = async () => {
    setAsking(true);
    try {
      const answer = await api.callOrThrow('dialog.openSheet', {});
      if (!answer.supported) input.current?.click();
      else if (answer.file) await importReference(answer.file);
    } catch (thrown) {
      toast(toContractError(thrown).message, 'error');
    } finally {
      setAsking(false);
    }
  };

  return (
    <>
      <Button variant={variant} busy={asking || state.status === 'importing'} onClick={open} data-testid="new-from-file">
        New from file…
      </Button>
      <input
        ref={input}
        type="file"
        accept={SHEET_ACCEPT}
        hidden
        aria-label="Choose a sheet to import"
        data-testid="file-input"
        onChange={(event) => {
          const file = event.currentTarget.files?.[0];
          event.currentTarget.value = '';
          if (file) void importFile(file);
        }}
      />
    </>
  );
}
