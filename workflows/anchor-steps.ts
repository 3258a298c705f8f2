import { defineQuery, setHandler } from '@temporalio/workflow';
import { ANCHOR_PROGRESS_QUERY, type AnchorEventProgress } from '../src/processes/anchor-event.ts';
import { recordUntilDone } from './record-until-done.ts';

export const anchorProgressQuery = defineQuery<AnchorEventProgress>(ANCHOR_PROGRESS_QUERY);

/**
 * The two steps of every anchor workflow (an event's, a level version's), with their progress query
 * (`anchorProgress`): `write` puts the hash on chain (at most once: its activity says how), then `record` notes
 * the transaction in the database. Once on chain the recording is never given up: failed rounds flag the
 * workflow (`DppAttention = "record_failed"`, `attention` in the progress) and it retries until recorded
 * (record-until-done.ts).
 */
export async function anchorThenRecord<T extends { transactionHash: string }>(
  write: () => Promise<T>,
  record: (mined: T) => Promise<unknown>,
): Promise<T> {
  let progress: AnchorEventProgress = { step: 'anchoring' };
  setHandler(anchorProgressQuery, () => progress);

  const mined = await write();
  progress = { step: 'recording', transactionHash: mined.transactionHash };
  await recordUntilDone(
    () => record(mined),
    (attention) => {
      progress = { step: 'recording', transactionHash: mined.transactionHash, attention };
    },
  );
  progress = { step: 'done', transactionHash: mined.transactionHash };
  return mined;
}
