import { createContext, useCallback, useContext, useEffect, useState, type ReactNode } from 'react';
import type { AppInfo, ContractError } from '../../shared/contract';
import type { Profile, Settings } from '../../shared/model';
import { api } from './api';
import { toContractError } from './ui/contract-error';

/** What every screen may need to know about the app: where it runs, the saved profiles and the settings. */
export interface AppData {
  info: AppInfo | null;
  profiles: Profile[] | null;
  settings: Settings | null;
  error: ContractError | null;
  refresh(): void;
  setSettings(settings: Settings): void;
}

const AppDataContext = createContext<AppData | null>(null);

export function AppDataProvider({ children }: { children: ReactNode }) {
  const [info, setInfo] = useState<AppInfo | null>(null);
  const [profiles, setProfiles] = useState<Profile[] | null>(null);
  const [settings, setSettings] = useState<Settings | null>(null);
  const [error, setError] = useState<ContractError | null>(null);
  const [version, setVersion] = useState(0);

  useEffect(() => {
    let live = true;
    Promise.all([api.callOrThrow('app.info', {}), api.callOrThrow('profiles.list', {}), api.callOrThrow('settings.get', {})]).then(
      ([nextInfo, nextProfiles, nextSettings]) => {
        if (!live) return;
        setInfo(nextInfo);
        setProfiles(nextProfiles);
        setSettings(nextSettings);
        setError(null);
      },
      (thrown: unknown) => {
        if (live) setError(toContractError(thrown));
      },
    );
    return () => {
      live = false;
    };
  }, [version]);

  const refresh = useCallback(() => setVersion((v) => v + 1), []);

  return <AppDataContext value={{ info, profiles, settings, error, refresh, setSettings }}>{children}</AppDataContext>;
}

export function useAppData(): AppData {
  const value = useContext(AppDataContext);
  if (!value) throw new Error('useAppData needs an AppDataProvider');
  return value;
}

export function activeProfile(data: Pick<AppData, 'profiles' | 'settings'>): Profile | null {
  const id = data.settings?.activeProfileId;
  return data.profiles?.find((profile) => profile.id === id) ?? null;
}
