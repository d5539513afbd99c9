export { comparable, foldWhitespace, fullNameFrom, normalizeEmail, profileSlugFromUrl } from './normalize';
export type { EmailResult, SlugResult } from './normalize';
export { detectMapping } from './detect';
export type { ColumnGuess } from './detect';
export { plannedQueries, rowInput, rowProblems } from './queries';
export type { PlannedQuery, RowInput } from './queries';
export { summarizePerson } from './person';
export { evidenceFor } from './evidence';
export { autoAcceptable } from './auto-accept';
