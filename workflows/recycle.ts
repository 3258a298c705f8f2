import { defineQuery, proxyActivities, setHandler } from '@temporalio/workflow';
import type { Activities } from '../activities/index.ts';
import {
  RECYCLE_PROGRESS_QUERY,
  type RecycleInput,
  type RecycleProgress,
  type RecycleResult,
} from '../src/processes/recycle.ts';
import { chainStep, recordingRound } from './activity-options.ts';
import { recordUntilDone } from './record-until-done.ts';

export const recycleProgressQuery = defineQuery<RecycleProgress>(RECYCLE_PROGRESS_QUERY);

const chain = proxyActivities<Activities>(chainStep(['AlreadyRecycled']));
const recording = proxyActivities<Activities>(recordingRound());

/**
 * Recycles one passport (id `recycle:{env}:{tokenId}`):
 * 1. recycleOnChain — release the circular deposit to the reward receiver, wait for confirmation;
 * 2. recordRecycle — RECYCLE_TRANSFER event, passport RECYCLED, asset.recycled to the outbox. Once the
 *    deposit is released on chain this is never given up: failed rounds flag the workflow
 *    (`DppAttention = "record_failed"`, `attention` in the progress query) and it retries every 10 minutes, or
 *    at once on the `retryRecording` signal, until recorded (record-until-done.ts).
 * Both steps are idempotent, so a crash anywhere resumes without paying the deposit twice.
 */
export async function recycleTokenPassport(input: RecycleInput): Promise<RecycleResult> {
  let progress: RecycleProgress = { step: 'releasing' };
  setHandler(recycleProgressQuery, () => progress);

  const released = await chain.recycleOnChain({
    tokenId: input.tokenId,
    rewardReceiver: input.rewardReceiver,
    mintBlock: input.mintBlock,
  });

  progress = { step: 'recording', transactionHash: released.transactionHash };
  await recordUntilDone(
    () => recording.recordRecycle({ ...input, ...released }),
    (attention) => {
      progress = { step: 'recording', transactionHash: released.transactionHash, attention };
    },
  );

  progress = { step: 'done', transactionHash: released.transactionHash };
  return {
    tokenId: input.tokenId,
    transactionHash: released.transactionHash,
    rewardReceiver: released.rewardReceiver,
    releasedWei: released.amountWei,
    status: 'RECYCLED',
  };
}
