import { useCallback, useEffect, useRef, useState } from 'react';
import type { ContractError } from '../../../shared/contract';
import { toContractError } from './contract-error';

interface Loaded<T> {
  key: string;
  version: number;
  value: T | undefined;
  error: ContractError | null;
}

export interface EngineData<T> {
  /** The latest value for this key; kept while a reload is in flight so the screen does not flash. */
  value: T | undefined;
  error: ContractError | null;
  loading: boolean;
  reload(): void;
  /** Replace the value with one a call just returned (e.g. after a save). */
  setValue(value: T): void;
}

/** Loads engine data for `key` (null = not yet), again whenever the key changes or `reload` is called. */
export function useEngineData<T>(key: string | null, load: () => Promise<T>): EngineData<T> {
  const loadRef = useRef(load);
  useEffect(() => {
    loadRef.current = load;
  });
  const [version, setVersion] = useState(0);
  const [loaded, setLoaded] = useState<Loaded<T> | null>(null);

  useEffect(() => {
    if (key === null) return;
    let live = true;
    loadRef.current().then(
      (value) => {
        if (live) setLoaded({ key, version, value, error: null });
      },
      (thrown: unknown) => {
        if (live) setLoaded((previous) => ({ key, version, value: previous?.key === key ? previous.value : undefined, error: toContractError(thrown) }));
      },
    );
    return () => {
      live = false;
    };
  }, [key, version]);

  const reload = useCallback(() => setVersion((v) => v + 1), []);
  const setValue = useCallback((value: T) => setLoaded((previous) => ({ key: previous?.key ?? key ?? '', version: previous?.version ?? 0, value, error: null })), [key]);

  const sameKey = loaded !== null && loaded.key === key;
  return {
    value: sameKey ? loaded.value : undefined,
    error: sameKey && loaded.version === version ? loaded.error : null,
    loading: key !== null && !(sameKey && loaded.version === version),
    reload,
    setValue,
  };
}
