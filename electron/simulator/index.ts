// The local People Data Service simulator's public API.
export {
  startSimulator,
  formatExpiresAt,
  SimulatorOptionsError,
  DEMO_ACCOUNTS,
  DEMO_ORG_ID,
  OTHER_ORG_ID,
  type Simulator,
  type SimulatorOptions,
  type SimulatorCounters,
  type DemoAccounts,
} from './server';
export { runSimulatorCommand, type SimulatorCommandIo } from './cli';
export { moveOn, type MoveOnOptions, type MoveOnReport } from './move-on';
export { HostileRepliesError, resolveHostileReplies, type HostileReplies, type HostileCounters } from './hostile-replies';
export { epochSeed, type EpochOptions, type EpochReport } from './epochs';
export { FAULT_PROFILES, FaultProfileError, resolveFaultProfile, type FaultProfile, type ResolvedFaultProfile } from './faults';
export { FIND_FIELDS, FIND_SHAPES, MAX_PEOPLE_PER_QUERY, MAX_QUERIES_PER_FIND, PeopleIndex, type FindShape, type FindTerm, type FindHit } from './find';
export { SEARCH_FIELDS, DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from './search';
export {
  buildDataset,
  publicPerson,
  JOB_FUNCTIONS,
  JOB_LEVELS,
  type Dataset,
  type Person,
  type Job,
  type Company,
  type Education,
  type LocationDetails,
  type JobFunction,
  type JobLevel,
} from './dataset';
