import type { Migration } from '../migration';
import { profilesSettingsLookups } from './001-profiles-settings-lookups';
import { projectsRunsDecisions } from './002-projects-runs-decisions';
import { searchesAndResults } from './003-searches';
import { reviewTextIndex } from './004-review-text-index';
import { answerDigests } from './005-answer-digests';
import { confidence } from './006-confidence';
import { jobChangeColumn } from './007-job-change';
import { storedJobChange } from './008-stored-job-change';
import { refreshes } from './009-refreshes';
import { queryIds } from './010-query-ids';
import { rowFetchedAt } from './011-row-fetched-at';
import { projectCleanup } from './012-project-cleanup';
import { callTimings } from './013-call-timings';
import { refreshRowsByRow } from './014-refresh-rows-by-row';
import { rowTimings } from './015-row-timings';
import { verdictBasis } from './016-verdict-basis';
import { copiedRowTimings } from './017-copied-row-timings';
import { lookupsByAnswer } from './018-lookups-by-answer';
import { runOptions } from './019-run-options';
import { sheetRowNumbers } from './020-sheet-row-numbers';
import { learnedModels } from './021-learned-models';
import { watchesPersonHistory } from './022-watches-person-history';
import { learnedWeights } from './023-learned-weights';
import { jobs } from './024-jobs';
import { peopleOnce } from './025-people-once';
import { runOptionsInJobs } from './026-run-options-in-jobs';
import { slimRowResults } from './027-slim-row-results';
import { integerQueryIds } from './028-integer-query-ids';
import { packedPersonRecords } from './029-packed-person-records';
import { personBlocks } from './030-person-blocks';
import { queryRemovals } from './031-query-removals';
import { sharedQueries } from './032-shared-queries';
import { personBlocksWithoutSequence } from './033-person-blocks-without-sequence';
import { answersProbedByQuery } from './034-answers-probed-by-query';
import { personVersionsByDigest } from './035-person-versions-by-digest';
import { refreshRowsInRowOrder } from './036-refresh-rows-in-row-order';
import { personRemovals } from './037-person-removals';

/** Every migration, oldest first. Add a new numbered file and append it here; never edit a shipped one. */
export const ALL_MIGRATIONS: readonly Migration[] = [
  profilesSettingsLookups,
  projectsRunsDecisions,
  searchesAndResults,
  reviewTextIndex,
  answerDigests,
  confidence,
  jobChangeColumn,
  storedJobChange,
  refreshes,
  queryIds,
  rowFetchedAt,
  projectCleanup,
  callTimings,
  refreshRowsByRow,
  rowTimings,
  verdictBasis,
  copiedRowTimings,
  lookupsByAnswer,
  runOptions,
  sheetRowNumbers,
  learnedModels,
  watchesPersonHistory,
  learnedWeights,
  jobs,
  peopleOnce,
  runOptionsInJobs,
  slimRowResults,
  integerQueryIds,
  packedPersonRecords,
  personBlocks,
  queryRemovals,
  sharedQueries,
  personBlocksWithoutSequence,
  answersProbedByQuery,
  personVersionsByDigest,
  refreshRowsInRowOrder,
  personRemovals,
];
