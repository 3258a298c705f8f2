import type { Duration } from '@temporalio/common';
import { condition, defineSignal, setHandler, upsertSearchAttributes } from '@temporalio/workflow';
import { RETRY_RECORDING_SIGNAL } from '../src/processes/mint.ts';
import type { RecordAttention } from '../src/processes/record-until-done.ts';
import { searchAttributes } from '../src/processes/search-attributes.ts';

export const retryRecordingSignal = defineSignal(RETRY_RECORDING_SIGNAL);

/**
 * How long a workflow whose recording failed waits before its next round (unless signalled): soon after the
 * first failures (a database restart or failover passes in seconds), then less and less often, at most every
 * RECORD_RETRY_INTERVAL while the fault lasts.
 */
export const RECORD_RETRY_INTERVAL: Duration = '10 minutes';
const RECORD_RETRY_WAITS: readonly Duration[] = ['20 seconds', '1 minute', '2 minutes', '5 minutes'];

export function recordRetryWait(failedRounds: number): Duration {
  return RECORD_RETRY_WAITS[failedRounds - 1] ?? RECORD_RETRY_INTERVAL;
}

/** The message of the innermost cause: an activity failure's own message only says that the activity failed. */
function rootMessage(error: unknown): string {
  let current = error as { message?: string; cause?: unknown } | undefined;
  while (current?.cause && typeof current.cause === 'object') current = current.cause as typeof current;
  return current?.message ?? String(error);
}

/**
 * Recording what is already on chain must never be given up: the chain and the database would disagree for
 * good (no webhook, no follow-up). `recordUntilDone` runs `record` (one round: an activity with a few quick
 * attempts) until it succeeds. After a failed round the workflow flags itself for operators
 * (`DppAttention = "record_failed"`, and `onAttention` with the error for its progress query) and waits
 * (recordRetryWait), or until the `retryRecording` signal, before the next round; once recorded the flag
 * is removed. Call it once per workflow run (it installs the signal handler).
 */
export async function recordUntilDone<T>(
  record: () => Promise<T>,
  onAttention: (attention: RecordAttention | undefined) => void,
): Promise<T> {
  let retryRequested = false;
  setHandler(retryRecordingSignal, () => {
    retryRequested = true;
  });
  for (let failedRounds = 1; ; failedRounds++) {
    try {
      const recorded = await record();
      if (failedRounds > 1) {
        upsertSearchAttributes([{ key: searchAttributes.attention, value: null }]);
        onAttention(undefined);
      }
      return recorded;
    } catch (error) {
      onAttention({ reason: 'record_failed', error: rootMessage(error), failedRounds });
      if (failedRounds === 1)
        upsertSearchAttributes([{ key: searchAttributes.attention, value: 'record_failed' }]);
      await condition(() => retryRequested, recordRetryWait(failedRounds));
      retryRequested = false;
    }
  }
}
