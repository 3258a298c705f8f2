import { Context } from '@temporalio/activity';
import { getAddress } from 'ethers';
import { isChainRevert } from '../../src/adapters/chain/errors.ts';
import { findClaim } from '../../src/lifecycle/resale/find-claim.ts';
import { claimAsBuyer } from '../../src/lifecycle/resale/sponsored-claim.ts';
import { runChainWrite } from '../chain-write.ts';
import type { EnvironmentDeps } from '../deps.ts';

/** Heartbeats every 2 s while `run` waits (as runChainWrite does), so a dead worker is noticed in seconds. */
async function heartbeating<T>(run: () => Promise<T>): Promise<T> {
  const context = Context.current();
  const timer = setInterval(() => context.heartbeat(), 2_000);
  try {
    return await run();
  } finally {
    clearInterval(timer);
  }
}

/** The resale's chain writes, all sent with the platform admin key. Each one is safe to run again. */
export function resaleChainActivities(deps: EnvironmentDeps) {
  const authorize = (tokenId: string, account: string) =>
    runChainWrite(deps.chain.writer, async (write) => {
      const earlier = await write.earlierTransaction();
      if (earlier) {
        const mined = await deps.chain.writer.waitForTransaction(earlier);
        return { transactionHash: earlier, blockNumber: mined.blockNumber };
      }
      // Authorizing the same account again is harmless on chain; a retry without a known hash simply does.
      const result = await deps.chain.writer.authorizeClaim(
        { tokenId, account },
        { onSubmitted: write.submitted },
      );
      return { transactionHash: result.txHash, blockNumber: result.blockNumber };
    });

  return {
    /** authorizeClaim to the platform admin: the delegation a release starts with. */
    async delegateToPlatform(input: { tokenId: string }) {
      return authorize(input.tokenId, deps.chain.signerAddress);
    },

    /** authorizeClaim to `account` (the paying buyer's wallet). */
    async authorizeClaimOnChain(input: { tokenId: string; account: string }) {
      return authorize(input.tokenId, input.account);
    },

    /** revokeClaim; nothing to revoke (already revoked, or the token moved on) is done too. */
    async revokeClaimOnChain(input: { tokenId: string }): Promise<{ revokeTxHash: string | null }> {
      return runChainWrite(deps.chain.writer, async (write) => {
        const earlier = await write.earlierTransaction();
        if (earlier) return { revokeTxHash: earlier };
        if ((await deps.chain.reader.claimantOf(input.tokenId)) === null) return { revokeTxHash: null };
        try {
          const result = await deps.chain.writer.revokeClaim(input.tokenId, { onSubmitted: write.submitted });
          return { revokeTxHash: result.txHash };
        } catch (error) {
          if (isChainRevert(error, 'NoClaimAuthorized')) return { revokeTxHash: null };
          throw error;
        }
      });
    },

    /**
     * The buyer's claim. With smart accounts (deps.smartAccounts): a sponsored user operation of the buyer's
     * account through the bundler (recorded once, src/adapters/bundler/sponsored-operations.ts). Otherwise, and
     * for resales that named a bare derived address: claimOwnershipFor, relayed by the platform. A retry after
     * the transfer went through finds its OwnershipClaimed event instead of failing on the cleared authorization.
     */
    async claimOnChain(input: { tokenId: string; buyerWallet: string; sinceBlock: number }) {
      const buyer = getAddress(input.buyerWallet);
      const claimedEarlier = async () => {
        if (getAddress(await deps.chain.reader.ownerOf(input.tokenId)) !== buyer) return undefined;
        return findClaim(deps.chain.reader, input.tokenId, buyer, input.sinceBlock);
      };
      const accounts = deps.smartAccounts;
      const asBuyer =
        accounts && !(await claimedEarlier())
          ? await heartbeating(() =>
              claimAsBuyer(
                {
                  em: deps.orm.em.fork(),
                  reader: deps.chain.reader,
                  operations: accounts.operations,
                  walletMasterSecret: accounts.walletMasterSecret,
                },
                { environment: deps.environment, tokenId: input.tokenId, buyerWallet: buyer },
              ),
            )
          : undefined;
      if (asBuyer) {
        const claim = await findClaim(deps.chain.reader, input.tokenId, buyer, asBuyer.blockNumber);
        if (!claim) throw new Error(`user operation ${asBuyer.userOpHash} left no OwnershipClaimed event`);
        return {
          transactionHash: claim.transactionHash,
          blockNumber: claim.blockNumber,
          from: getAddress(claim.from),
          claimedAt: await deps.chain.reader.blockTime(claim.blockNumber),
        };
      }
      const result = await runChainWrite(deps.chain.writer, async (write) => {
        const earlier = await write.earlierTransaction();
        if (earlier) await deps.chain.writer.waitForTransaction(earlier);
        const found = await claimedEarlier();
        if (found) return found;
        const sent = await deps.chain.writer.claimOwnershipFor(
          { tokenId: input.tokenId, account: buyer },
          { onSubmitted: write.submitted },
        );
        return { transactionHash: sent.txHash, blockNumber: sent.blockNumber, from: sent.from, to: sent.to };
      });
      return {
        transactionHash: result.transactionHash,
        blockNumber: result.blockNumber,
        from: getAddress(result.from),
        claimedAt: await deps.chain.reader.blockTime(result.blockNumber),
      };
    },
  };
}
