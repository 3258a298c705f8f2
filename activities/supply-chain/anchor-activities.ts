import { ApplicationFailure, Context } from '@temporalio/activity';
import { isChainRevert } from '../../src/chain/errors.ts';
import { scopedEntityManager, type TenantScope } from '../../src/db/tenant-scope.ts';
import { findLoggedEvent } from '../../src/supply-chain/find-anchor.ts';
import { findPassport } from '../../src/supply-chain/log-event.ts';
import { findEvent, recordEventAnchor } from '../../src/supply-chain/record-anchor.ts';
import type { AnchorEventInput } from '../../workflows/anchor-event-types.ts';
import type { EnvironmentDeps } from '../deps.ts';

/** Activities of the anchor workflow. Each one is safe to run again after a crash. */
export function anchorActivities(deps: EnvironmentDeps) {
  const scoped = (scope: TenantScope) => {
    if (scope.environment !== deps.environment) {
      throw ApplicationFailure.nonRetryable(
        `task for ${scope.environment} reached the ${deps.environment} worker`,
      );
    }
    return scopedEntityManager(deps.orm.em, scope);
  };

  return {
    /**
     * Logs the event's data hash on chain once: a row already anchored, a heartbeated transaction or a
     * SupplyChainEvent log with the same data hash (all from earlier attempts) is reused, never sent again.
     */
    async logEventOnChain(input: AnchorEventInput) {
      const em = scoped(input.scope);
      const event = await findEvent(em, input.eventId);
      if (event.transactionHash && event.blockNumber !== null && event.blockNumber !== undefined) {
        return { transactionHash: event.transactionHash, blockNumber: event.blockNumber };
      }
      if (!event.dataHash) throw ApplicationFailure.nonRetryable(`event ${event.id} has no data hash`);
      const passport = await findPassport(em, event.tokenId);
      const context = Context.current();
      const sentBefore = context.info.heartbeatDetails as { transactionHash?: string } | undefined;
      let details: { transactionHash?: string } = sentBefore ?? {};
      const beat = setInterval(() => context.heartbeat(details), 2_000);
      try {
        if (sentBefore?.transactionHash) {
          const outcome = await deps.chain.getTransactionOutcome(sentBefore.transactionHash);
          if (outcome.status === 'mined' || outcome.status === 'pending') {
            const mined = await deps.chain.waitForTransaction(sentBefore.transactionHash);
            return { transactionHash: sentBefore.transactionHash, blockNumber: mined.blockNumber };
          }
        }
        const logged = await findLoggedEvent(deps.chain, {
          tokenId: event.tokenId,
          dataHash: event.dataHash,
          fromBlock: passport.mintBlock,
        });
        if (logged) return logged;
        const result = await deps.chain.logEvent(
          { tokenId: event.tokenId, action: event.action, dataHash: event.dataHash },
          {
            onSubmitted: (transactionHash) => {
              details = { transactionHash };
              context.heartbeat(details);
            },
          },
        );
        return { transactionHash: result.txHash, blockNumber: result.blockNumber };
      } catch (error) {
        if (isChainRevert(error)) {
          throw ApplicationFailure.create({
            message: error.message,
            type: 'ChainRejected',
            nonRetryable: true,
          });
        }
        throw error;
      } finally {
        clearInterval(beat);
      }
    },

    /** Transaction hash, block and contract on the row, and the action's webhook, in one transaction. */
    async recordEventAnchor(input: AnchorEventInput & { transactionHash: string; blockNumber: number }) {
      await recordEventAnchor(scoped(input.scope), input.scope, input.eventId, {
        transactionHash: input.transactionHash,
        blockNumber: input.blockNumber,
        contractAddress: deps.chain.contractAddress,
      });
    },
  };
}
