export type { Database } from 'better-sqlite3';
export { openDatabase, type OpenDatabaseOptions } from './open-database';
export { migrate, schemaVersion, latestVersion, type MigrationOutcome } from './migrate';
export type { Migration } from './migration';
export { ALL_MIGRATIONS } from './migrations';
export { DatabaseTooNew, DatabaseUnreadable, DatabaseNeedsUpgrade, MigrationFailed, InvalidSetting, isDiskFull, stopReason } from './errors';
export { listProfiles, getProfile, saveProfile, deleteProfile } from './profiles';
export { getSettings, updateSettings } from './settings';
export { queryKey, queryKeys, getLookups, getAnswerFacts, putLookups, cacheStats, clearCache, type Lookup, type LookupError, type AnswerFacts, type CacheStats } from './lookups';
