// Refreshing a project: asking the service again for the people its rows chose.
export { RefreshControl, type RefreshConnection, type RefreshControlDeps } from './refresh-control';
export { markInterruptedRefreshes, latestRefresh } from './refresh-records';
export { refreshedPeople, type RefreshedPerson } from '../rows/refreshed-people';
export { chosenWithFacts } from '../rows/refreshed-choice';
