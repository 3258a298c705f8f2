import { Interface, type InterfaceAbi, toBeHex } from 'ethers';
import type { PassportChain } from '../../adapters/chain/passport-chain.ts';

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
  chain: PassportChain,
  tokenId: string,
  fromBlock: number,
): Promise<RecycleRecord | null> {
  const contract = new Interface(chain.artifact.abi as InterfaceAbi);
  const recycled = contract.getEvent('Recycled');
  if (!recycled) throw new Error('the passport contract has no Recycled event');
  const logs = await chain.provider.getLogs({
    address: chain.contractAddress,
    fromBlock,
    toBlock: 'latest',
    topics: [recycled.topicHash, toBeHex(BigInt(tokenId), 32)],
  });
  const log = logs[0];
  if (!log) return null;
  const parsed = contract.parseLog({ topics: [...log.topics], data: log.data });
  if (!parsed) return null;
  return {
    transactionHash: log.transactionHash,
    blockNumber: log.blockNumber,
    rewardReceiver: parsed.args.rewardReceiver as string,
    amountWei: parsed.args.amount as bigint,
  };
}
