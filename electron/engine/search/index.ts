// Criteria search: filters normalized and validated, long value lists split, pages stored as they land,
// results cached, the satisfying job found locally, and exports.
export { createSearchHandlers, type SearchContext, type SearchHandlers } from './search-handlers';
export { SearchRunner, personIdOf } from './search-runner';
export { normalizeFilters, normalizeValue, normalizeValues, companySlugFromText, type ValueResult } from './filter-values';
export { splitRequest, DEFAULT_CHUNK_SIZE, MAX_SPLIT_CALLS, TooManyCalls } from './split-request';
export { satisfyingJob, personMatches, fuzzyMatch } from './local-filters';
export { canonicalFilters, searchRequestKey, searchFiltersKey } from './request-key';
export { columnValues, type ColumnSource } from './column-values';
export { exportHeaders, exportRow } from './export-rows';
export { searchName } from './search-name';
