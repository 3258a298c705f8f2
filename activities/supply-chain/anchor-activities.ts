import { ApplicationFailure } from '@temporalio/activity';
import { findLoggedEvent } from '../../src/lifecycle/supply-chain/find-anchor.ts';
import { findPassport } from '../../src/lifecycle/supply-chain/log-event.ts';
import { findEvent, recordEventAnchor } from '../../src/lifecycle/supply-chain/record-anchor.ts';
import type { TenantScope } from '../../src/platform/db/tenant-scope.ts';
import type { AnchorEventInput } from '../../src/processes/anchor-event.ts';
import { runChainWrite } from '../chain-write.ts';
import { type EnvironmentDeps, scopedFor } from '../deps.ts';

/** Activities of the anchor workflow. Each one is safe to run again after a crash. */
export function anchorActivities(deps: EnvironmentDeps) {
  const scoped = (scope: TenantScope) => scopedFor(deps, scope);

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
      const dataHash = event.dataHash;
      if (!dataHash) throw ApplicationFailure.nonRetryable(`event ${event.id} has no data hash`);
      const passport = await findPassport(em, event.tokenId);
      return runChainWrite(deps.chain.writer, async (write) => {
        const earlier = await write.earlierTransaction();
        if (earlier) {
          return {
            transactionHash: earlier,
            blockNumber: (await deps.chain.writer.waitForTransaction(earlier)).blockNumber,
          };
        }
        const logged = await findLoggedEvent(deps.chain.reader, {
          tokenId: event.tokenId,
          dataHash,
          fromBlock: passport.mintBlock,
        });
        if (logged) return logged;
        const result = await deps.chain.writer.logEvent(
          { tokenId: event.tokenId, action: event.action, dataHash },
          { onSubmitted: write.submitted },
        );
        return { transactionHash: result.txHash, blockNumber: result.blockNumber };
      });
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
