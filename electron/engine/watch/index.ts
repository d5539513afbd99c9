// Watching projects over time (issue 45): scheduled refreshes, each person's history, changes since any date, rows
// marked important and the changes inbox; the system scheduler's files for `matchdesk refresh --due`.
export { PersonHistoryWriter } from '../rows/person-history';
export { stateOfFacts, stateOfSummary, changeBetween, type PersonState } from '../rows/person-state';
export { WatchControl, type WatchControlDeps } from './watch-control';
export { importantMarks, markColumnValue, markRows } from './important';
export { changesExport } from './changes-export';
