import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities/index.ts';
import type { AnchorEventInput, AnchorEventResult } from './anchor-event-types.ts';

const database = proxyActivities<Activities>({
  startToCloseTimeout: '30 seconds',
  retry: {
    initialInterval: '1 second',
    maximumInterval: '30 seconds',
    maximumAttempts: 10,
    nonRetryableErrorTypes: ['DomainError'],
  },
});

// Heartbeats while waiting for the receipt, so a worker that dies mid-transaction is noticed in seconds.
const chain = proxyActivities<Activities>({
  startToCloseTimeout: '3 minutes',
  heartbeatTimeout: '10 seconds',
  retry: {
    initialInterval: '2 seconds',
    maximumInterval: '1 minute',
    maximumAttempts: 20,
    nonRetryableErrorTypes: ['ChainRejected', 'DomainError'],
  },
});

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
