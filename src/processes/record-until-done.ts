/**
 * Set while a workflow's chain write is done but recording it in the database failed: the workflow keeps
 * retrying (every 10 minutes, or at once on the `retryRecording` signal) until it is recorded.
 */
export interface RecordAttention {
  reason: 'record_failed';
  error: string;
  failedRounds: number;
}

export { RETRY_RECORDING_SIGNAL } from './mint.ts';
