import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities/index.ts';
import type { AnchorEventInput, AnchorEventResult } from '../src/processes/anchor-event.ts';
import { chainStep, recordingRound } from './activity-options.ts';
import { anchorThenRecord } from './anchor-steps.ts';

export { anchorProgressQuery } from './anchor-steps.ts';

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
  const mined = await anchorThenRecord(
    () => chain.logEventOnChain(input),
    (logged) => recording.recordEventAnchor({ ...input, ...logged }),
  );
  return { eventId: input.eventId, ...mined };
}
