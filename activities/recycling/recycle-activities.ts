import { ApplicationFailure } from '@temporalio/activity';
import { formatEther, getAddress } from 'ethers';
import { isChainRevert } from '../../src/adapters/chain/errors.ts';
import { findRecycle, type RecycleRecord } from '../../src/lifecycle/recycling/find-recycle.ts';
import { recordRecycle } from '../../src/lifecycle/recycling/record-recycle.ts';
import type { RecycleInput } from '../../src/processes/recycle.ts';
import { runChainWrite } from '../chain-write.ts';
import { type EnvironmentDeps, scopedFor } from '../deps.ts';

export interface ReleasedDeposit {
  transactionHash: string;
  blockNumber: number;
  rewardReceiver: string;
  amountWei: string;
  recycledAt: string;
}

/** Activities of the recycle workflow. Each one is safe to run again after a crash. */
export function recycleActivities(deps: EnvironmentDeps) {
  const released = async (record: RecycleRecord): Promise<ReleasedDeposit> => {
    return {
      transactionHash: record.transactionHash,
      blockNumber: record.blockNumber,
      rewardReceiver: getAddress(record.rewardReceiver),
      amountWei: record.amountWei.toString(),
      recycledAt: await deps.chain.reader.blockTime(record.blockNumber),
    };
  };
  // The recycle on chain is found by its Recycled event once its transaction is final.
  const recycledOnChain = async (tokenId: string, mintBlock: number, transactionHash?: string) => {
    if (transactionHash) await deps.chain.writer.waitForTransaction(transactionHash);
    const record = await findRecycle(deps.chain.reader, tokenId, mintBlock);
    return record ? released(record) : null;
  };

  return {
    /**
     * Sends `recycle` (the contract pays the deposit to the receiver) and waits for its confirmations. The
     * hash is heartbeated as soon as the node accepts it, so a retry after a crash waits for that transaction
     * instead of sending another; a token already recycled on chain reports that recycle (the contract
     * refuses a second one, so the deposit is paid once).
     */
    async recycleOnChain(input: { tokenId: string; rewardReceiver: string; mintBlock: number }) {
      return runChainWrite(deps.chain.writer, async (write) => {
        const earlier = await write.earlierTransaction();
        if (earlier) {
          const found = await recycledOnChain(input.tokenId, input.mintBlock, earlier);
          if (found) return found;
        }
        if (await deps.chain.reader.isRecycled(input.tokenId)) {
          const found = await recycledOnChain(input.tokenId, input.mintBlock);
          if (found) return found;
        }
        try {
          const result = await deps.chain.writer.recycle(
            { tokenId: input.tokenId, rewardReceiver: input.rewardReceiver },
            {
              onSubmitted: async (transactionHash) => {
                write.submitted(transactionHash);
                await deps.hooks?.afterRecycleSubmitted?.(transactionHash);
              },
            },
          );
          return released({
            transactionHash: result.txHash,
            blockNumber: result.blockNumber,
            rewardReceiver: input.rewardReceiver,
            amountWei: result.amount,
          });
        } catch (error) {
          if (!isChainRevert(error, 'AlreadyRecycled')) throw error;
          const found = await recycledOnChain(input.tokenId, input.mintBlock);
          if (found) return found;
          throw ApplicationFailure.create({
            message: error.message,
            type: 'AlreadyRecycled',
            nonRetryable: true,
          });
        }
      });
    },

    /** RECYCLE_TRANSFER event, passport RECYCLED and asset.recycled in one database transaction (idempotent). */
    async recordRecycle(input: RecycleInput & ReleasedDeposit) {
      const recorded = await recordRecycle(
        scopedFor(deps, input.scope),
        input.scope,
        {
          tokenId: input.tokenId,
          recycler: input.recycler,
          rewardReceiver: input.rewardReceiver,
          amountWei: input.amountWei,
          amountDecimal: formatEther(BigInt(input.amountWei)),
          transactionHash: input.transactionHash,
          blockNumber: input.blockNumber,
          recycledAt: new Date(input.recycledAt),
          contractAddress: deps.chain.contractAddress,
          location: input.location,
        },
        deps.publicBaseUrl,
      );
      return { passportId: recorded.passportId };
    },
  };
}
