import { defineQuery, patched, proxyActivities, setHandler } from '@temporalio/workflow';
import type { Activities } from '../activities/index.ts';
import {
  ANCHOR_PROGRESS_QUERY,
  type AnchorEventInput,
  type AnchorEventProgress,
  type AnchorEventResult,
} from '../src/processes/anchor-event.ts';
import { chainStep, databaseStep, recordingRound } from './activity-options.ts';
import { recordUntilDone } from './record-until-done.ts';

export const anchorProgressQuery = defineQuery<AnchorEventProgress>(ANCHOR_PROGRESS_QUERY);

const database = proxyActivities<Activities>(databaseStep());
/** Histories from before recording was retried until done gave up after the step's ten attempts; they replay so. */
const RECORD_UNTIL_DONE = 'anchor-record-until-done';
const recording = proxyActivities<Activities>(recordingRound());

const chain = proxyActivities<Activities>(chainStep());

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
  if (patched(RECORD_UNTIL_DONE)) {
    await recordUntilDone(
      () => recording.recordEventAnchor({ ...input, ...mined }),
      (attention) => {
        progress = { step: 'recording', transactionHash: mined.transactionHash, attention };
      },
    );
  } else {
    await database.recordEventAnchor({ ...input, ...mined });
  }
  progress = { step: 'done', transactionHash: mined.transactionHash };
  return { eventId: input.eventId, ...mined };
}
