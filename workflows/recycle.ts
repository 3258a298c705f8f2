import { defineQuery, proxyActivities, setHandler } from '@temporalio/workflow';
import type { Activities } from '../activities/index.ts';
import { chainStep, databaseStep } from './activity-options.ts';
import {
  RECYCLE_PROGRESS_QUERY,
  type RecycleInput,
  type RecycleProgress,
  type RecycleResult,
} from './recycle-types.ts';

export const recycleProgressQuery = defineQuery<RecycleProgress>(RECYCLE_PROGRESS_QUERY);

const database = proxyActivities<Activities>(databaseStep());

const chain = proxyActivities<Activities>(chainStep(['AlreadyRecycled']));

/**
 * Recycles one passport (id `recycle:{env}:{tokenId}`):
 * 1. recycleOnChain — release the circular deposit to the reward receiver, wait for confirmation;
 * 2. recordRecycle — RECYCLE_TRANSFER event, passport RECYCLED, asset.recycled to the outbox.
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
  await database.recordRecycle({ ...input, ...released });

  progress = { step: 'done', transactionHash: released.transactionHash };
  return {
    tokenId: input.tokenId,
    transactionHash: released.transactionHash,
    rewardReceiver: released.rewardReceiver,
    releasedWei: released.amountWei,
    status: 'RECYCLED',
  };
}
