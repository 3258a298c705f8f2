import type { PassportReader } from '../../adapters/chain/passport-reader.ts';

export interface RecycleRecord {
  transactionHash: string;
  blockNumber: number;
  rewardReceiver: string;
  amountWei: bigint;
}

/**
 * The token's Recycled event, searched from `fromBlock` (its mint block) on: how a retry learns what an
 * earlier attempt did when it lost the transaction hash. There is at most one (the contract refuses a
 * second recycle).
 */
export async function findRecycle(
  chain: PassportReader,
  tokenId: string,
  fromBlock: number,
): Promise<RecycleRecord | null> {
  const [recycled] = await chain.tokenEvents('Recycled', tokenId, fromBlock);
  if (!recycled) return null;
  return {
    transactionHash: recycled.transactionHash,
    blockNumber: recycled.blockNumber,
    rewardReceiver: recycled.args.rewardReceiver as string,
    amountWei: recycled.args.amount as bigint,
  };
}
