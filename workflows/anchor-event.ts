import { defineQuery, proxyActivities, setHandler } from '@temporalio/workflow';
import type { Activities } from '../activities/index.ts';
import {
  ANCHOR_PROGRESS_QUERY,
  type AnchorEventInput,
  type AnchorEventProgress,
  type AnchorEventResult,
} from '../src/processes/anchor-event.ts';
import { chainStep, recordingRound } from './activity-options.ts';
import { recordUntilDone } from './record-until-done.ts';

export const anchorProgressQuery = defineQuery<AnchorEventProgress>(ANCHOR_PROGRESS_QUERY);

const chain = proxyActivities<Activities>(chainStep());
const recording = proxyActivities<Activities>(recordingRound());

/**
 * Anchors one supply-chain event (id `anchor-event:{env}:{eventId}`):
 * 1. logEventOnChain — `logEvent(tokenId, action, dataHash)` on the contract, at most once;
 * 2. recordEventAnchor — transaction hash and block on the row, the action's webhook to the outbox. Once the
 *    event is on chain this is never given up: failed rounds flag the workflow (`DppAttention =
 *    "record_failed"`, `attention` in the progress query) and it retries every 10 minutes, or at once on the
 *    `retryRecording` signal, until recorded (record-until-done.ts).
 */
export async function anchorSupplyChainEvent(input: AnchorEventInput): Promise<AnchorEventResult> {
  let progress: AnchorEventProgress = { step: 'anchoring' };
  setHandler(anchorProgressQuery, () => progress);

  const mined = await chain.logEventOnChain(input);
  progress = { step: 'recording', transactionHash: mined.transactionHash };
  await recordUntilDone(
    () => recording.recordEventAnchor({ ...input, ...mined }),
    (attention) => {
      progress = { step: 'recording', transactionHash: mined.transactionHash, attention };
    },
  );
  progress = { step: 'done', transactionHash: mined.transactionHash };
  return { eventId: input.eventId, ...mined };
}
