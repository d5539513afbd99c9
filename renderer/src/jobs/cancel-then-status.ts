import type { CallInput, CallName, CallOutput } from '../../../shared/contract';
import { api } from '../api';

/**
 * Cancels work through job.cancel (a run or refresh paused in an earlier session too), then reads its status: the
 * cancel answers once the work has stopped, so the status says how it ended.
 */
export async function cancelThenStatus<K extends CallName>(cancel: CallInput<'job.cancel'>, status: K, input: CallInput<K>): Promise<CallOutput<K>> {
  await api.callOrThrow('job.cancel', cancel);
  return api.callOrThrow(status, input);
}
