import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities/index.ts';
import { chainStep, databaseStep } from './activity-options.ts';
import type { AnchorEventInput, AnchorEventResult } from './anchor-event-types.ts';

const database = proxyActivities<Activities>(databaseStep());

const chain = proxyActivities<Activities>(chainStep());

/**
 * Anchors one supply-chain event (id `anchor-event:{env}:{eventId}`):
 * 1. logEventOnChain — `logEvent(tokenId, action, dataHash)` on the contract, at most once;
 * 2. recordEventAnchor — transaction hash and block on the row, the action's webhook to the outbox.
 */
export async function anchorSupplyChainEvent(input: AnchorEventInput): Promise<AnchorEventResult> {
  const mined = await chain.logEventOnChain(input);
  await database.recordEventAnchor({ ...input, ...mined });
  return { eventId: input.eventId, ...mined };
}
