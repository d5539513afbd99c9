// The profiles.* and settings.* calls: the connections to the service and the app's settings.
import type { Database } from 'better-sqlite3';
import type { Handlers } from '../dispatch';
import { listProfiles } from '../store';
import type { Connections } from './connections';

export function createProfileHandlers(db: Database, connections: Connections): Handlers {
  return {
    'profiles.list': () => listProfiles(db),
    'profiles.save': (input) => connections.save(input),
    'profiles.test': (input) => connections.test(input.id),
    'profiles.remove': (input) => connections.remove(input.id),
    'profiles.select': (input) => connections.select(input.id, input.forThisSession),
    'settings.get': () => connections.settings(),
    'settings.update': (input) => connections.updateSettings(input),
  };
}
